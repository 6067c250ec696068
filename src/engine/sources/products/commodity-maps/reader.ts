// Reads the oil palm and rubber maps from the operator's mirror (codes.ts holds their layouts and classes).
import { CogOpener, type ProductDeps, readArchiveJson } from '../cog-opener.ts';
import { euForestTile } from '../eu-forest-maps/codes.ts';
import type { RasterRead } from '../provenance.ts';
import { type GridCellFeature, OIL_PALM_GRID_HREF, OIL_PALM_YOP_NODATA, oilPalmCells, oilPalmHref, oilPalmProvenance, rubberCovers, rubberHref, rubberProvenance, rubberReadable } from './codes.ts';

export interface OilPalmRead {
  /** False when no grid cell of the map touches the box (the map covers producing regions only). */
  covered: boolean;
  extent: RasterRead | null;
  plantingYear: RasterRead | null;
}

export interface OilPalmAdapter {
  read(bbox: [number, number, number, number], signal?: AbortSignal): Promise<OilPalmRead>;
}

export function createOilPalmAdapter(opts: ProductDeps): OilPalmAdapter {
  const cogs = new CogOpener(opts);
  let grid: Promise<{ features: GridCellFeature[] }> | null = null;
  const loadGrid = (signal?: AbortSignal) => {
    grid ??= readArchiveJson<{ features: GridCellFeature[] }>(OIL_PALM_GRID_HREF, opts, signal);
    grid.catch(() => (grid = null));
    return grid;
  };
  return {
    async read(bbox, signal) {
      const cells = oilPalmCells(await loadGrid(signal), bbox);
      if (cells.length === 0) return { covered: false, extent: null, plantingYear: null };
      // The cell holding the box's centre (cells do not overlap; a box across two reads the first).
      const cell = cells[0];
      const [extent, plantingYear] = await Promise.all((['OP-extent', 'YoP'] as const).map(async (layer) => {
        const window = await (await cogs.open(oilPalmHref(layer, cell), { signal })).readBbox(bbox, 'EPSG:4326', signal);
        const nodata = layer === 'YoP' ? OIL_PALM_YOP_NODATA : null;
        return { window, encoding: { scale: 1, offset: 0, nodata }, provenance: oilPalmProvenance(cell, opts.where) };
      }));
      return { covered: true, extent, plantingYear };
    },
  };
}

export interface RubberRead {
  /** False outside Southeast Asia (spec 2.8.6 `outside_coverage`). */
  covered: boolean;
  /** False when no mirror of the map is configured (the public archive has none). */
  readable: boolean;
  classes: RasterRead | null;
}

export interface RubberAdapter {
  read(bbox: [number, number, number, number], signal?: AbortSignal): Promise<RubberRead>;
}

export function createRubberAdapter(opts: ProductDeps): RubberAdapter {
  const cogs = new CogOpener(opts);
  return {
    async read(bbox, signal) {
      const lon = (bbox[0] + bbox[2]) / 2;
      const lat = (bbox[1] + bbox[3]) / 2;
      if (!rubberCovers(lon, lat)) return { covered: false, readable: true, classes: null };
      if (!rubberReadable(opts.where)) return { covered: true, readable: false, classes: null };
      const tile = euForestTile(lon, lat);
      const window = await (await cogs.open(rubberHref(tile), { signal })).readBbox(bbox, 'EPSG:4326', signal);
      return { covered: true, readable: true, classes: { window, encoding: { scale: 1, offset: 0, nodata: null }, provenance: rubberProvenance(tile, opts.where) } };
    },
  };
}
