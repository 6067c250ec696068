// Byte sources: the bottom layer of reading. A read answers exactly the bytes asked for, or
// fewer only where the range runs past the end of the file; anything shorter is an error
// (`truncated`), never padding. Bytes land on a SharedArrayBuffer so a worker thread can
// decode them without a copy.
import { open } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SourceError } from './errors.ts';
import type { Headers, HttpClient } from './http-client.ts';
import { type RangeCache, withRangeCache } from './range-cache.ts';

export interface ByteSource {
  /** Absolute path or URL; also the prefix of this source's keys in a shared cache. Never shown in a message. */
  readonly id: string;
  /** What the file holds, as messages name it (a product's tile, a scene's band); never its path or address. */
  readonly name: string;
  /** Length of the file once a read has revealed it, else null. */
  readonly size: number | null;
  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  readAll(signal?: AbortSignal): Promise<Uint8Array>;
}

export interface ByteSourceDeps {
  http?: HttpClient;
  cache?: RangeCache;
  /** Extra request headers (an API key, a SAS token header). */
  headers?: Headers;
  /**
   * A host that ignores Range answers the whole file; a file up to this size is then kept by
   * the source and every later read is served from it. A larger one is refused with
   * `range_unsupported` (download it with `HttpClient.download` and open the copy).
   */
  wholeBodyLimit?: number;
  /** What the file holds, as messages name it; by default the file's own name, without its folders or query. */
  name?: string;
}

const DEFAULT_WHOLE_BODY_LIMIT = 64 * 1024 * 1024;

/** A file source for `file:` URLs and plain paths, an HTTP range source for `http(s):`. */
export function openByteSource(url: string, deps: ByteSourceDeps = {}): ByteSource {
  const raw = rawSource(url, deps);
  return deps.cache === undefined ? raw : withRangeCache(raw, deps.cache);
}

/**
 * A file's own name, without the folders above it or a query: what a message may say of a file nobody
 * named, since a failed read's message reaches users and webhooks, and the server's layout is no concern of theirs.
 */
export function fileName(url: string): string {
  return `file ${basename(url.replace(/[?#].*$/, ''))}`;
}

function rawSource(url: string, deps: ByteSourceDeps): ByteSource {
  const name = deps.name ?? fileName(url);
  if (/^https?:\/\//i.test(url)) {
    if (deps.http === undefined) throw new TypeError(`opening ${name} needs an HTTP client (deps.http)`);
    return httpSource(url, name, deps.http, deps.headers ?? {}, deps.wholeBodyLimit ?? DEFAULT_WHOLE_BODY_LIMIT);
  }
  if (url.startsWith('file:')) return fileSource(fileURLToPath(url), name);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) throw new TypeError(`no byte source for the scheme of ${name}`);
  return fileSource(isAbsolute(url) ? url : resolve(url), name);
}

function shared(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(length));
}

function fileSource(path: string, name: string): ByteSource {
  const url = pathToFileURL(path).href;
  let size: number | null = null;

  async function openFile() {
    try {
      return await open(path, 'r');
    } catch (cause) {
      const code = (cause as { code?: string }).code;
      if (code === 'ENOENT') throw new SourceError('not_found', `${name} does not exist in the archive`, { url, cause });
      throw new SourceError('unreadable', `${name} could not be opened (${code})`, { url, cause });
    }
  }

  return {
    id: path,
    name,
    get size() {
      return size;
    },
    // Opened per read: local reads cost microseconds next to a tile decode, and nothing leaks. The size is
    // looked up first, so a length a damaged or hostile header declares allocates no more than the file holds.
    async read(offset, length, signal) {
      signal?.throwIfAborted();
      const fh = await openFile();
      try {
        size = (await fh.stat()).size;
        const wanted = Math.max(0, Math.min(length, size - offset));
        const out = shared(wanted);
        let filled = 0;
        while (filled < wanted) {
          const { bytesRead } = await fh.read(out, filled, wanted - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        signal?.throwIfAborted();
        if (filled < wanted) {
          throw new SourceError('truncated', `${name}: read ${filled} of ${length} bytes at ${offset} before the end of the file`, { url });
        }
        return out;
      } finally {
        await fh.close();
      }
    },
    async readAll(signal) {
      signal?.throwIfAborted();
      const fh = await openFile();
      try {
        size = (await fh.stat()).size;
        const out = shared(size);
        let filled = 0;
        while (filled < size) {
          const { bytesRead } = await fh.read(out, filled, size - filled, filled);
          if (bytesRead === 0) throw new SourceError('truncated', `${name} ended after ${filled} of ${size} bytes`, { url });
          filled += bytesRead;
        }
        return out;
      } finally {
        await fh.close();
      }
    },
  };
}

interface ContentRange {
  start: number;
  end: number;
  total: number | null;
}

function parseContentRange(value: string | undefined): ContentRange | null {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (m === null) return null;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) };
}

function httpSource(url: string, name: string, http: HttpClient, headers: Headers, wholeBodyLimit: number): ByteSource {
  let size: number | null = null;
  let whole: Uint8Array | null = null;

  const clip = (body: Uint8Array, offset: number, length: number) => body.subarray(Math.min(offset, body.length), Math.min(offset + length, body.length));

  return {
    id: url,
    name,
    get size() {
      return size;
    },
    async read(offset, length, signal) {
      signal?.throwIfAborted();
      if (whole !== null) return clip(whole, offset, length);
      if (length === 0) return shared(0);
      const end = offset + length - 1;
      let res;
      try {
        res = await http.get(url, { range: [offset, end], headers, signal, shared: true, maxBytes: Math.max(length, wholeBodyLimit) });
      } catch (err) {
        if (err instanceof SourceError && err.code === 'too_large' && err.status === 200) {
          throw new SourceError(
            'range_unsupported',
            `the host of ${name} ignores Range and its whole file is larger than ${wholeBodyLimit} bytes; download it whole and read the copy`,
            { url, status: 200, cause: err },
          );
        }
        throw err;
      }
      if (res.status === 200) {
        // Range ignored: the body is the whole file. Keep it; asking again would fetch it again.
        whole = res.body;
        size = whole.length;
        return clip(whole, offset, length);
      }
      if (res.status !== 206) {
        throw new SourceError('invalid_response', `${name}: answered ${res.status} to a range request`, { url, status: res.status });
      }
      const range = parseContentRange(res.headers['content-range'] as string | undefined);
      if (range === null || range.start !== offset || range.end > end) {
        throw new SourceError(
          'invalid_response',
          `${name}: answered bytes ${res.headers['content-range'] ?? '(no Content-Range)'} to a request for ${offset}-${end}`,
          { url, status: 206 },
        );
      }
      if (range.total !== null) size = range.total;
      const atEnd = range.total !== null && range.end === range.total - 1;
      if (res.body.length !== range.end - range.start + 1 || (range.end < end && !atEnd)) {
        throw new SourceError('truncated', `${name}: answered ${res.body.length} bytes for ${offset}-${end}`, { url, status: 206 });
      }
      return res.body;
    },
    async readAll(signal) {
      if (whole !== null) return whole;
      const res = await http.get(url, { headers, signal, shared: true });
      size = res.body.length;
      return res.body;
    },
  };
}
