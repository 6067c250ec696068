// Reads the canopy-height tiles (codes.ts holds their names and values).
import { CogOpener, type ProductDeps } from '../cog-opener.ts';
import type { RasterRead } from '../provenance.ts';
import { CANOPY_HEIGHT_NODATA, canopyHeightHref, canopyHeightProvenance, canopyHeightTile } from './codes.ts';

export interface CanopyHeightAdapter {
  /** Heights (and their standard deviation) over a box (lon/lat), from the tile holding its centre. */
  read(bbox: [number, number, number, number], signal?: AbortSignal): Promise<{ height: RasterRead; sd: RasterRead }>;
}

export function createCanopyHeightAdapter(opts: ProductDeps): CanopyHeightAdapter {
  const cogs = new CogOpener(opts);
  return {
    async read(bbox, signal) {
      const tile = canopyHeightTile((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2);
      const [height, sd] = await Promise.all((['Map', 'Map_SD'] as const).map(async (layer) => {
        const cog = await cogs.open(canopyHeightHref(tile, layer), { signal });
        const window = await cog.readBbox(bbox, 'EPSG:4326', signal);
        // The producer states nodata 255; a file that declares none is read with it all the same.
        return { window, encoding: { scale: 1, offset: 0, nodata: cog.nodata ?? CANOPY_HEIGHT_NODATA }, provenance: canopyHeightProvenance(tile, opts.where) };
      }));
      return { height, sd };
    },
  };
}
