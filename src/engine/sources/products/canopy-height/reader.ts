// Plans reads of the canopy-height tiles (codes.ts holds their names and values).
import type { Bbox } from '../../reproject.ts';
import type { ProductWindows } from '../../raster-request.ts';
import { CogOpener, layersOverTiles, type ProductDeps } from '../cog-opener.ts';
import { cellsTouching } from '../grid.ts';
import { CANOPY_HEIGHT_NODATA, canopyHeightHref, canopyHeightProvenance, canopyHeightTile } from './codes.ts';

export type CanopyHeightLayer = 'Map' | 'Map_SD';

export interface CanopyHeightAdapter {
  /** Heights (`Map`) or their standard deviation (`Map_SD`) over a box (lon/lat), from every 3° tile it touches. */
  windows<L extends CanopyHeightLayer>(box: Bbox, layers: readonly L[], signal?: AbortSignal): Promise<ProductWindows<L>>;
}

export function createCanopyHeightAdapter(opts: ProductDeps): CanopyHeightAdapter {
  const cogs = new CogOpener(opts);
  return {
    windows(box, layers, signal) {
      const tiles = cellsTouching(box, 3).map(([lon, lat]) => canopyHeightTile(lon, lat));
      return layersOverTiles(box, tiles, layers, (layer, tile) => ({
        open: (name) => cogs.open(canopyHeightHref(tile, layer), { name, signal }),
        provenance: canopyHeightProvenance(tile, opts.where),
        // The producer states nodata 255; a file that declares none is read with it all the same.
        encoding: (cog) => ({ scale: cog.scale, offset: cog.offset, nodata: cog.nodata ?? CANOPY_HEIGHT_NODATA }),
      }));
    },
  };
}
