/**
 * The main thread's half of the decode path (design decisions 4 and 5): for the windows a plot's
 * blocks asked for, find the tiles they touch, fetch the compressed bytes of those not yet decoded
 * (through the shared range cache), and hand the worker a slot to decode each into. Slots are kept
 * here, least recently used first out, bounded in bytes, so a tile is decoded once and every later
 * plot that needs it receives the decoded SharedArrayBuffer itself, which costs nothing to pass.
 */
import { type ShippedRaster, type ShippedTile, type TileSlot, newTileSlot, slotIsReady } from '../worker/raster-window.ts';
import { RangeCache } from '../sources/range-cache.ts';
import type { RasterRequest } from './raster-request.ts';
import type { GeoTransform } from '../sources/cog.ts';

/** A slot as the cache weighs it. */
interface KeptSlot {
  slot: TileSlot;
  readonly byteLength: number;
}

export interface DecodedTilesOptions {
  /** Upper bound on the decoded bytes kept (default 512 MiB). */
  maxBytes?: number;
}

export const DEFAULT_DECODED_TILE_BYTES = 512 * 1024 * 1024;

/** The decoded-tile cache: one per worker process, shared by every plot its jobs read. */
export class DecodedTiles {
  readonly #slots: RangeCache<KeptSlot>;

  constructor(options: DecodedTilesOptions = {}) {
    const maxBytes = options.maxBytes ?? DEFAULT_DECODED_TILE_BYTES;
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new TypeError(`decoded tiles option "maxBytes" must be a non-negative number, got ${maxBytes}`);
    this.#slots = new RangeCache<KeptSlot>({ maxBytes });
  }

  get bytes(): number {
    return this.#slots.bytes;
  }

  get maxBytes(): number {
    return this.#slots.maxBytes;
  }

  /** The slot of a tile, made (empty) on first use. */
  slot(key: string, make: () => TileSlot): TileSlot {
    const kept = this.#slots.peek(key);
    if (kept !== undefined) {
      // Touch it: a slot in use is the most recently used.
      this.#slots.set(key, kept);
      return kept.slot;
    }
    const slot = make();
    this.#slots.set(key, { slot, byteLength: slot.data.byteLength });
    return slot;
  }
}

export interface Shipment {
  tiles: ShippedTile[];
  rasters: ShippedRaster[];
  /** Compressed bytes fetched for this shipment (tiles already decoded travel without any). */
  fetchedBytes: number;
}

/**
 * Ships every request: each tile once however many windows touch it, its compressed bytes fetched
 * unless its slot is already decoded. Fetches run together; the first failure calls off the rest.
 */
export async function shipRasters(requests: readonly RasterRequest[], decoded: DecodedTiles, signal?: AbortSignal): Promise<Shipment> {
  const tiles: ShippedTile[] = [];
  const byTile = new Map<string, number>();
  const fetches: Array<Promise<void>> = [];
  const inner = new AbortController();
  const fetchSignal = signal === undefined ? inner.signal : AbortSignal.any([signal, inner.signal]);
  let fetchedBytes = 0;
  const seen = new Set<string>();
  const rasters: ShippedRaster[] = [];
  for (const req of requests) {
    if (seen.has(req.key)) continue;
    seen.add(req.key);
    const { cog, window } = req;
    const win = req.band === undefined ? window : { ...window, band: req.band };
    const indices: number[] = [];
    for (const ref of cog.tilesFor(win)) {
      const key = `${cog.id}#${ref.index}`;
      let index = byTile.get(key);
      if (index === undefined) {
        index = tiles.length;
        byTile.set(key, index);
        const spec = cog.tileSpec(ref);
        const tile: ShippedTile = { spec, x0: ref.x0, y0: ref.y0, plane: ref.band, slot: null, bytes: null, fill: cog.nodata ?? 0 };
        tiles.push(tile);
        if (ref.length > 0) {
          tile.slot = decoded.slot(key, () => newTileSlot(spec));
          if (!slotIsReady(tile.slot)) {
            fetches.push(cog.readTileBytes(ref, fetchSignal).then((bytes) => {
              tile.bytes = bytes;
              fetchedBytes += bytes.byteLength;
            }));
          }
        }
      }
      indices.push(index);
    }
    const [ox, pw, rx, oy, ry, ph] = cog.geoTransform;
    const geoTransform: GeoTransform = [ox + window.x0 * pw + window.y0 * rx, pw, rx, oy + window.x0 * ry + window.y0 * ph, ry, ph];
    rasters.push({
      key: req.key,
      x0: window.x0,
      y0: window.y0,
      width: window.width,
      height: window.height,
      ...(req.band === undefined ? {} : { band: req.band }),
      dtype: cog.dtype,
      samplesPerPixel: cog.samplesPerPixel,
      planar: cog.planar,
      tiles: indices,
      geoTransform,
      epsg: cog.epsg,
      nodata: cog.nodata,
      scale: cog.scale,
      offset: cog.offset,
    });
  }
  for (const f of fetches) f.catch(() => {});
  try {
    await Promise.all(fetches);
  } catch (err) {
    inner.abort(err);
    throw err;
  }
  return { tiles, rasters, fetchedBytes };
}
