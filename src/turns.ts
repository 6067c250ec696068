import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Turn-taking for a long loop on the API's thread: call the answer at each step and await it; it
 * lets the event loop turn once `sliceMs` of work has gone by since it last did.
 */
export function takingTurns(sliceMs: number): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since <= sliceMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}
