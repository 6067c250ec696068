/**
 * An Open Buildings file read as its building cells: a COG whose grid is the cells' (`factor`
 * pixels a side, from the file's first pixel) and whose tiles are the file's own, each decoded and
 * gathered into its cells when first read, so only the cells are kept (worker/tile-decode.ts).
 * Neighbouring plots' rings cover the same ground, and a book of adjacent plots gathered each 0.5 m
 * pixel some six times over, once a plot, from pixels kept at twelve times the cells' bytes
 * (bench/RESULTS.md, "book").
 */
import { CELL_SUMS } from '../../../kernels/building-cells.ts';
import type { Cog, PixelWindow, TileRef } from '../../cog.ts';
import { OPEN_BUILDINGS_BAND_AT, openBuildingsNodata } from './codes.ts';

const views = new WeakSet<Cog>();
/** Each file's view by cell size, made once: a plot's every year asks again. */
const made = new WeakMap<Cog, Map<number, Cog | null>>();

/** Whether `cog` is a file read as its building cells. */
export const readAsCells = (cog: Cog) => views.has(cog);

/**
 * The file read as cells of `factor` pixels, or null where it cannot be: samples in planes of their
 * own, tiles that are not a whole number of cells, a rotated grid, or sparse tiles that read as
 * pixels with data (a file declaring no nodata: a sparse tile reads as 0, ground without buildings,
 * which cells kept only where a tile has bytes cannot say).
 */
export function buildingCellsOf(cog: Cog, factor: number): Cog | null {
  const byFactor = made.get(cog) ?? new Map<number, Cog | null>();
  made.set(cog, byFactor);
  let view = byFactor.get(factor);
  if (view === undefined) byFactor.set(factor, (view = cellsView(cog, factor)));
  return view;
}

function cellsView(cog: Cog, factor: number): Cog | null {
  const [ox, pw, rx, oy, ry, ph] = cog.geoTransform;
  if (cog.planar || rx !== 0 || ry !== 0 || cog.tileWidth % factor !== 0 || cog.tileHeight % factor !== 0) return null;
  if (cog.nodata === null && cog.tilesFor({ x0: 0, y0: 0, width: cog.width, height: cog.height }).some((t) => t.length === 0)) return null;
  const width = Math.ceil(cog.width / factor);
  const height = Math.ceil(cog.height / factor);
  const nodata = openBuildingsNodata(cog.nodata);
  const toCells = (ref: TileRef): TileRef => ({ ...ref, x0: ref.x0 / factor, y0: ref.y0 / factor, width: ref.width / factor, height: ref.height / factor });
  const toPixels = (ref: TileRef): TileRef => ({ ...ref, x0: ref.x0 * factor, y0: ref.y0 * factor, width: ref.width * factor, height: ref.height * factor });
  const view: Cog = {
    id: `${cog.id}#cells${factor}`,
    name: cog.name,
    width,
    height,
    tileWidth: cog.tileWidth / factor,
    tileHeight: cog.tileHeight / factor,
    dtype: 'float32',
    samplesPerPixel: CELL_SUMS,
    planar: false,
    epsg: cog.epsg,
    geoTransform: [ox, pw * factor, 0, oy, 0, ph * factor],
    // A cell of no data holds no pixel with data (its second sum is 0), as do a sparse tile's cells
    // (its pixels read as the file's nodata) and a missing file's, which read as 0.
    nodata: null,
    scale: 1,
    offset: 0,
    compression: cog.compression,
    predictor: cog.predictor,
    metadata: cog.metadata,
    tileSpec(t) {
      const ref = toPixels(t);
      const pixels = cog.tileSpec(ref);
      return {
        compression: pixels.compression,
        predictor: pixels.predictor,
        dtype: 'float32',
        width: pixels.width / factor,
        height: pixels.height / factor,
        samplesPerPixel: CELL_SUMS,
        cells: {
          factor,
          pixels: { dtype: pixels.dtype, width: pixels.width, height: pixels.height, samplesPerPixel: pixels.samplesPerPixel ?? 1 },
          inFile: { width: Math.min(pixels.width, cog.width - ref.x0), height: Math.min(pixels.height, cog.height - ref.y0) },
          bands: OPEN_BUILDINGS_BAND_AT,
          nodata,
        },
      };
    },
    tilesFor(win) {
      const x0 = win.x0 * factor;
      const y0 = win.y0 * factor;
      const pixels: PixelWindow = { x0, y0, width: Math.min(win.width * factor, cog.width - x0), height: Math.min(win.height * factor, cog.height - y0) };
      if (!(win.x0 >= 0 && win.y0 >= 0 && win.x0 + win.width <= width && win.y0 + win.height <= height)) {
        // The file's own check words the refusal.
        return cog.tilesFor({ ...pixels, width: win.width * factor, height: win.height * factor });
      }
      return cog.tilesFor(pixels).map(toCells);
    },
    readTileBytes: (t, signal) => cog.readTileBytes(t, signal),
    windowFor(bbox, crs) {
      const w = cog.windowFor(bbox, crs);
      const c0 = Math.floor(w.x0 / factor);
      const r0 = Math.floor(w.y0 / factor);
      return { x0: c0, y0: r0, width: Math.ceil((w.x0 + w.width) / factor) - c0, height: Math.ceil((w.y0 + w.height) / factor) - r0 };
    },
  };
  views.add(view);
  return view;
}
