// How every raster adapter opens a file: the real address rebased onto the configured archive,
// a byte source through the shared range cache, and the COG's header parsed once and kept
// (a plot reads the same few tiles' headers again and again). A failed open is not kept.
import { openByteSource } from '../byte-source.ts';
import { type Cog, openCog } from '../cog.ts';
import { SourceError } from '../errors.ts';
import type { Headers, HttpClient } from '../http-client.ts';
import type { RangeCache } from '../range-cache.ts';
import { archiveUrl, isPublic } from './archive-url.ts';
import type { ArchiveLocation } from './provenance.ts';

export interface ProductDeps {
  where: ArchiveLocation;
  /** Needed for http(s) archives (real hosts or the local archive server). */
  http?: HttpClient;
  cache?: RangeCache;
}

const KEPT_HEADERS = 256;

export class CogOpener {
  private readonly deps: ProductDeps;
  private readonly opened = new Map<string, Promise<Cog>>();

  constructor(deps: ProductDeps) {
    this.deps = deps;
  }

  get where(): ArchiveLocation {
    return this.deps.where;
  }

  /** The address a real URL is read at in this archive. */
  locate(realUrl: string): string {
    return archiveUrl(realUrl, this.deps.where);
  }

  /** Opens the COG behind a real URL (`query` is appended as is, e.g. a SAS token). */
  open(realUrl: string, opts: { query?: string; headers?: Headers; signal?: AbortSignal } = {}): Promise<Cog> {
    const base = this.locate(realUrl);
    const url = opts.query ? `${base}${base.includes('?') ? '&' : '?'}${opts.query}` : base;
    let cog = this.opened.get(base);
    if (cog === undefined) {
      const src = openByteSource(url, { http: this.deps.http, cache: this.deps.cache, headers: opts.headers });
      cog = openCog(src, opts.signal);
      this.opened.set(base, cog);
      cog.catch(() => this.opened.delete(base));
      if (this.opened.size > KEPT_HEADERS) this.opened.delete(this.opened.keys().next().value as string);
    }
    return cog;
  }
}

/**
 * Planetary Computer blob reads need a SAS token from its token service (public archive only; a
 * mirror serves the files as they are). Tokens are kept for half their usual hour.
 */
export class PlanetaryComputerSigner {
  private readonly deps: ProductDeps;
  private readonly tokens = new Map<string, { token: string; until: number }>();

  constructor(deps: ProductDeps) {
    this.deps = deps;
  }

  async query(tokenUrl: string, signal?: AbortSignal): Promise<string | undefined> {
    if (!isPublic(this.deps.where) || this.deps.http === undefined) return undefined;
    const kept = this.tokens.get(tokenUrl);
    if (kept && kept.until > Date.now()) return kept.token;
    const { token } = await this.deps.http.getJson<{ token: string }>(tokenUrl, { signal });
    this.tokens.set(tokenUrl, { token, until: Date.now() + 30 * 60_000 });
    return token;
  }
}

/** Reads a JSON document at a real address, rebased onto the archive (file or HTTP alike). */
export async function readArchiveJson<T>(realUrl: string, deps: ProductDeps, signal?: AbortSignal): Promise<T> {
  const url = archiveUrl(realUrl, deps.where);
  if (/^https?:/i.test(url)) {
    if (deps.http === undefined) throw new TypeError(`reading ${url} needs an HTTP client`);
    return deps.http.getJson<T>(url, { signal });
  }
  const bytes = await openByteSource(url).readAll(signal);
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as T;
  } catch (cause) {
    throw new SourceError('invalid_response', `${url} is not JSON`, { url, cause });
  }
}
