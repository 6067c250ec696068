import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * PGlite is one process's database: two processes opening the same directory would corrupt it. The lock is an
 * exclusive flock(2) on `<dataDir>/db.lock`, which the kernel enforces: unlike a pid written in a file it holds
 * between PID namespaces (containers sharing a volume, each its own pid 1) and, over NFS, between hosts. Node has
 * no flock of its own, so a child (`flock(1)` from util-linux) takes it and holds it while it reads our end of a
 * pipe; it ends when that pipe closes, so the lock goes with this process however it ends (a crash or SIGKILL
 * included) and is never left stale. The file's text only describes the holder, for the refusal's message.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'database_busy';
  constructor(file: string, holder: string, waitedMs: number) {
    super(`the embedded database is in use by another service (${holder}; still held after ${waitedMs / 1000} s; lock ${file}): stop it first`);
  }
}

/** How long a process waits for a holder to exit: a restart right after a crash or a stop finds the old process still going. */
const LOCK_WAIT_MS = 5000;
/** flock(1)'s exit status when the lock stayed held (its own failures exit 1). */
const BUSY_EXIT = 75;

function lockFile(dataDir: string): string {
  return path.join(dataDir, 'db.lock');
}

/** Who holds the lock, as its holder wrote it. */
function holderOf(file: string): string {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    // Unreadable or gone: the refusal still stands, it names no holder.
  }
  return /^pid \d+ on host \S+ since \S+$/.test(text) ? text : 'holder unknown';
}

/**
 * Takes the lock, waiting up to `waitMs` for a holder to exit; throws DatabaseBusyError after that. Returns the
 * release function, which resolves once the lock is free.
 */
export async function acquireLock(dataDir: string, waitMs = LOCK_WAIT_MS): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const wait = waitMs > 0 ? ['--timeout', String(waitMs / 1000)] : ['--nonblock'];
  // `held` tells us it has the lock; cat then holds it until our end of its stdin closes.
  const child = spawn('flock', ['--exclusive', '--no-fork', ...wait, '--conflict-exit-code', String(BUSY_EXIT), file, 'sh', '-c', 'echo held && exec cat'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // --no-fork makes flock's pid the holder's (it execs the shell, which execs cat): its exit frees the lock.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const outcome = await new Promise<'held' | { code: number | null; error?: Error }>((resolve) => {
    child.stdout.setEncoding('utf8').once('data', () => resolve('held'));
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('exit', (code) => resolve({ code }));
  });
  if (outcome !== 'held') {
    if (outcome.code === BUSY_EXIT) throw new DatabaseBusyError(file, holderOf(file), waitMs);
    const why = outcome.error ? outcome.error.message : stderr.trim() || `exit ${outcome.code}`;
    throw new Error(`could not lock the embedded database (${file}) with flock(1) from util-linux: ${why}`);
  }
  fs.writeFileSync(file, `pid ${process.pid} on host ${os.hostname()} since ${new Date().toISOString()}\n`);
  // The holder must not keep this process alive, nor its pipes: the process's end is the lock's end.
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void }).unref?.();
  return async () => {
    child.ref();
    child.stdin.end();
    await exited;
  };
}
