// What a block's plan records when a source could not be read: the failure in a few words for the
// block's note. Only an abort is not recorded: it goes on up and ends the read.
import { isSourceError } from '../../sources/errors.ts';

/** A read failure in a few words: an HTTP status, or what went wrong. */
function whyNotRead(err: unknown): string {
  if (isSourceError(err)) return err.status !== undefined ? `HTTP ${err.status} from the archive` : err.code.replaceAll('_', ' ');
  return err instanceof Error ? err.message : String(err);
}

/** A failed read becomes a block that says so, unless the read was called off, which goes on up. */
export function unlessAborted(err: unknown, signal: AbortSignal | undefined): string {
  if (signal?.aborted) throw err;
  return whyNotRead(err);
}
