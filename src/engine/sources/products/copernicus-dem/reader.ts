// Plans reads of the DEM tiles (codes.ts holds their names and grid).
import { isSourceError } from '../../errors.ts';
import { type Bbox, metresPerDegree } from '../../reproject.ts';
import type { ProductWindows } from '../../raster-request.ts';
import { CogOpener, layersOverTiles, type ProductDeps } from '../cog-opener.ts';
import { cellsTouching } from '../grid.ts';
import { DEM_ASSUMED_NODATA, demHref, demProvenance, demTile } from './codes.ts';

export interface DemWindows extends ProductWindows<'heights'> {
  /** Ground size of a pixel in metres at the box's latitude (for slope). */
  pixelWidthM: number;
  pixelHeightM: number;
}

export interface DemAdapter {
  /** Heights over a box (lon/lat) from every 1° tile it touches; null where no tile exists (open ocean). */
  windows(box: Bbox, signal?: AbortSignal): Promise<DemWindows | null>;
}

export function createDemAdapter(opts: ProductDeps): DemAdapter {
  const cogs = new CogOpener(opts);
  return {
    async windows(box, signal) {
      const tiles = cellsTouching(box, 1).map(([lon, lat]) => demTile(lon, lat));
      let planned: ProductWindows<'heights'>;
      try {
        planned = await layersOverTiles(box, tiles, ['heights'] as const, (_, tile) => ({
          open: (name) => cogs.open(demHref(tile), { name, signal }),
          provenance: demProvenance(tile, opts.where),
          encoding: (cog) => ({ scale: cog.scale, offset: cog.offset, nodata: cog.nodata ?? DEM_ASSUMED_NODATA }),
        }));
      } catch (err) {
        if (isSourceError(err, 'not_found')) return null;
        throw err;
      }
      const m = metresPerDegree((box[1] + box[3]) / 2);
      const [, pw, , , , ph] = planned.layers.heights.request.cog.geoTransform;
      return { ...planned, pixelWidthM: Math.abs(pw) * m.lon, pixelHeightM: Math.abs(ph) * m.lat };
    },
  };
}
