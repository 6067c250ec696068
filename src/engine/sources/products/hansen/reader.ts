// Plans reads of the Hansen tiles (codes.ts holds their names and layers).
import type { Bbox } from '../../reproject.ts';
import type { ProductWindows } from '../../raster-request.ts';
import { CogOpener, layersOverTiles, type ProductDeps } from '../cog-opener.ts';
import { cellsTouching } from '../grid.ts';
import { hansenHref, type HansenLayer, hansenProvenance, hansenTile } from './codes.ts';

export interface HansenAdapter {
  /** Layers over a box (lon/lat), from every 10° tile it touches. */
  windows<L extends HansenLayer>(box: Bbox, layers: readonly L[], signal?: AbortSignal): Promise<ProductWindows<L>>;
}

export function createHansenAdapter(opts: ProductDeps): HansenAdapter {
  const cogs = new CogOpener(opts);
  return {
    windows(box, layers, signal) {
      const tiles = cellsTouching(box, 10).map(([lon, lat]) => hansenTile(lon, lat));
      return layersOverTiles(box, tiles, layers, (layer, tile) => ({
        open: (name) => cogs.open(hansenHref(layer, tile), { name, signal }),
        provenance: hansenProvenance(layer, tile, opts.where),
        // Every value is a value (0 = no loss, 0 % cover); the data mask tells land from water.
        encoding: () => ({ scale: 1, offset: 0, nodata: null }),
      }));
    },
  };
}
