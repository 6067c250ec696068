// A least-recently-used store bounded in bytes, with request coalescing: while a key is
// being loaded, every other reader of that key waits on the same load. A reader that
// aborts leaves; the load itself is aborted only when its last reader has left.
import type { ByteSource } from './byte-source.ts';

/** Default bounds of a worker process's range cache and decoded tiles (RANGE_CACHE_MB and DECODED_TILE_CACHE_MB, src/config.ts). */
export const DEFAULT_RANGE_CACHE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_DECODED_TILE_BYTES = 512 * 1024 * 1024;

export interface Sized {
  readonly byteLength: number;
}

export interface RangeCacheOptions<V = unknown> {
  /** Upper bound on the bytes held; an entry larger than this is served but never kept. */
  maxBytes: number;
  /** Told of each entry pushed out to stay within the bound (not of one deleted or replaced). */
  onEvict?: (key: string, value: V) => void;
}

export interface RangeCacheStats {
  hits: number;
  misses: number;
  coalesced: number;
  evictions: number;
}

interface Flight<V> {
  promise: Promise<V>;
  controller: AbortController;
  readers: number;
  settled: boolean;
}

export class RangeCache<V extends Sized = Uint8Array> {
  readonly maxBytes: number;
  #bytes = 0;
  // Map iteration order is insertion order, so the first key is the least recently used.
  readonly #entries = new Map<string, V>();
  readonly #flights = new Map<string, Flight<V>>();
  readonly #stats: RangeCacheStats = { hits: 0, misses: 0, coalesced: 0, evictions: 0 };
  readonly #onEvict: ((key: string, value: V) => void) | undefined;

  constructor(options: RangeCacheOptions<V>) {
    if (!Number.isFinite(options.maxBytes) || options.maxBytes < 0) {
      throw new TypeError(`range cache option "maxBytes" must be a non-negative number, got ${options.maxBytes}`);
    }
    this.maxBytes = options.maxBytes;
    this.#onEvict = options.onEvict;
  }

  /** Bytes held now; never more than `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  stats(): RangeCacheStats {
    return { ...this.#stats };
  }

  /** The value under `key`, loading it once however many readers ask at the same time. */
  get(key: string, load: (signal: AbortSignal) => Promise<V>, signal?: AbortSignal): Promise<V> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const held = this.#entries.get(key);
    if (held !== undefined) {
      this.#stats.hits++;
      this.#entries.delete(key);
      this.#entries.set(key, held);
      return Promise.resolve(held);
    }
    let flight = this.#flights.get(key);
    if (flight === undefined) {
      this.#stats.misses++;
      flight = this.#start(key, load);
    } else {
      this.#stats.coalesced++;
    }
    return this.#join(key, flight, signal);
  }

  /** Keeps `value` under `key` (replacing any), evicting the least recently used as needed. */
  set(key: string, value: V): void {
    this.delete(key);
    if (value.byteLength > this.maxBytes) return;
    this.#entries.set(key, value);
    this.#bytes += value.byteLength;
    for (const [oldest, v] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= v.byteLength;
      this.#stats.evictions++;
      this.#onEvict?.(oldest, v);
    }
  }

  peek(key: string): V | undefined {
    return this.#entries.get(key);
  }

  delete(key: string): void {
    const held = this.#entries.get(key);
    if (held === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= held.byteLength;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #start(key: string, load: (signal: AbortSignal) => Promise<V>): Flight<V> {
    const controller = new AbortController();
    const flight: Flight<V> = { promise: undefined as unknown as Promise<V>, controller, readers: 0, settled: false };
    flight.promise = load(controller.signal).then(
      (value) => {
        flight.settled = true;
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
        // A load whose readers all left still fills the cache: the bytes are already here.
        this.set(key, value);
        return value;
      },
      (err: unknown) => {
        flight.settled = true;
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
        throw err;
      },
    );
    // Readers observe the outcome through their own promises; this keeps an abandoned load quiet.
    flight.promise.catch(() => {});
    this.#flights.set(key, flight);
    return flight;
  }

  #join(key: string, flight: Flight<V>, signal: AbortSignal | undefined): Promise<V> {
    flight.readers++;
    if (signal === undefined) return flight.promise;
    return new Promise<V>((resolve, reject) => {
      const onAbort = () => {
        reject(signal.reason);
        if (--flight.readers === 0 && !flight.settled) {
          // Nobody waits any more: stop the transfer and let the next reader start afresh.
          if (this.#flights.get(key) === flight) this.#flights.delete(key);
          flight.controller.abort(signal.reason);
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  }
}

export interface CachedReadOptions {
  /** Reads shorter than this are served from aligned blocks of `blockSize` bytes. */
  smallReadBytes?: number;
  blockSize?: number;
}

const DEFAULT_BLOCK = 64 * 1024;
const DEFAULT_SMALL_READ = 16 * 1024;

/**
 * A byte source whose reads go through `cache`. Header and IFD reads (small, scattered) are
 * rounded to aligned blocks so one request serves many of them; tile reads (large, and always
 * the same offset and length for a tile) are kept under their exact range.
 */
export function withRangeCache(source: ByteSource, cache: RangeCache, options: CachedReadOptions = {}): ByteSource {
  const blockSize = options.blockSize ?? DEFAULT_BLOCK;
  const smallRead = Math.min(options.smallReadBytes ?? DEFAULT_SMALL_READ, blockSize);

  const block = (index: number, signal?: AbortSignal) =>
    cache.get(`${source.id}#b${blockSize}:${index}`, (s) => source.read(index * blockSize, blockSize, s), signal);

  return {
    id: source.id,
    name: source.name,
    get size() {
      return source.size;
    },
    async read(offset, length, signal) {
      if (length >= smallRead) {
        return cache.get(`${source.id}#r${offset}+${length}`, (s) => source.read(offset, length, s), signal);
      }
      const first = Math.floor(offset / blockSize);
      const last = Math.floor((offset + length - 1) / blockSize);
      if (first === last) {
        const b = await block(first, signal);
        const start = offset - first * blockSize;
        return b.subarray(start, Math.min(start + length, b.length));
      }
      const start = offset - first * blockSize;
      // A read that runs past the end of the file ends with the first block.
      const pastEnd = source.size !== null && last * blockSize >= source.size;
      const [a, b] = await Promise.all([block(first, signal), pastEnd ? null : block(last, signal)]);
      if (b === null || a.length < blockSize) return a.subarray(start);
      const headLength = a.length - start;
      const tail = b.subarray(0, Math.min(length - headLength, b.length));
      const out = new Uint8Array(new SharedArrayBuffer(headLength + tail.length));
      out.set(a.subarray(start), 0);
      out.set(tail, headLength);
      return out;
    },
    readAll(signal) {
      return source.readAll(signal);
    },
  };
}
