/**
 * The rasters of a plot task, on the worker side. For every window a block asked for, the main
 * thread ships the tiles the window touches: each with a slot (two SharedArrayBuffers the main
 * thread allocated and keeps in its decoded-tile cache) and, unless the slot is already decoded,
 * the tile's compressed bytes. Here each slot is made ready exactly once across all threads (the
 * first to claim it decodes, the others wait on its state word), each window is cut from its tiles
 * into a WorkerRaster, and footprints become pixel masks on a raster's grid.
 *
 * This module reads tiles and reprojects footprints, so beside the kernels it imports the
 * decoder and the projection of src/engine/sources; it does no I/O.
 */
import { type GeoTransform, metresPerDegree, transformer } from '../sources/reproject.ts';
import { BYTES_PER_SAMPLE, decodeTile, decodedByteLength, type Dtype, type TileSpec, type TypedArray, typedArray } from './tile-decode.ts';
import type { LocalAffine } from '../kernels/block-index.ts';
import type { RasterGrid } from './tasks.ts';
import { type PixelFootprint, type PixelMask, rasteriseMask, ringMask } from '../kernels/rasterise-mask.ts';

/**
 * A decoded tile's shared memory, one SharedArrayBuffer: the decoded pixels from byte 0, then one
 * Int32 state word (a TILE_STATE value) at the end, on a 4-byte boundary. One buffer a tile rather
 * than two halves what each task's message carries (a plot task ships some 300 tiles). The main
 * thread reads the state word only to decide whether the compressed bytes must travel with the slot.
 */
export type TileSlot = SharedArrayBuffer;

export const TILE_STATE = { EMPTY: 0, DECODING: 1, READY: 2 } as const;

/** The bytes of a slot for a tile of this spec: its pixels, padded to 4 bytes, and the state word. */
export const slotByteLength = (spec: TileSpec) => Math.ceil(decodedByteLength(spec) / 4) * 4 + Int32Array.BYTES_PER_ELEMENT;

/** The slot's state word, as an Int32Array of one element. */
export const slotState = (slot: TileSlot) => new Int32Array(slot, slot.byteLength - Int32Array.BYTES_PER_ELEMENT, 1);

/** A new, empty slot for a tile of this spec (main thread). */
export function newTileSlot(spec: TileSpec): TileSlot {
  return new SharedArrayBuffer(slotByteLength(spec));
}

/** Empties a slot no thread holds any more, so another tile of its size can be decoded into it (main thread). */
export function emptyTileSlot(slot: TileSlot): void {
  Atomics.store(slotState(slot), 0, TILE_STATE.EMPTY);
}

export function slotIsReady(slot: TileSlot): boolean {
  return Atomics.load(slotState(slot), 0) === TILE_STATE.READY;
}

/**
 * Decodes a slot if no thread has claimed it: true once it is ready, false while another thread
 * decodes it. A failed decode puts the slot back to EMPTY (and wakes the waiters, one of which then
 * tries itself) before the error travels on.
 */
function claimSlot(state: Int32Array, slot: TileSlot, decode: (into: SharedArrayBuffer) => void): boolean {
  for (;;) {
    const now = Atomics.load(state, 0);
    if (now === TILE_STATE.READY) return true;
    if (now === TILE_STATE.DECODING) return false;
    if (Atomics.compareExchange(state, 0, TILE_STATE.EMPTY, TILE_STATE.DECODING) !== TILE_STATE.EMPTY) continue;
    try {
      decode(slot);
      Atomics.store(state, 0, TILE_STATE.READY);
    } catch (err) {
      Atomics.store(state, 0, TILE_STATE.EMPTY);
      throw err;
    } finally {
      Atomics.notify(state, 0);
    }
    return true;
  }
}

/**
 * Makes a slot ready: the first thread to move it from EMPTY to DECODING runs `decode`, every other
 * thread waits on the state word until it is READY (or EMPTY again, after a failed decode).
 */
export function readySlot(slot: TileSlot, decode: (into: SharedArrayBuffer) => void): void {
  const state = slotState(slot);
  while (!claimSlot(state, slot, decode)) Atomics.wait(state, 0, TILE_STATE.DECODING);
}

/** One tile a shipped window touches. */
export interface ShippedTile {
  spec: TileSpec;
  /** The tile's upper-left pixel in the raster, and the sample plane it holds (planar files). */
  x0: number;
  y0: number;
  plane: number;
  /**
   * The part of an edge tile that lies inside its file, when a mosaic places the tile beside another
   * file's: the padding past the file's edge is not copied over the neighbour's pixels.
   */
  inFile?: { width: number; height: number };
  /** null for a sparse tile (no bytes stored), which reads as `fill` everywhere. */
  slot: TileSlot | null;
  /** The compressed bytes, present unless the slot was already decoded when the task was sent. */
  bytes: Uint8Array | null;
  fill: number;
}

/** One window of one COG, cut from the task's tiles. */
export interface ShippedRaster {
  key: string;
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** The sample kept from interleaved tiles; all samples (interleaved) when absent. */
  band?: number;
  dtype: Dtype;
  samplesPerPixel: number;
  planar: boolean;
  /** Indices into the task's tile list. */
  tiles: number[];
  geoTransform: GeoTransform;
  epsg: number | null;
  nodata: number | null;
  scale: number;
  offset: number;
}

/** A window's pixels as a kernel reads them. */
export interface WorkerRaster {
  raw: TypedArray;
  width: number;
  height: number;
  /** Samples per pixel of `raw` (1 unless every sample of an interleaved file was asked for). */
  samplesPerPixel: number;
  geoTransform: GeoTransform;
  epsg: number | null;
  nodata: number | null;
  scale: number;
  offset: number;
}

const decoderOf = (t: ShippedTile) => (into: SharedArrayBuffer) => {
  if (t.bytes === null) throw new Error('a tile slot arrived undecoded without its bytes');
  decodeTile(t.bytes, t.spec, into);
};

/**
 * Every tile's pixels, decoded where needed; null for sparse tiles. The tiles no thread has claimed
 * are decoded first and those another thread is decoding waited for last, so two tasks that share
 * tiles (neighbouring plots in flight at once) split the decoding between them rather than one
 * waiting while the other decodes it all.
 */
export function readyTiles(tiles: readonly ShippedTile[]): Array<TypedArray | null> {
  const claimed: ShippedTile[] = [];
  for (const t of tiles) if (t.slot !== null && !claimSlot(slotState(t.slot), t.slot, decoderOf(t))) claimed.push(t);
  for (const t of claimed) readySlot(t.slot!, decoderOf(t));
  return tiles.map((t) => (t.slot === null ? null : typedArray(t.spec.dtype, t.slot, 0, t.spec.width * t.spec.height * (t.spec.samplesPerPixel ?? 1))));
}

const samplesOut = (r: ShippedRaster) => (r.band === undefined ? r.samplesPerPixel : 1);

/** A window's bytes, rounded up to 8 so the next window in a shared buffer starts aligned for any sample type. */
const windowBytes = (r: ShippedRaster) => Math.ceil((r.width * r.height * samplesOut(r) * BYTES_PER_SAMPLE[r.dtype]) / 8) * 8;

/**
 * A typed array's memory as unsigned words of its samples' width (8-byte samples as two 32-bit
 * words), and how many words a sample is. Copying words moves the same bits whatever the sample
 * type, and each copy loop below meets one array type only, where one loop fed every sample type was
 * compiled for all of them: the book's windows were cut at 1.22 to 1.40 times a plain loop's time,
 * against 1.39 to 1.47 (`npm run bench -- windows`, bench/RESULTS.md "book").
 */
interface Words {
  view: Uint8Array | Uint16Array | Uint32Array;
  per: number;
}

function wordsOf(a: TypedArray): Words {
  switch (a.BYTES_PER_ELEMENT) {
    case 1:
      return { view: a instanceof Uint8Array ? a : new Uint8Array(a.buffer, a.byteOffset, a.length), per: 1 };
    case 2:
      return { view: a instanceof Uint16Array ? a : new Uint16Array(a.buffer, a.byteOffset, a.length), per: 1 };
    default: {
      const per = a.BYTES_PER_ELEMENT / 4;
      return { view: a instanceof Uint32Array ? a : new Uint32Array(a.buffer, a.byteOffset, a.length * per), per };
    }
  }
}

/**
 * Copies `n` words from `from` in `src` to `at` in `out` (views of one width). Rows of a plot's
 * windows are a few dozen samples, so a loop beats a view a row: those views were most of what a
 * pool thread allocated (bench/RESULTS.md, "book").
 */
function copyWords(out: Words['view'], at: number, src: Words['view'], from: number, n: number): void {
  if (out instanceof Uint16Array && src instanceof Uint16Array) for (let i = 0; i < n; i++) out[at + i] = src[from + i];
  else if (out instanceof Uint8Array && src instanceof Uint8Array) for (let i = 0; i < n; i++) out[at + i] = src[from + i];
  else if (out instanceof Uint32Array && src instanceof Uint32Array) for (let i = 0; i < n; i++) out[at + i] = src[from + i];
  else throw new RangeError('words of one width are copied into words of another');
}

/**
 * Cuts one window out of its tiles: whole row runs when the sample layout matches, a strided copy
 * otherwise. It is written at `at` in `storage` (zeroed first, as fresh memory is), or into memory of its own.
 */
export function assembleRaster(r: ShippedRaster, tiles: readonly ShippedTile[], pixels: ReadonlyArray<TypedArray | null>, storage?: ArrayBuffer, at = 0): WorkerRaster {
  const outSpp = samplesOut(r);
  const out = typedArray(r.dtype, storage ?? new ArrayBuffer(windowBytes(r)), at, r.width * r.height * outSpp);
  if (storage !== undefined) out.fill(0);
  const outWords = wordsOf(out);
  for (const index of r.tiles) {
    const t = tiles[index];
    const tileSpp = t.spec.samplesPerPixel ?? 1;
    const xa = Math.max(r.x0, t.x0);
    const xb = Math.min(r.x0 + r.width, t.x0 + (t.inFile?.width ?? t.spec.width));
    const ya = Math.max(r.y0, t.y0);
    const yb = Math.min(r.y0 + r.height, t.y0 + (t.inFile?.height ?? t.spec.height));
    const n = xb - xa;
    if (n <= 0 || yb <= ya) continue;
    const tile = pixels[index];
    const tileWords = tile === null ? null : wordsOf(tile);
    // Which sample of the tile goes where: same layout, one picked out of interleaved samples, or
    // a planar tile's sample placed into interleaved output.
    const same = tileSpp === outSpp && !(r.planar && outSpp > 1);
    const pick = r.band !== undefined && tileSpp > 1 ? r.band : 0;
    const place = r.planar && outSpp > 1 ? t.plane : 0;
    for (let y = ya; y < yb; y++) {
      const dst = ((y - r.y0) * r.width + (xa - r.x0)) * outSpp;
      if (tile === null) {
        if (same) out.fill(t.fill, dst, dst + n * outSpp);
        else for (let i = 0; i < n; i++) out[dst + i * outSpp + place] = t.fill;
        continue;
      }
      const src = ((y - t.y0) * t.spec.width + (xa - t.x0)) * tileSpp;
      if (same) copyWords(outWords.view, dst * outWords.per, tileWords!.view, src * outWords.per, n * tileSpp * outWords.per);
      else for (let i = 0; i < n; i++) out[dst + i * outSpp + place] = tile[src + i * tileSpp + pick];
    }
  }
  return { raw: out, width: r.width, height: r.height, samplesPerPixel: outSpp, geoTransform: r.geoTransform, epsg: r.epsg, nodata: r.nodata, scale: r.scale, offset: r.offset };
}

/**
 * One buffer a thread cuts its tasks' windows into, task after task: a book plot's step cuts some
 * 25 to 35 MB of windows, and as memory of their own they were the largest share of what started
 * the threads' collections (bench/RESULTS.md, "book"). The windows cut into it hold until the
 * thread cuts the next shipment's, so only a pool task uses it: a task cuts one shipment and answers
 * numbers, never a window. A shipment past KEPT_BYTES gets memory of its own, which is let go with it.
 */
export class WindowBuffer {
  static readonly KEPT_BYTES = 64 * 2 ** 20;
  #buffer = new ArrayBuffer(0);

  /** The buffer, grown to `bytes`; null past KEPT_BYTES. */
  hold(bytes: number): ArrayBuffer | null {
    if (bytes > WindowBuffer.KEPT_BYTES) return null;
    if (this.#buffer.byteLength < bytes) this.#buffer = new ArrayBuffer(Math.min(WindowBuffer.KEPT_BYTES, Math.max(bytes, 2 * this.#buffer.byteLength)));
    return this.#buffer;
  }
}

/** Every shipped window by its key, its tiles made ready first; cut into `into` when given, the windows of its last shipment overwritten. */
export function assembleRasters(rasters: readonly ShippedRaster[], tiles: readonly ShippedTile[], into?: WindowBuffer): Map<string, WorkerRaster> {
  const pixels = readyTiles(tiles);
  const storage = into?.hold(rasters.reduce((n, r) => n + windowBytes(r), 0)) ?? undefined;
  const out = new Map<string, WorkerRaster>();
  let at = 0;
  for (const r of rasters) {
    out.set(r.key, assembleRaster(r, tiles, pixels, storage, at));
    if (storage !== undefined) at += windowBytes(r);
  }
  return out;
}

/** A WGS 84 Polygon or MultiPolygon, [longitude, latitude]. */
export type LonLatFootprint =
  | { readonly type: 'Polygon'; readonly coordinates: readonly (readonly (readonly number[])[])[] }
  | { readonly type: 'MultiPolygon'; readonly coordinates: readonly (readonly (readonly (readonly number[])[])[])[] };

/** The footprint in pixel units of a raster's window (x right, y down). */
export function toPixels(raster: Pick<WorkerRaster, 'geoTransform' | 'epsg'>, footprint: LonLatFootprint): PixelFootprint {
  const toCrs = transformer('EPSG:4326', raster.epsg ?? 4326);
  const [ox, pw, , oy, , ph] = raster.geoTransform;
  const ring = (r: readonly (readonly number[])[]) =>
    r.map(([lon, lat]) => {
      const [x, y] = toCrs(lon, lat);
      return [(x - ox) / pw, (y - oy) / ph];
    });
  return footprint.type === 'Polygon'
    ? { type: 'Polygon', coordinates: footprint.coordinates.map(ring) }
    : { type: 'MultiPolygon', coordinates: footprint.coordinates.map((p) => p.map(ring)) };
}

/** The plot on a raster's grid: pixels whose centre lies inside the footprint. */
export function maskFor(raster: RasterGrid, footprint: LonLatFootprint): PixelMask {
  return rasteriseMask(toPixels(raster, footprint), raster.width, raster.height);
}

/** A grid's identity: rasters with the same key share every pixel's place. */
export const gridOf = (r: RasterGrid) => `${r.epsg}|${r.geoTransform.join(',')}|${r.width}x${r.height}`;

/** The footprint's mask on each grid, made once: a plot's scenes of one tile, and its years of one layer, share their grid. */
export function masksOf(footprint: LonLatFootprint): (r: RasterGrid) => PixelMask {
  const masks = new Map<string, PixelMask>();
  return (r) => {
    const grid = gridOf(r);
    let m = masks.get(grid);
    if (m === undefined) masks.set(grid, (m = maskFor(r, footprint)));
    return m;
  };
}

/** The local metric frame of a plot's blocks: metres east and north of its bounding box's south-west corner. */
export interface BlockFrame {
  lon0: number;
  lat0: number;
  /** Metres per degree at the box's middle latitude. */
  metres: { lon: number; lat: number };
  widthM: number;
  heightM: number;
}

export function blockFrame(footprint: LonLatFootprint): BlockFrame {
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  const polygons = footprint.type === 'Polygon' ? [footprint.coordinates] : footprint.coordinates;
  for (const rings of polygons) {
    for (const ring of rings) {
      for (const [lon, lat] of ring) {
        w = Math.min(w, lon); e = Math.max(e, lon);
        s = Math.min(s, lat); n = Math.max(n, lat);
      }
    }
  }
  const metres = metresPerDegree((s + n) / 2);
  return { lon0: w, lat0: s, metres, widthM: (e - w) * metres.lon, heightM: (n - s) * metres.lat };
}

/** A raster's pixel centres in a block frame, as the affine map the block kernels take (exact at the window's corner, affine across it). */
export function localAffine(raster: Pick<WorkerRaster, 'geoTransform' | 'epsg'>, frame: BlockFrame): LocalAffine {
  const toLonLat = transformer(raster.epsg ?? 4326, 'EPSG:4326');
  const [ox, pw, rx, oy, ry, ph] = raster.geoTransform;
  const local = (c: number, r: number) => {
    const [lon, lat] = toLonLat(ox + c * pw + r * rx, oy + c * ry + r * ph);
    return [(lon - frame.lon0) * frame.metres.lon, (lat - frame.lat0) * frame.metres.lat];
  };
  const [x0, y0] = local(0, 0);
  const [x1, y1] = local(1, 0);
  const [x2, y2] = local(0, 1);
  return [x0, x1 - x0, x2 - x0, y0, y1 - y0, y2 - y0];
}

/** Ground size of a raster's pixel in metres (a geographic raster's, at its window's centre latitude). */
export function pixelSizeM(raster: Pick<WorkerRaster, 'geoTransform' | 'epsg' | 'height'>): { x: number; y: number } {
  const [, pw, , oy, , ph] = raster.geoTransform;
  if (raster.epsg !== 4326 && raster.epsg !== null) return { x: Math.abs(pw), y: Math.abs(ph) };
  const m = metresPerDegree(oy + (ph * raster.height) / 2);
  return { x: Math.abs(pw) * m.lon, y: Math.abs(ph) * m.lat };
}

/**
 * The ring around a plot for a local baseline, from `innerM` to `outerM` metres, measured in the
 * raster's pixel height (the ring transform counts in square pixels).
 */
export function ringFor(plot: PixelMask, raster: Pick<WorkerRaster, 'geoTransform' | 'epsg' | 'height'>, innerM: number, outerM: number): PixelMask {
  const pixelM = pixelSizeM(raster).y;
  return ringMask(plot, outerM / pixelM, innerM / pixelM);
}

/**
 * A raster of one CRS brought onto another raster's grid of the same CRS, nearest neighbour (a
 * scene's 20 m SCL and AOT onto its 10 m red and near-infrared). Cells outside the source read as
 * its nodata (0 when it has none).
 */
export function resampleNearest(target: Pick<WorkerRaster, 'geoTransform' | 'width' | 'height' | 'epsg'>, source: WorkerRaster): TypedArray {
  if (target.epsg !== source.epsg) throw new RangeError(`resampling needs one CRS, got EPSG:${target.epsg} and EPSG:${source.epsg}`);
  const { width, height } = target;
  const [tx, tw, , ty, , th] = target.geoTransform;
  const [sx, sw, , sy, , sh] = source.geoTransform;
  const raw = source.raw;
  const out = typedArray(dtypeOfArray(raw), new ArrayBuffer(width * height * raw.BYTES_PER_ELEMENT), 0, width * height);
  out.fill(source.nodata ?? 0);
  // Source columns of each target column, once; rows likewise.
  const cols = new Int32Array(width);
  for (let c = 0; c < width; c++) cols[c] = Math.floor((tx + (c + 0.5) * tw - sx) / sw);
  for (let r = 0; r < height; r++) {
    const sr = Math.floor((ty + (r + 0.5) * th - sy) / sh);
    if (sr < 0 || sr >= source.height) continue;
    const base = sr * source.width;
    const at = r * width;
    for (let c = 0; c < width; c++) {
      const sc = cols[c];
      if (sc >= 0 && sc < source.width) out[at + c] = raw[base + sc];
    }
  }
  return out;
}

function dtypeOfArray(a: TypedArray): Dtype {
  if (a instanceof Uint8Array) return 'uint8';
  if (a instanceof Uint16Array) return 'uint16';
  if (a instanceof Int16Array) return 'int16';
  if (a instanceof Uint32Array) return 'uint32';
  if (a instanceof Int32Array) return 'int32';
  if (a instanceof Float32Array) return 'float32';
  return 'float64';
}
