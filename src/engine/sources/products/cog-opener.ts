// How every raster adapter opens a file: the real address rebased onto the configured archive,
// a byte source through the shared range cache, and the COG's header parsed once and kept
// (a plot reads the same few tiles' headers again and again). A failed open is not kept. Here too
// the two ways a reader turns opened files into requests: a product's layers over every tile of
// its grid that a box touches, and a scene's assets.
import { openByteSource } from '../byte-source.ts';
import { type Cog, openCog } from '../cog.ts';
import { SourceError } from '../errors.ts';
import type { Headers, HttpClient } from '../http-client.ts';
import type { RangeCache } from '../range-cache.ts';
import { archiveUrl, isPublic } from './archive-url.ts';
import type { ArchiveLocation, Provenance } from './provenance.ts';
import type { Encoding } from '../../kernels/raster.ts';
import { mosaicForBox, type PlannedLayer, type ProductWindows, requestForBox } from '../raster-request.ts';
import type { Bbox } from '../reproject.ts';

export interface ProductDeps {
  where: ArchiveLocation;
  /** Needed for http(s) archives (real hosts or the local archive server). */
  http?: HttpClient;
  cache?: RangeCache;
}

/**
 * Headers kept per product, the least recently used first out. One Sentinel-2 tile's record is
 * some 65 scenes of five to seven files each (the chip's green and blue among them), over 400
 * headers that every plot of the place opens in turn: kept fewer, each was parsed again per plot.
 */
const KEPT_HEADERS = 1024;

/**
 * Promises kept by key, the least recently used first out past `most`. One that fails is let go,
 * so the next ask tries again rather than keeping the failure.
 */
export class KeptPromises<T> {
  readonly #kept = new Map<string, Promise<T>>();
  readonly #most: number;

  constructor(most = Infinity) {
    this.#most = most;
  }

  get(key: string, make: () => Promise<T>): Promise<T> {
    const found = this.#kept.get(key);
    if (found !== undefined) {
      // Most recently used last.
      this.#kept.delete(key);
      this.#kept.set(key, found);
      return found;
    }
    const made = make();
    this.#kept.set(key, made);
    made.catch(() => {
      if (this.#kept.get(key) === made) this.#kept.delete(key);
    });
    if (this.#kept.size > this.#most) this.#kept.delete(this.#kept.keys().next().value as string);
    return made;
  }
}

export class CogOpener {
  private readonly deps: ProductDeps;
  /** By the real address (the archive's rule maps it to one file). */
  private readonly opened = new KeptPromises<Cog>(KEPT_HEADERS);

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

  /**
   * Opens the COG behind a real URL (`query` is appended as is, e.g. a SAS token). `name` is what the
   * file holds (the product and its tile or scene): a failure's message says that, never where it lies.
   */
  open(realUrl: string, opts: { name: string; query?: string; headers?: Headers; signal?: AbortSignal }): Promise<Cog> {
    return this.opened.get(realUrl, () => {
      const base = this.locate(realUrl);
      const url = opts.query ? `${base}${base.includes('?') ? '&' : '?'}${opts.query}` : base;
      return openCog(openByteSource(url, { http: this.deps.http, cache: this.deps.cache, headers: opts.headers, name: opts.name }), opts.signal);
    });
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
  const source = openByteSource(url);
  const bytes = await source.readAll(signal);
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as T;
  } catch (cause) {
    throw new SourceError('invalid_response', `${source.name} is not JSON`, { url, cause });
  }
}

/** How a reader names one layer of one tile: how to open it, its provenance, and how its values read. */
export interface TileLayer {
  /** Opens the layer's file; `name` is what messages call it (layersOverTiles names the product, tile and layer). */
  open(name: string): Promise<Cog>;
  provenance: Provenance;
  /** The encoding of the file once opened (a producer's stated nodata where the file declares none). */
  encoding(cog: Cog): Encoding;
}

/**
 * Each layer over a box from every tile of one grid that the box touches: one request per layer, a
 * mosaic where the box spans tiles. A tile the archive lacks reads as the layer's nodata and is
 * named in `notRead`; every tile lacking, the first refusal is thrown.
 */
export async function layersOverTiles<L extends string>(
  box: Bbox, tiles: readonly string[], layers: readonly L[], describe: (layer: L, tile: string) => TileLayer,
): Promise<ProductWindows<L>> {
  const notRead = new Set<string>();
  // Every layer settles before the read is judged, so a failure leaves nothing in flight behind it.
  const settled = await Promise.allSettled(layers.map(async (layer) => {
    const described = tiles.map((tile) => describe(layer, tile));
    const opened = await Promise.allSettled(described.map((d, i) => d.open(`${d.provenance.dataset} ${d.provenance.version}, tile ${tiles[i]}, layer ${layer}`)));
    const first = described[opened.findIndex((o) => o.status === 'fulfilled')] ?? described[0];
    const { request, missing } = mosaicForBox(opened, box, (cog) => first.encoding(cog).nodata ?? 0);
    for (const i of missing) notRead.add(tiles[i]);
    return [layer, { request, encoding: first.encoding(request.cog), provenance: first.provenance }] as const;
  }));
  const refused = settled.find((r) => r.status === 'rejected');
  if (refused) throw refused.reason;
  const planned = settled.map((r) => (r as PromiseFulfilledResult<readonly [L, PlannedLayer]>).value);
  return { layers: Object.fromEntries(planned) as Record<L, PlannedLayer>, tiles: [...tiles], notRead: [...notRead] };
}

/** Each asset of a scene over a box (lon/lat): one file per asset, each read on its own grid. */
export async function sceneLayers<A extends string>(
  assets: readonly A[], box: Bbox, open: (asset: A, name: string) => Promise<Cog>, encoding: (asset: A) => Encoding, provenance: Provenance,
): Promise<Record<A, PlannedLayer>> {
  const cogs = await Promise.all(assets.map((a) => open(a, `${provenance.dataset}, scene ${provenance.tile}, band ${a}`)));
  return Object.fromEntries(assets.map((a, i) => [a, { request: requestForBox(cogs[i], box), encoding: encoding(a), provenance }])) as Record<A, PlannedLayer>;
}
