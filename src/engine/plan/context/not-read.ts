// What a block's plan records when a source could not be read: the failure in a few words for the
// block's note. A permanent absence is recorded; an abort goes on up and ends the read, and so does
// a transient failure (a 5xx, a timeout) of a map: the read fails, costs nothing and is run again,
// rather than sign "unavailable" for a host that was down for a moment.
import { isSourceError, isTransient } from '../../sources/errors.ts';

/** A read failure in a few words: an HTTP status, or what went wrong. */
function whyNotRead(err: unknown): string {
  if (isSourceError(err)) return err.status !== undefined ? `HTTP ${err.status} from the archive` : err.code.replaceAll('_', ' ');
  return err instanceof Error ? err.message : String(err);
}

/**
 * A failed read becomes a block that says so, unless the read was called off, which goes on up.
 * Only the concession layer records a transient failure: its rule withholds on a layer that did not answer (spec 2.8.7).
 */
export function unlessAborted(err: unknown, signal: AbortSignal | undefined): string {
  if (signal?.aborted) throw err;
  return whyNotRead(err);
}

/** As unlessAborted, and a failure that may pass goes on up too: the read fails rather than record it. */
export function unlessAbortedOrTransient(err: unknown, signal: AbortSignal | undefined): string {
  if (isTransient(err)) throw err;
  return unlessAborted(err, signal);
}
