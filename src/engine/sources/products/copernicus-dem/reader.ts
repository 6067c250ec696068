// Reads the DEM tiles (codes.ts holds their names and grid).
import { isSourceError } from '../../errors.ts';
import { CogOpener, type ProductDeps } from '../cog-opener.ts';
import type { RasterRead } from '../provenance.ts';
import { DEM_ASSUMED_NODATA, demHref, demProvenance, demTile, metresPerDegree } from './codes.ts';

export interface DemRead extends RasterRead {
  /** Ground size of a pixel in metres at the box's latitude (for slope). */
  pixelWidthM: number;
  pixelHeightM: number;
}

export interface DemAdapter {
  /** Heights over a box (lon/lat); null where no tile exists (open ocean). */
  read(bbox: [number, number, number, number], signal?: AbortSignal): Promise<DemRead | null>;
}

export function createDemAdapter(opts: ProductDeps): DemAdapter {
  const cogs = new CogOpener(opts);
  return {
    async read(bbox, signal) {
      const lat = (bbox[1] + bbox[3]) / 2;
      const tile = demTile((bbox[0] + bbox[2]) / 2, lat);
      let cog;
      try {
        cog = await cogs.open(demHref(tile), { signal });
      } catch (err) {
        if (isSourceError(err, 'not_found')) return null;
        throw err;
      }
      const window = await cog.readBbox(bbox, 'EPSG:4326', signal);
      const m = metresPerDegree(lat);
      return {
        window,
        encoding: { scale: cog.scale, offset: cog.offset, nodata: cog.nodata ?? DEM_ASSUMED_NODATA },
        provenance: demProvenance(tile, opts.where),
        pixelWidthM: Math.abs(window.geoTransform[1]) * m.lon,
        pixelHeightM: Math.abs(window.geoTransform[5]) * m.lat,
      };
    },
  };
}
