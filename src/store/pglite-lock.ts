import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite is one process's database: two processes opening the same directory would corrupt it. The holder
 * writes its pid into `<dataDir>/db.lock`; a lock whose process is gone is stale and taken over.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'database_busy';
  readonly pid: number;
  constructor(pid: number, file: string) {
    super(`the embedded database is held by process ${pid} (${file})`);
    this.pid = pid;
  }
}

export function lockFile(dataDir: string): string {
  return path.join(dataDir, 'db.lock');
}

export function holderOf(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockFile(dataDir), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

export function acquireLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = holderOf(dataDir);
      if (holder !== null && holder !== process.pid) throw new DatabaseBusyError(holder, file);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take ${file}`);
}
