/**
 * A task's tiles and windows as they cross to a thread. The structured clone a task's message goes
 * through costs about a microsecond an object, and a plot's step ships some 300 tiles and as many
 * windows, all on the main thread: so they travel as a few typed arrays, their repeated specs and
 * formats once each, and only the slots, the compressed bytes and the windows' keys as lists
 * (bench/RESULTS.md, "book"). The main thread packs (raster-shipment.ts), the thread unpacks.
 */
import { assembleRasters, type ShippedRaster, type ShippedTile, type TileSlot, type WindowBuffer, type WorkerRaster } from './raster-window.ts';
import type { Dtype, TileCells, TileSpec } from './tile-decode.ts';

/** A window's format, shared by every window of one file. */
interface RasterFormat {
  dtype: Dtype;
  samplesPerPixel: number;
  planar: boolean;
  epsg: number | null;
  nodata: number | null;
  scale: number;
  offset: number;
}

/** Per tile: spec index, x0, y0, sample plane, in-file width and height (−1: the whole tile). */
const TILE_INTS = 6;
/** Per window: format index, x0, y0, width, height, band (−1: every sample), first entry in `tileLists`, tile count. */
const RASTER_INTS = 8;

export interface RasterShipment {
  specs: TileSpec[];
  tiles: Int32Array;
  fills: Float64Array;
  slots: Array<TileSlot | null>;
  bytes: Array<Uint8Array | null>;
  formats: RasterFormat[];
  keys: string[];
  rasters: Int32Array;
  /** Six numbers a window. */
  geoTransforms: Float64Array;
  tileLists: Int32Array;
}

/**
 * The index of the entry of `list` that is `same` as `probe`, made and added if none is. A shipment
 * holds a few distinct specs and formats (a file's edge tiles differ from its inner ones), so a scan
 * comparing fields beats building keys.
 */
function indexIn<T, P>(list: T[], probe: P, same: (entry: T, probe: P) => boolean, make: (probe: P) => T): number {
  for (let k = list.length - 1; k >= 0; k--) if (same(list[k], probe)) return k;
  return list.push(make(probe)) - 1;
}

const sameCells = (a: TileCells | undefined, b: TileCells | undefined) =>
  a === b ||
  (a !== undefined && b !== undefined && a.factor === b.factor && Object.is(a.nodata, b.nodata) &&
    a.pixels.dtype === b.pixels.dtype && a.pixels.width === b.pixels.width && a.pixels.height === b.pixels.height && a.pixels.samplesPerPixel === b.pixels.samplesPerPixel &&
    a.inFile.width === b.inFile.width && a.inFile.height === b.inFile.height &&
    a.bands.presence === b.bands.presence && a.bands.count === b.bands.count && a.bands.height === b.bands.height);
const sameSpec = (a: TileSpec, b: TileSpec) =>
  a === b ||
  (a.width === b.width && a.height === b.height && a.dtype === b.dtype && a.compression === b.compression && a.predictor === b.predictor && (a.samplesPerPixel ?? 1) === (b.samplesPerPixel ?? 1) && sameCells(a.cells, b.cells));
const sameFormat = (a: RasterFormat, b: ShippedRaster) =>
  a.dtype === b.dtype && a.samplesPerPixel === b.samplesPerPixel && a.planar === b.planar && a.epsg === b.epsg && Object.is(a.nodata, b.nodata) && a.scale === b.scale && a.offset === b.offset;
const formatOf = (r: ShippedRaster): RasterFormat => ({ dtype: r.dtype, samplesPerPixel: r.samplesPerPixel, planar: r.planar, epsg: r.epsg, nodata: r.nodata, scale: r.scale, offset: r.offset });

export function packShipment(sh: { tiles: readonly ShippedTile[]; rasters: readonly ShippedRaster[] }): RasterShipment {
  const specs: TileSpec[] = [];
  const tiles = new Int32Array(sh.tiles.length * TILE_INTS);
  const fills = new Float64Array(sh.tiles.length);
  const slots: Array<TileSlot | null> = new Array(sh.tiles.length);
  const bytes: Array<Uint8Array | null> = new Array(sh.tiles.length);
  sh.tiles.forEach((t, k) => {
    const at = k * TILE_INTS;
    tiles[at] = indexIn(specs, t.spec, sameSpec, (s) => s);
    tiles[at + 1] = t.x0;
    tiles[at + 2] = t.y0;
    tiles[at + 3] = t.plane;
    tiles[at + 4] = t.inFile?.width ?? -1;
    tiles[at + 5] = t.inFile?.height ?? -1;
    fills[k] = t.fill;
    slots[k] = t.slot;
    bytes[k] = t.bytes;
  });
  const formats: RasterFormat[] = [];
  const rasters = new Int32Array(sh.rasters.length * RASTER_INTS);
  const geoTransforms = new Float64Array(sh.rasters.length * 6);
  const keys: string[] = new Array(sh.rasters.length);
  const tileLists = new Int32Array(sh.rasters.reduce((n, r) => n + r.tiles.length, 0));
  let listed = 0;
  sh.rasters.forEach((r, k) => {
    const at = k * RASTER_INTS;
    rasters[at] = indexIn(formats, r, sameFormat, formatOf);
    rasters[at + 1] = r.x0;
    rasters[at + 2] = r.y0;
    rasters[at + 3] = r.width;
    rasters[at + 4] = r.height;
    rasters[at + 5] = r.band ?? -1;
    rasters[at + 6] = listed;
    rasters[at + 7] = r.tiles.length;
    tileLists.set(r.tiles, listed);
    listed += r.tiles.length;
    geoTransforms.set(r.geoTransform, k * 6);
    keys[k] = r.key;
  });
  return { specs, tiles, fills, slots, bytes, formats, keys, rasters, geoTransforms, tileLists };
}

export function unpackShipment(w: RasterShipment): { tiles: ShippedTile[]; rasters: ShippedRaster[] } {
  // Read by index: a view a tile and a window was most of what unpacking allocated on the thread.
  const tiles = w.slots.map((slot, k): ShippedTile => {
    const at = k * TILE_INTS;
    const t = w.tiles;
    const tile: ShippedTile = { spec: w.specs[t[at]], x0: t[at + 1], y0: t[at + 2], plane: t[at + 3], slot, bytes: w.bytes[k], fill: w.fills[k] };
    if (t[at + 4] >= 0) tile.inFile = { width: t[at + 4], height: t[at + 5] };
    return tile;
  });
  const rasters = w.keys.map((key, k): ShippedRaster => {
    const at = k * RASTER_INTS;
    const r = w.rasters;
    const list: number[] = new Array(r[at + 7]);
    for (let i = 0; i < list.length; i++) list[i] = w.tileLists[r[at + 6] + i];
    const g = w.geoTransforms;
    return {
      key,
      x0: r[at + 1],
      y0: r[at + 2],
      width: r[at + 3],
      height: r[at + 4],
      ...(r[at + 5] < 0 ? {} : { band: r[at + 5] }),
      ...w.formats[r[at]],
      tiles: list,
      geoTransform: [g[k * 6], g[k * 6 + 1], g[k * 6 + 2], g[k * 6 + 3], g[k * 6 + 4], g[k * 6 + 5]],
    };
  });
  return { tiles, rasters };
}

/** Every shipped window by its key, its tiles made ready first, cut into `into` when given (raster-window.ts). */
export function assembleShipment(w: RasterShipment, into?: WindowBuffer): Map<string, WorkerRaster> {
  const { tiles, rasters } = unpackShipment(w);
  return assembleRasters(rasters, tiles, into);
}
