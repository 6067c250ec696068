/**
 * The main thread's half of the decode path (design decisions 4 and 5): for the windows a plot's
 * blocks asked for, find the tiles they touch, fetch the compressed bytes of those not yet decoded
 * (through the shared range cache), and hand the worker a slot to decode each into. Slots are kept
 * here, bounded in bytes (at the bound the first out is what the jobs' next plots need last), so a
 * tile is decoded once and every later plot that needs it receives the decoded SharedArrayBuffer
 * itself, which costs nothing to pass.
 */
import { type ShippedRaster, type ShippedTile, type TileSlot, emptyTileSlot, newTileSlot, slotByteLength, slotIsReady } from '../worker/raster-window.ts';
import { DEFAULT_DECODED_TILE_BYTES } from '../sources/range-cache.ts';
import type { Cog, PixelWindow, TileRef } from '../sources/cog.ts';
import { decodedByteLength, type TileSpec } from '../worker/tile-decode.ts';
import type { RasterRequest } from '../sources/raster-request.ts';
import { packShipment, type RasterShipment } from '../worker/shipment-wire.ts';
import { type Bbox, type GeoTransform, transformBbox } from '../sources/reproject.ts';

/** A slot as the store weighs it, and the shipments whose tasks still read it. */
interface KeptSlot {
  /** The tile it holds (or is being decoded into). */
  key: string;
  readonly slot: TileSlot;
  /** The slot, weakly: what `#held` keeps while shipments hold it, made and registered once a slot and key. */
  ref: WeakRef<TileSlot>;
  readonly byteLength: number;
  /** Shipments holding the slot whose tasks have not ended. */
  users: number;
  /** False once a task holding it failed: a thread may still be writing it, so it is never lent to another tile. */
  reusable: boolean;
  /** The ground its tile covers, known while a reader looks ahead (`lookAhead`). */
  group: TileGroup;
}

/** Where a tile lies, in degrees (west, south, east, north). */
export type Place = Readonly<Bbox>;

/**
 * How many plots from now a reader next needs ground in a place (Infinity: never). A job registers
 * one while it reads (`DecodedTiles.lookAhead`), from the positions of the plots it has left.
 */
export type LookAhead = (place: Place) => number;

/**
 * The kept slots whose tiles cover one place (one cell of one file grid, over every scene on it),
 * least recently used first; one group, of no place, holds the slots whose place is not known.
 */
interface TileGroup {
  key: string;
  place: Place | null;
  slots: Set<KeptSlot>;
}

export interface DecodedTilesOptions {
  /**
   * Upper bound on the decoded bytes the process holds: the tiles kept for later plots and those of
   * the plots in flight together (default 512 MiB). Where the plots in flight once held more, that
   * much is the bound instead.
   */
  maxBytes?: number;
}

/**
 * The decoded-tile store: one per worker process, shared by every plot its jobs read.
 *
 * One bound covers every decoded byte the process holds, so its memory is flat however long the
 * book: the slots unfinished shipments hold, and those kept, each still holding its tile, for the
 * plots after them, least recently used first out. A tile asked for again is taken back whole
 * while its slot is kept. A new tile, once the bound is reached, is decoded into the memory of the
 * least recently used kept slot of its size (up to twice as large), never into fresh memory: a
 * SharedArrayBuffer's memory lies outside V8's heap and does not hasten a collection, so slots let
 * go were given back only when one happened to run (a campaign grew to 7.8 GB behind a 512 MB
 * cache). Only where no kept slot of its size is left is the oldest let go and fresh memory made.
 *
 * The bound is the larger of `maxBytes` and the most the plots in flight have held at once: below
 * that, each plot would let go what the next one must make anew (a campaign reached 15 GB behind a
 * 64 MB cache when a plot's whole record was one shipment, bench/HARD-WORLD.md).
 *
 * While a job reads, it says how soon its plots need each place again (`lookAhead`), and the slot let
 * go or lent at the bound is the least recently used of the place needed again last, not of all: a
 * job's curve over its plots leaves a tile cell and comes back to it, and least recently used alone
 * let go of the cell it was about to come back to (bench/RESULTS.md "book").
 */
export class DecodedTiles {
  readonly maxBytes: number;
  /** Slots no unfinished shipment holds, by tile, the least recently used first (a Map keeps insertion order). */
  readonly #kept = new Map<string, KeptSlot>();
  #keptBytes = 0;
  /** By the slot a shipment carries; weak, so a shipment dropped unfinished holds nothing here. */
  readonly #bySlot = new WeakMap<TileSlot, KeptSlot>();
  /**
   * Slots some unfinished shipment holds, by tile. A neighbour shipped while a plot is in flight
   * takes the tile that plot holds, decoded once. Weak, as `#bySlot` is: a shipment dropped
   * unfinished (a job called off) leaves its slots to the collector, and their entries go with them.
   */
  readonly #held = new Map<string, WeakRef<TileSlot>>();
  /** Kept slots by the place their tiles cover; a group is here while it holds a kept slot. */
  readonly #groups = new Map<string, TileGroup>();
  readonly #ahead = new Set<LookAhead>();
  readonly #forget = new FinalizationRegistry<{ key: string; ref: WeakRef<TileSlot> }>(({ key, ref }) => {
    if (this.#held.get(key) === ref) this.#held.delete(key);
  });
  /** Bytes of the slots unfinished shipments hold, and the most they have held at once. */
  #heldBytes = 0;
  #mostHeld = 0;
  #hits = 0;
  #misses = 0;
  #reused = 0;

  constructor(options: DecodedTilesOptions = {}) {
    const maxBytes = options.maxBytes ?? DEFAULT_DECODED_TILE_BYTES;
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new TypeError(`decoded tiles option "maxBytes" must be a non-negative number, got ${maxBytes}`);
    this.maxBytes = maxBytes;
  }

  /** Bytes of the slots kept for later plots (no unfinished shipment holds them). */
  get bytes(): number {
    return this.#keptBytes;
  }

  /** Bytes of the slots that unfinished shipments hold (their tasks not yet ended), each slot once. */
  get heldBytes(): number {
    return this.#heldBytes;
  }

  /** What the kept and held slots stay within: `maxBytes`, or the most the plots in flight have held at once when that is more. */
  get boundBytes(): number {
    return Math.max(this.maxBytes, this.#mostHeld);
  }

  /** Tiles asked for that were already held or kept (decoded, or being decoded for another plot) and those that were not; `reused`: misses decoded into a kept slot's memory. */
  stats(): { hits: number; misses: number; reused: number } {
    return { hits: this.#hits, misses: this.#misses, reused: this.#reused };
  }

  /**
   * Registers a reader's look ahead until the answered function is called; while any is registered,
   * the slot let go at the bound is one of the place they need again last (the nearest any of them
   * needs it).
   */
  lookAhead(ahead: LookAhead): () => void {
    this.#ahead.add(ahead);
    return () => void this.#ahead.delete(ahead);
  }

  /**
   * The slot of a tile, made (empty) on first use; held for the caller until it calls `release`.
   * `place` tells where the tile lies, asked only when it is decoded anew while a reader looks ahead.
   */
  slot(key: string, spec: TileSpec, place?: () => Place | null): TileSlot {
    const heldSlot = this.#held.get(key)?.deref();
    let kept = heldSlot === undefined ? undefined : this.#bySlot.get(heldSlot);
    if (kept === undefined) {
      kept = this.#kept.get(key);
      if (kept !== undefined) this.#unkeep(kept);
    }
    if (kept !== undefined) this.#hits++;
    else {
      this.#misses++;
      kept = this.#lend(key, slotByteLength(spec)) ?? this.#make(key, spec);
      kept.group = this.#groupOf(this.#ahead.size === 0 || place === undefined ? null : place());
    }
    if (kept.users++ === 0) {
      this.#held.set(key, kept.ref);
      this.#heldBytes += kept.byteLength;
      this.#mostHeld = Math.max(this.#mostHeld, this.#heldBytes);
    }
    return kept.slot;
  }

  /**
   * A shipment's task has ended: its slots are no longer held by it. A slot no shipment holds is kept,
   * the most recently used. After a failed task a worker may still be decoding into its slots, so
   * they are lent to no later shipment and left to the collector.
   */
  release(shipment: Pick<Shipment, 'tiles'>, finished: boolean): void {
    for (const t of shipment.tiles) {
      const kept = t.slot === null ? undefined : this.#bySlot.get(t.slot);
      if (kept === undefined) continue;
      if (--kept.users === 0) this.#heldBytes -= kept.byteLength;
      if (!finished) kept.reusable = false;
      if (kept.users > 0 && kept.reusable) continue;
      if (this.#held.get(kept.key) === kept.ref) this.#held.delete(kept.key);
      if (kept.users > 0 || !kept.reusable) continue;
      const other = this.#kept.get(kept.key);
      if (other !== undefined) this.#unkeep(other);
      this.#keep(kept);
    }
  }

  #keep(kept: KeptSlot): void {
    this.#kept.set(kept.key, kept);
    this.#keptBytes += kept.byteLength;
    // The group may have been let go, empty, while the slot was held.
    const group = this.#groups.get(kept.group.key) ?? kept.group;
    this.#groups.set(group.key, group);
    kept.group = group;
    group.slots.add(kept);
  }

  #unkeep(kept: KeptSlot): void {
    this.#kept.delete(kept.key);
    this.#keptBytes -= kept.byteLength;
    kept.group.slots.delete(kept);
    if (kept.group.slots.size === 0) this.#groups.delete(kept.group.key);
  }

  /** The group of a place (the group of no place for null), made if none is kept; `#keep` files it. */
  #groupOf(place: Place | null): TileGroup {
    const key = place === null ? '' : place.map((v) => v.toFixed(6)).join(',');
    return this.#groups.get(key) ?? { key, place, slots: new Set() };
  }

  /**
   * The kept slot of `min` to `max` bytes to let go first: the least recently used of all where no
   * reader looks ahead; else the least recently used of the place needed again last (a place not
   * known or needed again by none first).
   */
  #victim(min: number, max: number): KeptSlot | undefined {
    const fits = (k: KeptSlot) => k.byteLength >= min && k.byteLength <= max;
    if (this.#ahead.size === 0) {
      for (const [, kept] of this.#kept) if (fits(kept)) return kept;
      return undefined;
    }
    let victim: KeptSlot | undefined;
    let last = -1;
    for (const group of this.#groups.values()) {
      const next = group.place === null ? Infinity : this.#nextNeed(group.place);
      if (next <= last) continue;
      for (const kept of group.slots) {
        if (!fits(kept)) continue;
        victim = kept;
        last = next;
        break;
      }
      if (last === Infinity) break;
    }
    return victim;
  }

  /** How many plots from now the readers looking ahead next need `place`: the nearest of their answers. */
  #nextNeed(place: Place): number {
    let next = Infinity;
    for (const ahead of this.#ahead) next = Math.min(next, ahead(place));
    return next;
  }

  /**
   * Under the bound, nothing: the tile gets memory of its own. At it, the kept slot of the tile's
   * size (up to twice as large) to let go first (`#victim`), emptied and under the new key; if none,
   * kept slots are let go in that order until the tile fits, and nothing is lent.
   */
  #lend(key: string, byteLength: number): KeptSlot | undefined {
    if (this.#fits(byteLength)) return undefined;
    const kept = this.#victim(byteLength, 2 * byteLength);
    if (kept !== undefined) {
      this.#unkeep(kept);
      // Lent under another key from now on.
      this.#forget.unregister(kept.ref);
      kept.key = key;
      kept.ref = new WeakRef(kept.slot);
      this.#forget.register(kept.slot, { key, ref: kept.ref }, kept.ref);
      emptyTileSlot(kept.slot);
      this.#reused++;
      return kept;
    }
    for (let first = this.#victim(0, Infinity); first !== undefined && !this.#fits(byteLength); first = this.#victim(0, Infinity)) this.#unkeep(first);
    return undefined;
  }

  /** Whether `byteLength` more fits beside the kept and held slots within the bound. */
  #fits(byteLength: number): boolean {
    return this.#keptBytes + this.#heldBytes + byteLength <= this.boundBytes;
  }

  #make(key: string, spec: TileSpec): KeptSlot {
    const slot = newTileSlot(spec);
    const ref = new WeakRef(slot);
    const kept: KeptSlot = { key, slot, ref, byteLength: slot.byteLength, users: 0, reusable: true, group: this.#groupOf(null) };
    this.#bySlot.set(slot, kept);
    this.#forget.register(slot, { key, ref }, ref);
    return kept;
  }
}

/** Runs a task over a shipment, as it travels to a thread, then releases the shipment's slots, as finished or failed. */
export async function withShipment<T>(decoded: DecodedTiles, shipment: Shipment, task: (wire: RasterShipment) => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await task(packShipment(shipment));
  } catch (err) {
    decoded.release(shipment, false);
    throw err;
  }
  decoded.release(shipment, true);
  return result;
}

export interface Shipment {
  tiles: ShippedTile[];
  rasters: ShippedRaster[];
  /** Compressed bytes fetched for this shipment (tiles already decoded travel without any). */
  fetchedBytes: number;
}

/** Each opened file's tile keys, made once: a key built anew for every plot is hashed anew in every map it meets. */
const tileKeys = new WeakMap<Cog, string[]>();

/** Where a tile is kept in the decoded-tile cache. */
function tileKey(cog: Cog, ref: TileRef): string {
  let keys = tileKeys.get(cog);
  if (keys === undefined) tileKeys.set(cog, (keys = []));
  return (keys[ref.index] ??= `${cog.id}#${ref.index}`);
}

/** Where a tile of `cog` lies, in degrees, from its corners (roughly: it tells tile cells apart); null where the file names no CRS. */
function tilePlace(cog: Cog, ref: TileRef): Place | null {
  if (cog.epsg === null) return null;
  const [ox, pw, , oy, , ph] = cog.geoTransform;
  const xs = [ox + ref.x0 * pw, ox + (ref.x0 + cog.tileWidth) * pw];
  const ys = [oy + ref.y0 * ph, oy + (ref.y0 + cog.tileHeight) * ph];
  try {
    return transformBbox([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], cog.epsg, 'EPSG:4326', 2);
  } catch {
    return null;
  }
}

/** The spec of a tile of `cog` of this size: a whole tile's, or a sparse fill tile's the size of its window. */
const tileSpecOf = (cog: Cog, width: number, height: number): TileSpec => ({
  compression: cog.compression, predictor: cog.predictor, dtype: cog.dtype, width, height, samplesPerPixel: cog.planar ? 1 : cog.samplesPerPixel,
});

/** The file windows a request reads: its own, or each part's, placed at (dx, dy) in the request's window. */
function fileWindows(req: RasterRequest): Array<{ cog: Cog; win: PixelWindow; dx: number; dy: number; mosaic: boolean }> {
  const { window } = req;
  if (req.parts === undefined) return [{ cog: req.cog, win: req.band === undefined ? window : { ...window, band: req.band }, dx: 0, dy: 0, mosaic: false }];
  return req.parts.map((p) => ({ cog: p.cog, win: p.window, dx: window.x0 + p.x - p.window.x0, dy: window.y0 + p.y - p.window.y0, mosaic: true }));
}

/** The decoded bytes of the distinct tiles `requests` touch: what shipping them would hold, bytes fetched or not. */
export function decodedBytes(requests: readonly RasterRequest[]): number {
  const seen = new Set<string>();
  let bytes = 0;
  for (const req of requests) {
    for (const { cog, win } of fileWindows(req)) {
      for (const ref of cog.tilesFor(win)) {
        const key = tileKey(cog, ref);
        if (ref.length === 0 || seen.has(key)) continue;
        seen.add(key);
        bytes += decodedByteLength(cog.tileSpec(ref));
      }
    }
  }
  return bytes;
}

/**
 * At least the decoded bytes of the tiles `requests` touch: every tile counted whole and once per
 * window, by arithmetic on the tile grid alone, so a read that fits under a bound by it is not
 * enumerated tile by tile (clear-scenes.ts).
 */
export function decodedBytesBound(requests: readonly RasterRequest[]): number {
  let bytes = 0;
  for (const req of requests) {
    for (const { cog, win } of fileWindows(req)) {
      const across = Math.floor((win.x0 + win.width - 1) / cog.tileWidth) - Math.floor(win.x0 / cog.tileWidth) + 1;
      const down = Math.floor((win.y0 + win.height - 1) / cog.tileHeight) - Math.floor(win.y0 / cog.tileHeight) + 1;
      const planes = cog.planar && win.band === undefined ? cog.samplesPerPixel : 1;
      bytes += across * down * planes * decodedByteLength(tileSpecOf(cog, cog.tileWidth, cog.tileHeight));
    }
  }
  return bytes;
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
  /** The tiles of a window of one COG, each placed at its pixel in the raster plus (dx, dy). */
  const place = (cog: Cog, win: PixelWindow, dx: number, dy: number, mosaic: boolean, indices: number[]) => {
    for (const ref of cog.tilesFor(win)) {
      const key = tileKey(cog, ref);
      // A tile is placed once per offset: a mosaic's part may place it away from its own pixel.
      const placed = dx === 0 && dy === 0 ? key : `${key}+${dx},${dy}`;
      let index = byTile.get(placed);
      if (index === undefined) {
        index = tiles.length;
        byTile.set(placed, index);
        const spec = cog.tileSpec(ref);
        const tile: ShippedTile = { spec, x0: ref.x0 + dx, y0: ref.y0 + dy, plane: ref.band, slot: null, bytes: null, fill: cog.nodata ?? 0 };
        // Beside another file, an edge tile's padding would land on the neighbour's pixels.
        if (mosaic && (ref.x0 + spec.width > cog.width || ref.y0 + spec.height > cog.height)) {
          tile.inFile = { width: Math.min(spec.width, cog.width - ref.x0), height: Math.min(spec.height, cog.height - ref.y0) };
        }
        tiles.push(tile);
        if (ref.length > 0) {
          tile.slot = decoded.slot(key, spec, () => tilePlace(cog, ref));
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
  };
  for (const req of requests) {
    if (seen.has(req.key)) continue;
    seen.add(req.key);
    const { cog, window } = req;
    const indices: number[] = [];
    if (req.parts !== undefined && req.fill !== undefined) {
      // Pixels no part covers (a file the archive lacks) read as the fill: one sparse tile under the parts.
      indices.push(tiles.length);
      tiles.push({ spec: tileSpecOf(cog, window.width, window.height), x0: window.x0, y0: window.y0, plane: 0, slot: null, bytes: null, fill: req.fill });
    }
    for (const w of fileWindows(req)) place(w.cog, w.win, w.dx, w.dy, w.mosaic, indices);
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
    // No thread has seen these slots yet.
    decoded.release({ tiles }, true);
    throw err;
  }
  return { tiles, rasters, fetchedBytes };
}
