// The forest_types block's planning half: the two 2020 maps' windows over the plot, from every
// tile the plot's box touches.
import type { Archive } from '../../archive.ts';
import type { ForestTypesPrepared, ForestTypesProvenance } from '../../context/forest-types.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { euForestTile, gfc2020Provenance, GFC2020, gft2020Provenance, GFT2020 } from '../../sources/products/eu-forest-maps/codes.ts';
import type { Provenance } from '../../sources/products/provenance.ts';
import type { RasterRequest } from '../../sources/raster-request.ts';
import { unlessAbortedOrTransient } from './not-read.ts';
import { partlyReadOf } from './partly-read.ts';

function forestTypesProvenance(gft: Provenance, gfc: Provenance): ForestTypesProvenance {
  return {
    source: `${gft.dataset} (GFT2020 ${GFT2020.version}, 10 m), on the forest mask of ${gfc.dataset} (GFC2020 ${GFC2020.version})`,
    licence: gft.licence,
    citation: `${gft.citation}; ${gfc.citation}`,
  };
}

export async function planForestTypes(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: ForestTypesPrepared }> {
  const box = footprintBox(plot.footprint, 20);
  try {
    const { gft2020: gft, gfc2020: gfc } = (await archive.euForestMaps.windows(box, signal)).layers;
    const requests = [gft.request, gfc.request];
    const provenance = forestTypesProvenance(gft.provenance, gfc.provenance);
    return { requests, prepared: { provenance, state: 'read', gft: gft.request.key, gfc: gfc.request.key, ...partlyReadOf(requests) } };
  } catch (err) {
    const why = unlessAbortedOrTransient(err, signal);
    // Nothing was read: the maps are named from their codes, at the tile under the plot.
    const tile = euForestTile(...plot.centroid);
    return { requests: [], prepared: { provenance: forestTypesProvenance(gft2020Provenance(tile, archive.where), gfc2020Provenance(tile, archive.where)), state: 'not_read', why } };
  }
}
