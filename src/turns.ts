import { setImmediate as nextTurn } from 'node:timers/promises';

/** The longest a loop on the API's thread works before the event loop takes a turn. */
export const TURN_SLICE_MS = 4;

/**
 * Turn-taking for a long loop on the API's thread: call the answer at each step and await it; it
 * lets the event loop turn once `sliceMs` of work has gone by since it last did.
 */
export function takingTurns(sliceMs = TURN_SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since <= sliceMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}
