// Plans reads of the GFC2020 and GFT2020 tiles (codes.ts holds their names and classes).
import type { Bbox } from '../../reproject.ts';
import type { ProductWindows } from '../../raster-request.ts';
import { CogOpener, layersOverTiles, type ProductDeps } from '../cog-opener.ts';
import { cellsTouching } from '../grid.ts';
import { euForestTile, gfc2020Href, gfc2020Provenance, gft2020Href, gft2020Provenance } from './codes.ts';

export type EuForestMap = 'gfc2020' | 'gft2020';

export interface EuForestMapsAdapter {
  /** Both 2020 maps over a box (lon/lat), from every 10° tile it touches. Value 0 is "not forest" and never missing (see EU_FOREST_MAPS_ASSUMED). */
  windows(box: Bbox, signal?: AbortSignal): Promise<ProductWindows<EuForestMap>>;
}

export function createEuForestMapsAdapter(opts: ProductDeps): EuForestMapsAdapter {
  const cogs = new CogOpener(opts);
  return {
    windows(box, signal) {
      const tiles = cellsTouching(box, 10).map(([lon, lat]) => euForestTile(lon, lat));
      return layersOverTiles(box, tiles, ['gfc2020', 'gft2020'] as const, (map, tile) => ({
        open: (name) => cogs.open(map === 'gfc2020' ? gfc2020Href(tile) : gft2020Href(tile), { name, signal }),
        provenance: map === 'gfc2020' ? gfc2020Provenance(tile, opts.where) : gft2020Provenance(tile, opts.where),
        encoding: () => ({ scale: 1, offset: 0, nodata: null }),
      }));
    },
  };
}
