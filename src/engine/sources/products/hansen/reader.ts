// Reads the Hansen tiles (codes.ts holds their names and layers).
import { CogOpener, type ProductDeps } from '../cog-opener.ts';
import type { RasterRead } from '../provenance.ts';
import { hansenHref, type HansenLayer, hansenProvenance, hansenTile } from './codes.ts';

export interface HansenAdapter {
  /** Layers over a box (lon/lat), from the tile holding its centre. */
  read(bbox: [number, number, number, number], layers: HansenLayer[], signal?: AbortSignal): Promise<Partial<Record<HansenLayer, RasterRead>>>;
}

export function createHansenAdapter(opts: ProductDeps): HansenAdapter {
  const cogs = new CogOpener(opts);
  return {
    async read(bbox, layers, signal) {
      const tile = hansenTile((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2);
      const out: Partial<Record<HansenLayer, RasterRead>> = {};
      await Promise.all(layers.map(async (layer) => {
        const window = await (await cogs.open(hansenHref(layer, tile), { signal })).readBbox(bbox, 'EPSG:4326', signal);
        // Every value is a value (0 = no loss, 0 % cover); the data mask tells land from water.
        out[layer] = { window, encoding: { scale: 1, offset: 0, nodata: null }, provenance: hansenProvenance(layer, tile, opts.where) };
      }));
      return out;
    },
  };
}
