// A small writer of cloud-optimised GeoTIFFs: classic little-endian TIFF, tiled, DEFLATE,
// pixel-interleaved bands, GeoKeys, GDAL_NODATA and GDAL_METADATA. The IFD and every
// tag value come first and the tiles after them, so one ranged read of the head gives a
// reader all it needs. Rasters stay small (the demo world), so no overviews are written.
// A raster may also be given as blocks on a large extent: tiles no block touches are written
// sparse (offset and byte count 0, GDAL's convention for a tile of nodata), so a file named
// after a 10° product tile can hold a few demo sites without holding the whole tile.
import { deflateSync } from 'node:zlib';
import { writeFile, mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { GeoTransform } from '../engine/sources/reproject.ts';

export type CogDtype = 'uint8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';
export type CogTypedArray = Uint8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

export interface CogRaster {
  width: number;
  height: number;
  dtype: CogDtype;
  /** One typed array for one band, or one per band (written pixel-interleaved). */
  data?: CogTypedArray | CogTypedArray[];
  /** Instead of `data`: windows of the raster; the rest holds `fill`. */
  blocks?: CogBlock[];
  /**
   * Value of pixels no block covers (default: nodata, else 0). A whole tile of it is written sparse
   * when it is the nodata value, else compressed once and shared by every such tile.
   */
  fill?: number;
  /** Bands of a raster given as blocks, for when no block carries data. */
  samplesPerPixel?: number;
  /** Tile width and height: a multiple of 16 (TIFF 6.0), 256 by default. */
  tileSize?: number;
  epsg: number;
  geoTransform: GeoTransform;
  nodata?: number;
  scale?: number;
  offset?: number;
  description?: string;
  predictor?: 1 | 2;
  /** Extra dataset-level GDAL metadata items. */
  metadata?: Record<string, string>;
  /** zlib level, 1 (fastest) to 9 (smallest); 6 by default, as GDAL writes. */
  deflateLevel?: number;
}

export interface CogBlock {
  x: number;
  y: number;
  width: number;
  height: number;
  data: CogTypedArray | CogTypedArray[];
}

export class TiffWriteError extends Error {
  readonly code: 'bad_raster' | 'predictor_unsupported' | 'rotated_transform';
  constructor(code: TiffWriteError['code'], message: string) {
    super(message);
    this.name = 'TiffWriteError';
    this.code = code;
  }
}

/** Every file this writer makes is demo or test data and says so. */
export const SYNTHETIC_ITEM = { name: 'SYNTHETIC', value: 'demo' } as const;

const DTYPES: Record<CogDtype, { bits: number; format: 1 | 2 | 3; array: new (n: number) => CogTypedArray }> = {
  uint8: { bits: 8, format: 1, array: Uint8Array },
  uint16: { bits: 16, format: 1, array: Uint16Array },
  int16: { bits: 16, format: 2, array: Int16Array },
  uint32: { bits: 32, format: 1, array: Uint32Array },
  int32: { bits: 32, format: 2, array: Int32Array },
  float32: { bits: 32, format: 3, array: Float32Array },
  float64: { bits: 64, format: 3, array: Float64Array },
};

// TIFF field types
const SHORT = 3;
const LONG = 4;
const ASCII = 2;
const DOUBLE = 12;
const TYPE_SIZE: Record<number, number> = { [ASCII]: 1, [SHORT]: 2, [LONG]: 4, [DOUBLE]: 8 };

// GeoTIFF keys
const GT_MODEL_TYPE = 1024;
const GT_RASTER_TYPE = 1025;
const GEOGRAPHIC_TYPE = 2048;
const PROJECTED_CS_TYPE = 3072;
const MODEL_PROJECTED = 1;
const MODEL_GEOGRAPHIC = 2;
const RASTER_PIXEL_IS_AREA = 1;

interface Entry { tag: number; type: number; values: number[] | string }

/** Encodes a raster as COG bytes; pure and deterministic (same input, same bytes). */
export function encodeCog(r: CogRaster): Uint8Array {
  const dt = DTYPES[r.dtype];
  if (!dt) throw new TiffWriteError('bad_raster', `unknown dtype ${r.dtype}`);
  if (!(r.width > 0 && r.height > 0 && Number.isInteger(r.width) && Number.isInteger(r.height))) {
    throw new TiffWriteError('bad_raster', `width and height must be positive integers, got ${r.width}x${r.height}`);
  }
  if ((r.data === undefined) === (r.blocks === undefined)) throw new TiffWriteError('bad_raster', 'give either data or blocks');
  const blocks = (r.blocks ?? [{ x: 0, y: 0, width: r.width, height: r.height, data: r.data! }]).map((b) => ({
    ...b,
    bands: Array.isArray(b.data) ? b.data : [b.data],
  }));
  const spp = r.samplesPerPixel ?? (blocks.length > 0 ? blocks[0].bands.length : 1);
  for (const b of blocks) {
    if (b.bands.length !== spp || spp === 0) throw new TiffWriteError('bad_raster', 'every block needs the same number of bands, at least one');
    if (b.x < 0 || b.y < 0 || b.x + b.width > r.width || b.y + b.height > r.height || !Number.isInteger(b.x) || !Number.isInteger(b.y)) {
      throw new TiffWriteError('bad_raster', `block at ${b.x},${b.y} (${b.width}x${b.height}) lies outside the ${r.width}x${r.height} raster`);
    }
    for (const band of b.bands) {
      if (!(band instanceof dt.array)) throw new TiffWriteError('bad_raster', `band data must be a ${dt.array.name} for dtype ${r.dtype}`);
      if (band.length !== b.width * b.height) throw new TiffWriteError('bad_raster', `band has ${band.length} values, expected ${b.width * b.height}`);
    }
  }
  const predictor = r.predictor ?? 1;
  if (predictor === 2 && dt.format === 3) {
    throw new TiffWriteError('predictor_unsupported', 'horizontal differencing (predictor 2) is for integer data; use predictor 1 for floats');
  }
  const [originX, pixelW, rotX, originY, rotY, pixelH] = r.geoTransform;
  if (rotX !== 0 || rotY !== 0) throw new TiffWriteError('rotated_transform', 'only north-up rasters are written');

  const tile = r.tileSize ?? 256;
  if (!(Number.isInteger(tile) && tile > 0 && tile % 16 === 0)) throw new TiffWriteError('bad_raster', `tile size must be a positive multiple of 16, got ${tile}`);
  const tilesAcross = Math.ceil(r.width / tile);
  const tilesDown = Math.ceil(r.height / tile);
  const level = r.deflateLevel ?? 6;
  const nodataFill = r.nodata !== undefined && Number.isFinite(r.nodata) ? r.nodata : 0;
  const fill = r.fill ?? nodataFill;
  let sharedFill: Uint8Array | null = null;
  const untouched = () => {
    if (r.nodata !== undefined && fill === r.nodata) return SPARSE;
    sharedFill ??= deflateSync(tileBytes([], 0, 0, tile, spp, dt.array, fill, predictor), { level });
    return sharedFill;
  };
  const compressed: Uint8Array[] = [];
  for (let ty = 0; ty < tilesDown; ty++) {
    for (let tx = 0; tx < tilesAcross; tx++) {
      const x0 = tx * tile;
      const y0 = ty * tile;
      const touching = blocks.filter((b) => b.x < x0 + tile && b.x + b.width > x0 && b.y < y0 + tile && b.y + b.height > y0);
      compressed.push(touching.length === 0 ? untouched() : deflateSync(tileBytes(touching, x0, y0, tile, spp, dt.array, fill, predictor), { level }));
    }
  }

  const geographic = r.epsg === 4326;
  const geoKeys = [
    [GT_MODEL_TYPE, geographic ? MODEL_GEOGRAPHIC : MODEL_PROJECTED],
    [GT_RASTER_TYPE, RASTER_PIXEL_IS_AREA],
    [geographic ? GEOGRAPHIC_TYPE : PROJECTED_CS_TYPE, r.epsg],
  ];
  const geoKeyDirectory = [1, 1, 0, geoKeys.length, ...geoKeys.flatMap(([key, value]) => [key, 0, 1, value])];

  const entries: Entry[] = [
    { tag: 256, type: LONG, values: [r.width] },
    { tag: 257, type: LONG, values: [r.height] },
    { tag: 258, type: SHORT, values: new Array(spp).fill(dt.bits) },
    { tag: 259, type: SHORT, values: [8] }, // Adobe DEFLATE (zlib stream)
    { tag: 262, type: SHORT, values: [1] }, // BlackIsZero
    ...(r.description ? [{ tag: 270, type: ASCII, values: r.description }] : []),
    { tag: 277, type: SHORT, values: [spp] },
    { tag: 284, type: SHORT, values: [1] }, // pixel-interleaved
    ...(predictor === 2 ? [{ tag: 317, type: SHORT, values: [2] }] : []),
    { tag: 322, type: LONG, values: [tile] },
    { tag: 323, type: LONG, values: [tile] },
    { tag: 324, type: LONG, values: new Array(compressed.length).fill(0) }, // patched below
    { tag: 325, type: LONG, values: compressed.map((c) => c.length) },
    // Bands past the first are declared "unspecified extra samples" so readers keep them as data.
    ...(spp > 1 ? [{ tag: 338, type: SHORT, values: new Array(spp - 1).fill(0) }] : []),
    { tag: 339, type: SHORT, values: new Array(spp).fill(dt.format) },
    { tag: 33550, type: DOUBLE, values: [pixelW, -pixelH, 0] },
    { tag: 33922, type: DOUBLE, values: [0, 0, 0, originX, originY, 0] },
    { tag: 34735, type: SHORT, values: geoKeyDirectory },
    { tag: 42112, type: ASCII, values: gdalMetadataXml(r, spp) },
    ...(r.nodata !== undefined ? [{ tag: 42113, type: ASCII, values: formatNumber(r.nodata) }] : []),
  ];

  // Layout: header | IFD | out-of-line values | tiles.
  const ifdOffset = 8;
  const ifdSize = 2 + entries.length * 12 + 4;
  let cursor = ifdOffset + ifdSize;
  const outOfLine = new Map<Entry, number>();
  for (const e of entries) {
    const size = valueSize(e);
    if (size > 4) {
      cursor = align(cursor, 8);
      outOfLine.set(e, cursor);
      cursor += size;
    }
  }
  cursor = align(cursor, 8);
  // A shared tile is stored once; every tile pointing at it gets the same offset.
  const tileOffsets: number[] = [];
  const stored = new Map<Uint8Array, number>();
  for (const c of compressed) {
    if (c.length === 0) tileOffsets.push(0);
    else if (stored.has(c)) tileOffsets.push(stored.get(c)!);
    else {
      stored.set(c, cursor);
      tileOffsets.push(cursor);
      cursor += c.length;
    }
  }
  if (cursor > 0xffffffff) throw new TiffWriteError('bad_raster', 'raster too large for a classic TIFF');
  entries.find((e) => e.tag === 324)!.values = tileOffsets;

  const out = new Uint8Array(cursor);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49], 0); // "II": little-endian
  view.setUint16(2, 42, true);
  view.setUint32(4, ifdOffset, true);
  view.setUint16(ifdOffset, entries.length, true);
  entries.forEach((e, i) => {
    const at = ifdOffset + 2 + i * 12;
    view.setUint16(at, e.tag, true);
    view.setUint16(at + 2, e.type, true);
    view.setUint32(at + 4, valueCount(e), true);
    const where = outOfLine.get(e);
    if (where === undefined) writeValues(view, at + 8, e);
    else {
      view.setUint32(at + 8, where, true);
      writeValues(view, where, e);
    }
  });
  view.setUint32(ifdOffset + 2 + entries.length * 12, 0, true); // no further IFD
  for (const [c, at] of stored) out.set(c, at);
  return out;
}

/** Writes a COG atomically (temporary file, then rename), creating parent folders. */
export async function writeCog(path: string, r: CogRaster): Promise<void> {
  const bytes = encodeCog(r);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

const SPARSE = new Uint8Array(0);

function tileBytes(
  blocks: Array<CogBlock & { bands: CogTypedArray[] }>, x0: number, y0: number, tile: number, spp: number,
  Arr: new (n: number) => CogTypedArray, fill: number, predictor: 1 | 2,
): Uint8Array {
  const t = new Arr(tile * tile * spp);
  if (fill !== 0) t.fill(fill);
  for (const b of blocks) {
    // The part of the block inside this tile, in tile coordinates.
    const left = Math.max(x0, b.x);
    const right = Math.min(x0 + tile, b.x + b.width);
    const top = Math.max(y0, b.y);
    const bottom = Math.min(y0 + tile, b.y + b.height);
    const w = right - left;
    for (let y = top; y < bottom; y++) {
      const src = (y - b.y) * b.width + (left - b.x);
      const dst = ((y - y0) * tile + (left - x0)) * spp;
      if (spp === 1) t.set(b.bands[0].subarray(src, src + w), dst);
      else {
        for (let s = 0; s < spp; s++) {
          const band = b.bands[s];
          for (let x = 0; x < w; x++) t[dst + x * spp + s] = band[src + x];
        }
      }
    }
  }
  if (predictor === 2) {
    // Horizontal differencing, right to left so each pixel still sees its left neighbour's original value;
    // the typed array wraps the difference exactly as a TIFF reader undoes it.
    const row = tile * spp;
    for (let y = 0; y < tile; y++) {
      const base = y * row;
      for (let i = row - 1; i >= spp; i--) t[base + i] -= t[base + i - spp];
    }
  }
  return new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
}

function gdalMetadataXml(r: CogRaster, spp: number): string {
  const items: string[] = [`<Item name="${SYNTHETIC_ITEM.name}">${SYNTHETIC_ITEM.value}</Item>`];
  for (const [k, v] of Object.entries(r.metadata ?? {})) items.push(`<Item name="${escapeXml(k)}">${escapeXml(v)}</Item>`);
  for (let s = 0; s < spp; s++) {
    if (r.offset !== undefined) items.push(`<Item name="OFFSET" sample="${s}" role="offset">${formatNumber(r.offset)}</Item>`);
    if (r.scale !== undefined) items.push(`<Item name="SCALE" sample="${s}" role="scale">${formatNumber(r.scale)}</Item>`);
  }
  return `<GDALMetadata>\n${items.map((i) => `  ${i}\n`).join('')}</GDALMetadata>\n`;
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  return String(n);
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function valueCount(e: Entry): number {
  return typeof e.values === 'string' ? Buffer.byteLength(e.values, 'latin1') + 1 : e.values.length;
}

function valueSize(e: Entry): number {
  return valueCount(e) * TYPE_SIZE[e.type];
}

function writeValues(view: DataView, at: number, e: Entry): void {
  if (typeof e.values === 'string') {
    const bytes = Buffer.from(e.values, 'latin1');
    new Uint8Array(view.buffer).set(bytes, at);
    view.setUint8(at + bytes.length, 0);
    return;
  }
  e.values.forEach((v, i) => {
    if (e.type === SHORT) view.setUint16(at + i * 2, v, true);
    else if (e.type === LONG) view.setUint32(at + i * 4, v, true);
    else view.setFloat64(at + i * 8, v, true);
  });
}

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}
