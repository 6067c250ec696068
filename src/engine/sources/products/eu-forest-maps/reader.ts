// Reads the GFC2020 and GFT2020 tiles (codes.ts holds their names and classes).
import { CogOpener, type ProductDeps } from '../cog-opener.ts';
import type { Provenance, RasterRead } from '../provenance.ts';
import { EU_FOREST_MAPS_ASSUMED, euForestTile, gfc2020Href, gfc2020Provenance, gft2020Href, gft2020Provenance } from './codes.ts';

export interface EuForestMapsAdapter {
  /** Both 2020 maps over a box (lon/lat). Value 0 is "not forest" and never missing (see EU_FOREST_MAPS_ASSUMED). */
  read(bbox: [number, number, number, number], signal?: AbortSignal): Promise<{ gfc2020: RasterRead; gft2020: RasterRead }>;
}

export function createEuForestMapsAdapter(opts: ProductDeps): EuForestMapsAdapter {
  const cogs = new CogOpener(opts);
  const read = async (href: string, provenance: Provenance, bbox: [number, number, number, number], signal?: AbortSignal): Promise<RasterRead> => {
    const window = await (await cogs.open(href, { signal })).readBbox(bbox, 'EPSG:4326', signal);
    return { window, encoding: { scale: 1, offset: 0, nodata: null }, provenance };
  };
  return {
    async read(bbox, signal) {
      const tile = euForestTile((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2);
      const [gfc2020, gft2020] = await Promise.all([
        read(gfc2020Href(tile), gfc2020Provenance(tile, opts.where), bbox, signal),
        read(gft2020Href(tile), gft2020Provenance(tile, opts.where), bbox, signal),
      ]);
      return { gfc2020, gft2020 };
    },
  };
}
