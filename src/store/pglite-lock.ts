import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * PGlite is one process's database: two processes opening the same directory would corrupt it. The holder's
 * pid sits in `<dataDir>/db.lock`. Every step that can race is one atomic file-system call: the lock is made
 * by hard-linking a complete file into place (fails if one exists, and no reader ever sees it half-written),
 * and a stale lock is taken over by renaming it aside (only one contender gets it) before linking a fresh one.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'database_busy';
  readonly pid: number;
  constructor(pid: number, file: string, waitedMs: number) {
    super(`the embedded database is in use by process ${pid} (still running after ${waitedMs / 1000} s; lock ${file}): stop it first`);
    this.pid = pid;
  }
}

/** How long a process waits for a live holder to exit: a restart right after a crash or a stop finds the old process still going. */
const LOCK_WAIT_MS = 5000;
const POLL_MS = 100;
// A lock moved aside by a contender that found it stale is put back at once; a holder that looks again after
// this long knows whether it still holds it (the one case left, a third process linking in meanwhile, ends here).
const SETTLE_MS = 20;

function lockFile(dataDir: string): string {
  return path.join(dataDir, 'db.lock');
}

/** The lock file's text, or null when there is none. */
function readLock(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Links a complete lock file into place; false when a lock is already there. */
function tryLink(file: string): boolean {
  const mine = `${file}.${process.pid}`;
  fs.writeFileSync(mine, String(process.pid), { mode: 0o600 });
  try {
    fs.linkSync(mine, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    fs.rmSync(mine, { force: true });
  }
}

/** Removes the lock whose text was `seen`, unless another contender replaced it meanwhile (then it is put back). */
function removeStale(file: string, seen: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (readLock(aside) !== seen) {
    try {
      fs.linkSync(aside, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  fs.rmSync(aside, { force: true });
}

/**
 * Takes the lock, waiting up to `waitMs` for a live holder to exit; throws DatabaseBusyError after that.
 * Returns the release function. A lock naming this process (a second open in the same process) is taken over.
 */
export async function acquireLock(dataDir: string, waitMs = LOCK_WAIT_MS): Promise<() => void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const started = Date.now();
  for (;;) {
    if (tryLink(file)) {
      await sleep(SETTLE_MS);
      if (readLock(file) === String(process.pid)) return () => releaseLock(file);
      continue;
    }
    const seen = readLock(file);
    if (seen === null) continue;
    const pid = Number(seen.trim());
    if (!(Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))) {
      removeStale(file, seen);
      continue;
    }
    if (Date.now() - started >= waitMs) throw new DatabaseBusyError(pid, file, waitMs);
    await sleep(POLL_MS);
  }
}

function releaseLock(file: string): void {
  if (readLock(file) === String(process.pid)) fs.rmSync(file, { force: true });
}
