// Plans reads of the oil palm and rubber maps from the operator's mirror (codes.ts holds their layouts and classes).
import type { Bbox } from '../../reproject.ts';
import type { ProductWindows } from '../../raster-request.ts';
import { CogOpener, layersOverTiles, type ProductDeps, readArchiveJson } from '../cog-opener.ts';
import { euForestTile } from '../eu-forest-maps/codes.ts';
import { cellsTouching } from '../grid.ts';
import { type GridCellFeature, OIL_PALM_GRID_HREF, OIL_PALM_YOP_NODATA, oilPalmCells, oilPalmHref, oilPalmProvenance, rubberCovers, rubberHref, rubberProvenance, rubberReadable } from './codes.ts';

export type OilPalmLayer = 'OP-extent' | 'YoP';

export type OilPalmWindows =
  /** No grid cell of the map touches the box (the map covers producing regions only). */
  | { covered: false }
  | ({ covered: true } & ProductWindows<OilPalmLayer>);

export interface OilPalmAdapter {
  /** Extent and planting year over a box (lon/lat), from every grid cell it touches. */
  windows(box: Bbox, signal?: AbortSignal): Promise<OilPalmWindows>;
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
    async windows(box, signal) {
      const cells = oilPalmCells(await loadGrid(signal), box);
      if (cells.length === 0) return { covered: false };
      const planned = await layersOverTiles(box, cells, ['OP-extent', 'YoP'] as const, (layer, cell) => ({
        open: (name) => cogs.open(oilPalmHref(layer, cell), { name, signal }),
        provenance: oilPalmProvenance(cell, opts.where),
        encoding: () => ({ scale: 1, offset: 0, nodata: layer === 'YoP' ? OIL_PALM_YOP_NODATA : null }),
      }));
      return { covered: true, ...planned };
    },
  };
}

export type RubberWindows =
  /** Outside Southeast Asia (spec 2.8.6 `outside_coverage`). */
  | { covered: false; readable: true }
  /** No mirror of the map is configured (the public archive has none). */
  | { covered: true; readable: false }
  | ({ covered: true; readable: true } & ProductWindows<'classes'>);

export interface RubberAdapter {
  /** The rubber classes over a box (lon/lat), from every 10° tile it touches; coverage judged at the box's centre. */
  windows(box: Bbox, signal?: AbortSignal): Promise<RubberWindows>;
}

export function createRubberAdapter(opts: ProductDeps): RubberAdapter {
  const cogs = new CogOpener(opts);
  return {
    async windows(box, signal) {
      if (!rubberCovers((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)) return { covered: false, readable: true };
      if (!rubberReadable(opts.where)) return { covered: true, readable: false };
      const tiles = cellsTouching(box, 10).map(([lon, lat]) => euForestTile(lon, lat));
      const planned = await layersOverTiles(box, tiles, ['classes'] as const, (_, tile) => ({
        open: (name) => cogs.open(rubberHref(tile), { name, signal }),
        provenance: rubberProvenance(tile, opts.where),
        encoding: () => ({ scale: 1, offset: 0, nodata: null }),
      }));
      return { covered: true, readable: true, ...planned };
    },
  };
}
