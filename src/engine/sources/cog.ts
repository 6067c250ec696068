// Cloud-optimised GeoTIFFs over a ByteSource. geotiff.js parses the header, the first IFD and
// its tags once, at open; from then on a read is: which tiles (tilesFor), their compressed
// bytes (readTileBytes, through the source and its cache), and decodeTile, which runs in the
// worker threads (plan/raster-shipment.ts ships the bytes, worker/raster-window.ts assembles).
import GeoTIFF from 'geotiff';
import type { ByteSource } from './byte-source.ts';
import { SourceError } from './errors.ts';
import { type Bbox, type Crs, type GeoTransform, gridWindow, transformBbox } from './reproject.ts';
import { checkTiffHeader } from './tiff-header.ts';
import { type Compression, decodedByteLength, type Dtype, type Predictor, type TileSpec } from '../worker/tile-decode.ts';

export interface PixelWindow {
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** One sample (band) only; all samples, interleaved, when absent. */
  band?: number;
}

export interface TileRef {
  /** Position in the TileOffsets/StripOffsets arrays. */
  index: number;
  col: number;
  row: number;
  /** Sample plane of a planar-separate file; 0 otherwise. */
  band: number;
  offset: number;
  /** Compressed length; 0 for a sparse tile that holds only nodata. */
  length: number;
  /** Upper-left pixel of the tile in the raster, and the tile's decoded size. */
  x0: number;
  y0: number;
  width: number;
  height: number;
}

export interface Cog {
  readonly id: string;
  /** What the file holds, as messages name it (its byte source's name). */
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly tileWidth: number;
  readonly tileHeight: number;
  readonly dtype: Dtype;
  readonly samplesPerPixel: number;
  /** PlanarConfiguration 2: one tile per sample. */
  readonly planar: boolean;
  readonly epsg: number | null;
  readonly geoTransform: GeoTransform;
  readonly nodata: number | null;
  readonly scale: number;
  readonly offset: number;
  readonly compression: Compression;
  readonly predictor: Predictor;
  /** Dataset-level GDAL_METADATA items (e.g. SYNTHETIC=demo). */
  readonly metadata: Readonly<Record<string, string>>;
  tileSpec(t: TileRef): TileSpec;
  tilesFor(win: PixelWindow): TileRef[];
  readTileBytes(t: TileRef, signal?: AbortSignal): Promise<Uint8Array>;
  /** The pixel window covering a box given in `crs` (reprojected, clipped to the raster). */
  windowFor(bbox: Bbox, crs: Crs): PixelWindow;
}

type GeotiffSource = Parameters<typeof GeoTIFF.fromSource>[0];

// geotiff.js asks for slices as ArrayBuffers of exactly the slice; its lazy tag loaders pass no
// signal, so the one given at open stands in for theirs.
function geotiffSource(src: ByteSource, openSignal: AbortSignal | undefined): GeotiffSource {
  return {
    async fetch(slices: { offset: number; length: number }[], signal?: AbortSignal) {
      return Promise.all(
        slices.map(async ({ offset, length }) => {
          const bytes = await src.read(offset, length, signal ?? openSignal);
          return bytes.slice().buffer;
        }),
      );
    },
    get fileSize() {
      return src.size;
    },
    async close() {},
  } as unknown as GeotiffSource;
}

const TAGS_READ_AT_OPEN = [
  'GDAL_NODATA',
  'GDAL_METADATA',
  'ModelPixelScale',
  'ModelTiepoint',
  'ModelTransformation',
  'GeoKeyDirectory',
  'GeoDoubleParams',
  'GeoAsciiParams',
] as const;

const USER_DEFINED = 32767;

// What a header may declare: past these, the numbers are damage or hostility, never a raster worth reading,
// and they would size the slots a tile decodes into.
/** Pixels a side of the raster (the widest global mosaics at 10 m are under half of it). */
export const MAX_RASTER_SIDE = 1_000_000;
/** Pixels of one tile or strip: 4096 × 4096. */
export const MAX_TILE_PIXELS = 4096 * 4096;
export const MAX_SAMPLES = 16;
// A compressed tile is never much larger than its decoded bytes (LZW's worst case is 1.5 times them).
const MAX_COMPRESSED_OVER_DECODED = 2;

function dtypeOf(format: number, bits: number): Dtype | null {
  if (format === 1) return bits === 8 ? 'uint8' : bits === 16 ? 'uint16' : bits === 32 ? 'uint32' : null;
  if (format === 2) return bits === 16 ? 'int16' : bits === 32 ? 'int32' : null;
  if (format === 3) return bits === 32 ? 'float32' : bits === 64 ? 'float64' : null;
  return null;
}

function parseNodata(text: string | undefined): number | null {
  const t = text?.replace(/\0/g, '').trim();
  if (!t) return null;
  if (/^[+-]?nan$/i.test(t)) return Number.NaN;
  if (/^[+-]?inf(inity)?$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  const v = Number(t);
  return Number.isNaN(v) ? null : v;
}

function numberArray(v: unknown): number[] {
  if (typeof v === 'number' || typeof v === 'bigint') return [Number(v)];
  return Array.from(v as ArrayLike<number | bigint>, Number);
}

function metadataNumber(items: Record<string, unknown> | null, name: string, fallback: number): number {
  const v = items?.[name];
  if (typeof v !== 'string' || v.trim() === '') return fallback;
  const n = Number(v);
  return Number.isFinite(n) ? n : fallback;
}

const failFor = (src: ByteSource) => (code: 'invalid_tiff' | 'unsupported_tiff', why: string, cause?: unknown) =>
  new SourceError(code, `${src.name}: ${why}`, { url: src.id, cause });

/**
 * Opens a COG: its header checked before geotiff.js parses it, and what geotiff.js throws (DataView
 * offsets, its own wording) kept to the error's cause, so no message names a library's insides.
 */
export async function openCog(src: ByteSource, signal?: AbortSignal): Promise<Cog> {
  try {
    await checkTiffHeader(src, signal);
    return await parseCog(src, signal);
  } catch (cause) {
    if (signal?.aborted || cause instanceof SourceError) throw cause;
    throw failFor(src)('invalid_tiff', 'not a readable TIFF (its header is damaged)', cause);
  }
}

async function parseCog(src: ByteSource, signal?: AbortSignal): Promise<Cog> {
  const fail = failFor(src);
  const tiff = await GeoTIFF.fromSource(geotiffSource(src, signal), {}, signal);
  const image = await tiff.getImage(0);
  // geotiff.js reads its deferred tag arrays as little-endian whatever the file says.
  if (!tiff.littleEndian) throw fail('unsupported_tiff', 'big-endian TIFFs are not read');
  const fd = image.getFileDirectory();
  const tiled = image.isTiled;
  await Promise.all(TAGS_READ_AT_OPEN.filter((t) => fd.hasTag(t)).map((t) => fd.loadValue(t)));
  // Every tile's offset and length, read once: 8 to 16 bytes a tile, one range request.
  const [offsetsRaw, countsRaw] = await Promise.all([
    fd.loadValue(tiled ? 'TileOffsets' : 'StripOffsets'),
    fd.loadValue(tiled ? 'TileByteCounts' : 'StripByteCounts'),
  ]);
  const offsets = numberArray(offsetsRaw);
  const counts = numberArray(countsRaw);

  const width = image.getWidth();
  const height = image.getHeight();
  const spp = image.getSamplesPerPixel();
  const planar = image.planarConfiguration === 2;
  const tileWidth = image.getTileWidth();
  const tileHeight = image.getTileHeight();
  const bits = numberArray(fd.getValue('BitsPerSample') ?? [1]);
  const formats = numberArray(fd.getValue('SampleFormat') ?? [1]);
  if (bits.some((b) => b !== bits[0]) || formats.some((f) => f !== formats[0])) {
    throw fail('unsupported_tiff', `samples of mixed types (bits ${bits.join(',')}, formats ${formats.join(',')})`);
  }
  const dtype = dtypeOf(formats[0], bits[0]);
  if (dtype === null) throw fail('unsupported_tiff', `${bits[0]}-bit samples of SampleFormat ${formats[0]}`);
  if (!(width >= 1 && width <= MAX_RASTER_SIDE && height >= 1 && height <= MAX_RASTER_SIDE)) {
    throw fail('invalid_tiff', `the header declares a ${width}×${height} raster, over the ${MAX_RASTER_SIDE} pixels a side a raster may have`);
  }
  if (!(spp >= 1 && spp <= MAX_SAMPLES)) throw fail('invalid_tiff', `the header declares ${spp} samples a pixel, over the ${MAX_SAMPLES} a pixel may have`);
  if (!(tileWidth >= 1 && tileHeight >= 1 && tileWidth * tileHeight <= MAX_TILE_PIXELS)) {
    throw fail('invalid_tiff', `the header declares ${tileWidth}×${tileHeight} tiles, over the ${MAX_TILE_PIXELS} pixels a tile may have`);
  }
  const compression = (fd.getValue('Compression') ?? 1) as number;
  if (![1, 5, 8, 32946].includes(compression)) throw fail('unsupported_tiff', `compression ${compression}`);
  const predictor = fd.hasTag('Predictor') ? Number(await fd.loadValue('Predictor')) : 1;
  if (![1, 2, 3].includes(predictor)) throw fail('unsupported_tiff', `predictor ${predictor}`);
  const tilesAcross = Math.ceil(width / tileWidth);
  const tilesDown = Math.ceil(height / tileHeight);
  const planes = planar ? spp : 1;
  if (offsets.length < tilesAcross * tilesDown * planes || counts.length !== offsets.length) {
    throw fail('invalid_tiff', `${offsets.length} tile offsets for a grid of ${tilesAcross}×${tilesDown}×${planes}`);
  }
  const maxCount = MAX_COMPRESSED_OVER_DECODED * decodedByteLength({ compression: 1, predictor: 1, dtype, width: tileWidth, height: tileHeight, samplesPerPixel: planar ? 1 : spp });
  // A tile that runs past the end of the file is left to its read, which calls it truncated (a mirror may hold it whole).
  for (let i = 0; i < counts.length; i++) {
    if (counts[i] > maxCount) throw fail('invalid_tiff', `tile ${i} declares ${counts[i]} bytes, for a tile of ${maxCount / MAX_COMPRESSED_OVER_DECODED} bytes decoded`);
  }

  const geoKeys = (fd.parseGeoKeyDirectory() ?? {}) as Record<string, unknown>;
  const geoTransform = readGeoTransform(fd.getValue('ModelTransformation'), fd.getValue('ModelPixelScale'), fd.getValue('ModelTiepoint'));
  if (geoTransform === null) throw fail('invalid_tiff', 'no georeferencing (neither ModelTransformation nor ModelTiepoint with ModelPixelScale)');
  // GDAL reports a PixelIsPoint raster's origin half a pixel up and left, so do we.
  if (geoKeys.GTRasterTypeGeoKey === 2) {
    geoTransform[0] -= 0.5 * geoTransform[1] + 0.5 * geoTransform[2];
    geoTransform[3] -= 0.5 * geoTransform[4] + 0.5 * geoTransform[5];
  }
  const projected = geoKeys.ProjectedCSTypeGeoKey;
  const geographic = geoKeys.GeographicTypeGeoKey;
  const epsg =
    typeof projected === 'number' && projected !== USER_DEFINED
      ? projected
      : typeof geographic === 'number' && geographic !== USER_DEFINED && geoKeys.GTModelTypeGeoKey !== 1
        ? geographic
        : null;

  const bandItems = await image.getGDALMetadata(0);
  const datasetItems = (await image.getGDALMetadata(null)) ?? {};
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(datasetItems)) metadata[k] = String(v);
  const nodata = parseNodata(fd.getValue('GDAL_NODATA') as string | undefined);
  const scale = metadataNumber(bandItems, 'SCALE', 1);
  const offset = metadataNumber(bandItems, 'OFFSET', 0);

  const tileRef = (plane: number, row: number, col: number): TileRef => {
    const index = plane * tilesAcross * tilesDown + row * tilesAcross + col;
    const y0 = row * tileHeight;
    return {
      index,
      col,
      row,
      band: plane,
      offset: offsets[index],
      length: counts[index],
      x0: col * tileWidth,
      y0,
      width: tileWidth,
      // Tiles are padded to full size at the edges; strips are not.
      height: tiled ? tileHeight : Math.min(tileHeight, height - y0),
    };
  };

  const checkWindow = (win: PixelWindow) => {
    const { x0, y0, width: w, height: h, band } = win;
    const whole = [x0, y0, w, h].every(Number.isInteger) && w > 0 && h > 0;
    if (!whole || x0 < 0 || y0 < 0 || x0 + w > width || y0 + h > height) {
      throw new SourceError('window_outside', `${src.name}: window ${x0},${y0} ${w}×${h} is not inside the ${width}×${height} raster`, { url: src.id });
    }
    if (band !== undefined && !(Number.isInteger(band) && band >= 0 && band < spp)) {
      throw new SourceError('window_outside', `${src.name}: band ${band} of a ${spp}-band raster`, { url: src.id });
    }
  };

  const cog: Cog = {
    id: src.id,
    name: src.name,
    width,
    height,
    tileWidth,
    tileHeight,
    dtype,
    samplesPerPixel: spp,
    planar,
    epsg,
    geoTransform,
    nodata,
    scale,
    offset,
    compression: compression as Compression,
    predictor: predictor as Predictor,
    metadata,

    tileSpec(t) {
      return { compression: compression as Compression, predictor: predictor as Predictor, dtype, width: t.width, height: t.height, samplesPerPixel: planar ? 1 : spp };
    },

    tilesFor(win) {
      checkWindow(win);
      const col0 = Math.floor(win.x0 / tileWidth);
      const col1 = Math.floor((win.x0 + win.width - 1) / tileWidth);
      const row0 = Math.floor(win.y0 / tileHeight);
      const row1 = Math.floor((win.y0 + win.height - 1) / tileHeight);
      const wanted = planar ? (win.band === undefined ? [...Array(spp).keys()] : [win.band]) : [0];
      const refs: TileRef[] = [];
      for (const plane of wanted) {
        for (let row = row0; row <= row1; row++) for (let col = col0; col <= col1; col++) refs.push(tileRef(plane, row, col));
      }
      return refs;
    },

    async readTileBytes(t, signal) {
      if (t.length === 0) return new Uint8Array(0);
      const bytes = await src.read(t.offset, t.length, signal);
      if (bytes.length !== t.length) {
        throw new SourceError('truncated', `${src.name}: tile ${t.index} has ${bytes.length} of its ${t.length} bytes (the file ends early)`, { url: src.id });
      }
      return bytes;
    },

    windowFor(bbox, crs) {
      if (epsg === null) throw new SourceError('unsupported_crs', `${src.name} names no EPSG code, so a box cannot be placed on it`, { url: src.id });
      const [, , rx, , ry] = geoTransform;
      if (rx !== 0 || ry !== 0) throw fail('unsupported_tiff', 'a rotated geotransform');
      const grid = gridWindow(geoTransform, transformBbox(bbox, crs, epsg));
      const c0 = Math.max(0, grid.x0);
      const c1 = Math.min(width, grid.x0 + grid.width);
      const r0 = Math.max(0, grid.y0);
      const r1 = Math.min(height, grid.y0 + grid.height);
      if (c1 <= c0 || r1 <= r0) {
        throw new SourceError('window_outside', `${src.name}: the box ${bbox.join(',')} does not touch the raster`, { url: src.id });
      }
      return { x0: c0, y0: r0, width: c1 - c0, height: r1 - r0 };
    },
  };
  return cog;
}

function readGeoTransform(transformation: unknown, pixelScale: unknown, tiepoint: unknown): GeoTransform | null {
  if (transformation) {
    const m = numberArray(transformation);
    return [m[3], m[0], m[1], m[7], m[4], m[5]];
  }
  if (pixelScale && tiepoint) {
    const [sx, sy] = numberArray(pixelScale);
    const [i, j, , x, y] = numberArray(tiepoint);
    return [x - i * sx, sx, 0, y + j * sy, 0, -sy];
  }
  return null;
}
