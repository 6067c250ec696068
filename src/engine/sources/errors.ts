// Errors of the archive-reading layer. Every failure carries a stable `code` and, when a
// remote or local address was involved, the `url` it concerned, so the product layer can
// decide on failover (try the next mirror) without parsing messages.

export type SourceErrorCode =
  | 'http_status' // the host answered with a refusal (4xx other than 404, or 5xx after the retries)
  | 'not_found' // 404, or a local file that does not exist
  | 'unreadable' // a local file that exists but cannot be opened (permissions, a directory)
  | 'timeout' // no answer (or a stalled body) within the client's timeout, after the retries
  | 'network' // connection refused, reset or cut before an answer, after the retries
  | 'truncated' // fewer bytes than the answer itself promised
  | 'range_unsupported' // the host ignored Range and the whole body is too large to keep
  | 'too_large' // a body larger than the caller allowed
  | 'invalid_response' // a body that is not what was asked for (bad JSON, a wrong Content-Range)
  | 'invalid_tiff' // a file that geotiff.js cannot parse or that lacks what a COG needs
  | 'unsupported_tiff' // a TIFF feature this reader does not decode (compression, bit depth)
  | 'unsupported_crs' // a CRS the reprojection table does not hold
  | 'window_outside' // a requested window that does not touch the raster
  | 'invalid_catalogue'; // a STAC answer or item file of the wrong shape

export class SourceError extends Error {
  readonly code: SourceErrorCode;
  readonly url: string | undefined;
  readonly status: number | undefined;

  constructor(code: SourceErrorCode, message: string, details: { url?: string; status?: number; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SourceError';
    this.code = code;
    this.url = details.url;
    this.status = details.status;
  }
}

export function isSourceError(err: unknown, code?: SourceErrorCode): err is SourceError {
  return err instanceof SourceError && (code === undefined || err.code === code);
}


/**
 * A failure that may pass: a 5xx or 429, a timeout, a reset or a cut body. The HTTP client
 * retries exactly these, and a caller with mirrors moves on to the next one for them.
 */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof SourceError)) return false;
  if (err.code === 'http_status') return err.status !== undefined && (err.status >= 500 || err.status === 429);
  return err.code === 'timeout' || err.code === 'network' || err.code === 'truncated';
}
