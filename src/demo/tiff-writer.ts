// A small writer of cloud-optimised GeoTIFFs: little-endian TIFF or BigTIFF, tiled, DEFLATE or
// LZW, pixel-interleaved bands, GeoKeys, GDAL_NODATA and GDAL_METADATA. The IFD and every
// tag value come first and the tiles after them, so one ranged read of the head gives a
// reader all it needs. No overviews are written (the service reads full resolution only).
// A raster may also be given as blocks on a large extent: tiles no block touches are written
// sparse (offset and byte count 0, GDAL's convention for a tile a reader fills with nodata, or 0
// without one), so a file of a product's real size holds a few demo sites without the rest.
import { constants, deflateSync } from 'node:zlib';
import { writeFile, mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { GeoTransform } from '../engine/sources/reproject.ts';

export type CogDtype = 'uint8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';
export type CogCompression = 'deflate' | 'lzw';
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
  /** DEFLATE (the default) or LZW, as the real product is compressed. */
  compression?: CogCompression;
  /** Write a BigTIFF (64-bit offsets), as GDAL does for products that may pass 4 GiB; classic TIFF by default. */
  bigTiff?: boolean;
  epsg: number;
  geoTransform: GeoTransform;
  nodata?: number;
  scale?: number;
  offset?: number;
  description?: string;
  /** 2: horizontal differencing (integers); 3: the floating-point predictor (floats). */
  predictor?: 1 | 2 | 3;
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
const LONG8 = 16;
const TYPE_SIZE: Record<number, number> = { [ASCII]: 1, [SHORT]: 2, [LONG]: 4, [DOUBLE]: 8, [LONG8]: 8 };

// GeoTIFF keys
const GT_MODEL_TYPE = 1024;
const GT_RASTER_TYPE = 1025;
const GEOGRAPHIC_TYPE = 2048;
const PROJECTED_CS_TYPE = 3072;
const MODEL_PROJECTED = 1;
const MODEL_GEOGRAPHIC = 2;
const RASTER_PIXEL_IS_AREA = 1;

interface Entry { tag: number; type: number; values: ArrayLike<number> | string }

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
    throw new TiffWriteError('predictor_unsupported', 'horizontal differencing (predictor 2) is for integer data; use predictor 3 for floats');
  }
  if (predictor === 3 && dt.format !== 3) {
    throw new TiffWriteError('predictor_unsupported', 'the floating-point predictor (3) is for float data; use predictor 2 for integers');
  }
  const [originX, pixelW, rotX, originY, rotY, pixelH] = r.geoTransform;
  if (rotX !== 0 || rotY !== 0) throw new TiffWriteError('rotated_transform', 'only north-up rasters are written');

  const big = r.bigTiff ?? false;
  const tile = r.tileSize ?? 256;
  if (!(Number.isInteger(tile) && tile > 0 && tile % 16 === 0)) throw new TiffWriteError('bad_raster', `tile size must be a positive multiple of 16, got ${tile}`);
  const tilesAcross = Math.ceil(r.width / tile);
  const tilesDown = Math.ceil(r.height / tile);
  const level = r.deflateLevel ?? 6;
  const compression = r.compression ?? 'deflate';
  // Run-length matching finds what a tile of site data in nodata holds, faster and smaller than the default search.
  const compress = (raw: Uint8Array) => (compression === 'lzw' ? lzwEncode(raw) : deflateSync(raw, { level, strategy: constants.Z_RLE }));
  // What a reader puts in a sparse tile: the nodata value, or 0 where none is declared.
  const sparseReadsAs = r.nodata !== undefined ? r.nodata : 0;
  const fill = r.fill ?? (Number.isFinite(sparseReadsAs) ? sparseReadsAs : 0);
  let sharedFill: Uint8Array | null = null;
  const untouched = () => {
    if (Object.is(fill, sparseReadsAs)) return SPARSE;
    sharedFill ??= compress(tileBytes([], 0, 0, tile, spp, dt.array, fill, predictor));
    return sharedFill;
  };
  // Blocks indexed by the tiles they touch, so a file of thousands of tiles finds its few quickly.
  const byTile = new Map<number, typeof blocks>();
  for (const b of blocks) {
    for (let ty = Math.floor(b.y / tile); ty <= Math.floor((b.y + b.height - 1) / tile); ty++) {
      for (let tx = Math.floor(b.x / tile); tx <= Math.floor((b.x + b.width - 1) / tile); tx++) {
        const k = ty * tilesAcross + tx;
        byTile.set(k, [...(byTile.get(k) ?? []), b]);
      }
    }
  }
  const tileCount = tilesAcross * tilesDown;
  const compressed: Uint8Array[] = new Array(tileCount).fill(byTile.size < tileCount ? untouched() : SPARSE);
  for (const [k, touching] of byTile) {
    compressed[k] = compress(tileBytes(touching, (k % tilesAcross) * tile, Math.floor(k / tilesAcross) * tile, tile, spp, dt.array, fill, predictor));
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
    { tag: 259, type: SHORT, values: [compression === 'lzw' ? 5 : 8] }, // LZW, or Adobe DEFLATE (zlib stream)
    { tag: 262, type: SHORT, values: [1] }, // BlackIsZero
    ...(r.description ? [{ tag: 270, type: ASCII, values: r.description }] : []),
    { tag: 277, type: SHORT, values: [spp] },
    { tag: 284, type: SHORT, values: [1] }, // pixel-interleaved
    ...(predictor !== 1 ? [{ tag: 317, type: SHORT, values: [predictor] }] : []),
    { tag: 322, type: LONG, values: [tile] },
    { tag: 323, type: LONG, values: [tile] },
    { tag: 324, type: big ? LONG8 : LONG, values: new Float64Array(tileCount) }, // patched below
    { tag: 325, type: LONG, values: Uint32Array.from(compressed, (c) => c.length) },
    // Bands past the first are declared "unspecified extra samples" so readers keep them as data.
    ...(spp > 1 ? [{ tag: 338, type: SHORT, values: new Array(spp - 1).fill(0) }] : []),
    { tag: 339, type: SHORT, values: new Array(spp).fill(dt.format) },
    { tag: 33550, type: DOUBLE, values: [pixelW, -pixelH, 0] },
    { tag: 33922, type: DOUBLE, values: [0, 0, 0, originX, originY, 0] },
    { tag: 34735, type: SHORT, values: geoKeyDirectory },
    { tag: 42112, type: ASCII, values: gdalMetadataXml(r, spp) },
    ...(r.nodata !== undefined ? [{ tag: 42113, type: ASCII, values: formatNumber(r.nodata) }] : []),
  ];

  // Layout: header | IFD | out-of-line values | tiles. BigTIFF widens the header, the entries'
  // counts and values, and the offsets to 64 bits.
  const ifdOffset = big ? 16 : 8;
  const inline = big ? 8 : 4;
  const entryBytes = big ? 20 : 12;
  const ifdSize = (big ? 8 : 2) + entries.length * entryBytes + (big ? 8 : 4);
  let cursor = ifdOffset + ifdSize;
  const outOfLine = new Map<Entry, number>();
  for (const e of entries) {
    const size = valueSize(e);
    if (size > inline) {
      cursor = align(cursor, 8);
      outOfLine.set(e, cursor);
      cursor += size;
    }
  }
  cursor = align(cursor, 8);
  // A shared tile is stored once; every tile pointing at it gets the same offset.
  const tileOffsets = new Float64Array(tileCount);
  const stored = new Map<Uint8Array, number>();
  for (let i = 0; i < tileCount; i++) {
    const c = compressed[i];
    if (c.length === 0) continue;
    let at = stored.get(c);
    if (at === undefined) {
      at = cursor;
      stored.set(c, at);
      cursor += c.length;
    }
    tileOffsets[i] = at;
  }
  if (!big && cursor > 0xffffffff) throw new TiffWriteError('bad_raster', 'raster too large for a classic TIFF; write a BigTIFF');
  entries.find((e) => e.tag === 324)!.values = tileOffsets;

  const out = new Uint8Array(cursor);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49], 0); // "II": little-endian
  if (big) {
    view.setUint16(2, 43, true);
    view.setUint16(4, 8, true); // bytes of an offset
    view.setBigUint64(8, BigInt(ifdOffset), true);
    view.setBigUint64(ifdOffset, BigInt(entries.length), true);
  } else {
    view.setUint16(2, 42, true);
    view.setUint32(4, ifdOffset, true);
    view.setUint16(ifdOffset, entries.length, true);
  }
  const first = ifdOffset + (big ? 8 : 2);
  entries.forEach((e, i) => {
    const at = first + i * entryBytes;
    view.setUint16(at, e.tag, true);
    view.setUint16(at + 2, e.type, true);
    if (big) view.setBigUint64(at + 4, BigInt(valueCount(e)), true);
    else view.setUint32(at + 4, valueCount(e), true);
    const valueAt = at + (big ? 12 : 8);
    const where = outOfLine.get(e);
    if (where === undefined) writeValues(view, valueAt, e);
    else {
      if (big) view.setBigUint64(valueAt, BigInt(where), true);
      else view.setUint32(valueAt, where, true);
      writeValues(view, where, e);
    }
  });
  // The next-IFD offset after the entries stays 0: no further IFD.
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

// One buffer per tile shape, reused: a tile is compressed (copied) before the next is laid out.
const scratch = new Map<string, CogTypedArray>();
function scratchTile(Arr: new (n: number) => CogTypedArray, n: number): CogTypedArray {
  const key = `${Arr.name}:${n}`;
  let t = scratch.get(key);
  if (t === undefined) scratch.set(key, (t = new Arr(n)));
  return t;
}

function tileBytes(
  blocks: Array<CogBlock & { bands: CogTypedArray[] }>, x0: number, y0: number, tile: number, spp: number,
  Arr: new (n: number) => CogTypedArray, fill: number, predictor: 1 | 2 | 3,
): Uint8Array {
  const t = scratchTile(Arr, tile * tile * spp);
  t.fill(fill);
  // Rows no block reaches hold only the fill; with a fill of 0 the predictors leave them all zero.
  const rows = new Uint8Array(tile).fill(fill === 0 ? 0 : 1);
  for (const b of blocks) {
    // The part of the block inside this tile, in tile coordinates.
    const left = Math.max(x0, b.x);
    const right = Math.min(x0 + tile, b.x + b.width);
    const top = Math.max(y0, b.y);
    const bottom = Math.min(y0 + tile, b.y + b.height);
    const w = right - left;
    for (let y = top; y < bottom; y++) {
      rows[y - y0] = 1;
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
  const bytes = new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
  const row = tile * spp;
  if (predictor === 2) {
    // Horizontal differencing, right to left so each pixel still sees its left neighbour's original value;
    // the typed array wraps the difference exactly as a TIFF reader undoes it.
    for (let y = 0; y < tile; y++) {
      if (rows[y] === 0) continue;
      const base = y * row;
      for (let i = row - 1; i >= spp; i--) t[base + i] -= t[base + i - spp];
    }
  } else if (predictor === 3) floatingPointPredictor(bytes, row, tile, t.BYTES_PER_ELEMENT, spp, rows);
  return bytes;
}

/**
 * TIFF Technical Note 3's floating-point predictor: each row's samples are split into byte planes,
 * most significant first, and each byte then differenced from the one `spp` before it, as GDAL writes PREDICTOR=3.
 */
function floatingPointPredictor(bytes: Uint8Array, samplesPerRow: number, rowCount: number, bps: number, spp: number, rows: Uint8Array): void {
  const rowBytes = samplesPerRow * bps;
  const plane = new Uint8Array(rowBytes);
  for (let y = 0; y < rowCount; y++) {
    if (rows[y] === 0) continue;
    const base = y * rowBytes;
    for (let i = 0; i < samplesPerRow; i++) {
      // Little-endian samples: byte b of a sample goes to plane (bps - 1 - b).
      for (let b = 0; b < bps; b++) plane[(bps - 1 - b) * samplesPerRow + i] = bytes[base + i * bps + b];
    }
    for (let i = rowBytes - 1; i >= spp; i--) plane[i] = (plane[i] - plane[i - spp]) & 0xff;
    bytes.set(plane, base);
  }
}

// TIFF LZW, as libtiff writes it: codes of 9 to 12 bits, most significant bit first, a clear code
// first and whenever the table fills, the code width growing as the table passes each power of two.
const LZW_CLEAR = 256;
const LZW_END = 257;
const LZW_FIRST = 258;
const LZW_LAST = 4093;

// The table maps (prefix code, next byte) to a code; a new stamp per clear spares wiping it, and
// the table is kept between tiles.
const lzwCodes = new Uint16Array(4096 * 256);
const lzwStamps = new Uint32Array(4096 * 256);
let lzwStamp = 0;

function lzwEncode(input: Uint8Array): Uint8Array {
  const codes = lzwCodes;
  const stamps = lzwStamps;
  let stamp = ++lzwStamp;
  const out: number[] = [];
  let acc = 0;
  let accBits = 0;
  let width = 9;
  const put = (code: number) => {
    acc = (acc << width) | code;
    accBits += width;
    while (accBits >= 8) {
      accBits -= 8;
      out.push((acc >>> accBits) & 0xff);
    }
    acc &= (1 << accBits) - 1;
  };
  put(LZW_CLEAR);
  let next = LZW_FIRST;
  if (input.length === 0) {
    put(LZW_END);
    if (accBits > 0) out.push((acc << (8 - accBits)) & 0xff);
    return Uint8Array.from(out);
  }
  let w = input[0];
  for (let i = 1; i < input.length; i++) {
    const k = input[i];
    const key = w * 256 + k;
    if (stamps[key] === stamp) {
      w = codes[key];
      continue;
    }
    put(w);
    if (next > LZW_LAST) {
      put(LZW_CLEAR);
      stamp = ++lzwStamp;
      next = LZW_FIRST;
      width = 9;
    } else {
      stamps[key] = stamp;
      codes[key] = next++;
      if (next > (1 << width) - 1 && width < 12) width++;
    }
    w = k;
  }
  put(w);
  // The reader adds a code after the last one too, and may widen before the end code.
  next++;
  if (next > (1 << width) - 1 && width < 12) width++;
  put(LZW_END);
  if (accBits > 0) out.push((acc << (8 - accBits)) & 0xff);
  return Uint8Array.from(out);
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
  const values = e.values;
  // Tile offsets and counts, tens of thousands in a large file: written through an aligned view.
  if ((values instanceof Float64Array || values instanceof Uint32Array) && (view.byteOffset + at) % 8 === 0) {
    const words = new Uint32Array(view.buffer, view.byteOffset + at, values.length * (e.type === LONG8 ? 2 : 1));
    if (e.type === LONG) words.set(values);
    else for (let i = 0; i < values.length; i++) {
      words[2 * i] = values[i] % 4294967296;
      words[2 * i + 1] = Math.floor(values[i] / 4294967296);
    }
    return;
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (e.type === SHORT) view.setUint16(at + i * 2, v, true);
    else if (e.type === LONG) view.setUint32(at + i * 4, v, true);
    else if (e.type === LONG8) {
      view.setUint32(at + i * 8, v % 2 ** 32, true);
      view.setUint32(at + i * 8 + 4, Math.floor(v / 2 ** 32), true);
    } else view.setFloat64(at + i * 8, v, true);
  }
}

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}
