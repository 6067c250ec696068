// One process at a time generates a world into a folder: the others wait for it and then use what
// it wrote. The lock is a file opened exclusively; its holder touches it as it goes, so a holder that
// died is told from a slow one by a file left untouched.
import { open, rm, stat, utimes } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface GenerationLock<T> {
  /** What is already in place, or null when it must be generated. */
  ready: () => Promise<T | null>;
  generate: () => Promise<T>;
  /** Waiting on a live holder longer than this throws `timedOut()`. */
  waitMs: number;
  timedOut: () => Error;
}

const POLL_MS = 250;
const TOUCH_MS = 5_000;
/** A lock untouched this long was left by a process that died (a loaded machine can delay the holder's touches by seconds). */
export const STALE_LOCK_MS = 300_000;

export async function underGenerationLock<T>(lockPath: string, w: GenerationLock<T>): Promise<T> {
  const deadline = Date.now() + w.waitMs;
  for (;;) {
    const found = await w.ready();
    if (found !== null) return found;
    let held;
    try {
      held = await open(lockPath, 'wx');
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
      const touched = await stat(lockPath).then((s) => s.mtimeMs, () => Date.now());
      if (Date.now() - touched > STALE_LOCK_MS) await rm(lockPath, { force: true });
      else if (Date.now() > deadline) throw w.timedOut();
      await sleep(POLL_MS);
      continue;
    }
    const touch = setInterval(() => void utimes(lockPath, new Date(), new Date()).catch(() => {}), TOUCH_MS);
    try {
      // Another process may have finished between our look and our lock.
      return (await w.ready()) ?? (await w.generate());
    } finally {
      clearInterval(touch);
      await held.close();
      await rm(lockPath, { force: true });
    }
  }
}
