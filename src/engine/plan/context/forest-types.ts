// The forest_types block's planning half: the two 2020 maps' windows over the plot.
import type { Archive } from '../../archive.ts';
import type { ForestTypesPrepared, ForestTypesProvenance } from '../../context/forest-types.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { euForestTile, gfc2020Href, gfc2020Provenance, GFC2020, gft2020Href, gft2020Provenance, GFT2020 } from '../../sources/products/eu-forest-maps/codes.ts';
import type { ArchiveLocation } from '../../sources/products/provenance.ts';
import { type RasterRequest, requestForBox } from '../../sources/raster-request.ts';
import { unlessAborted } from './not-read.ts';

function forestTypesProvenance(where: ArchiveLocation, tile: string): ForestTypesProvenance {
  const gft = gft2020Provenance(tile, where);
  const gfc = gfc2020Provenance(tile, where);
  return {
    source: `${gft.dataset} (GFT2020 ${GFT2020.version}, 10 m), on the forest mask of ${gfc.dataset} (GFC2020 ${GFC2020.version})`,
    licence: gft.licence,
    citation: `${gft.citation}; ${gfc.citation}`,
  };
}

export async function planForestTypes(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: ForestTypesPrepared }> {
  const tile = euForestTile(...plot.centroid);
  const provenance = forestTypesProvenance(archive.where, tile);
  const box = footprintBox(plot.footprint, 20);
  try {
    const [gft, gfc] = await Promise.all([gft2020Href(tile), gfc2020Href(tile)].map(async (href) => requestForBox(await archive.cogs.open(href, { signal }), box)));
    return { requests: [gft, gfc], prepared: { provenance, state: 'read', gft: gft.key, gfc: gfc.key } };
  } catch (err) {
    return { requests: [], prepared: { provenance, state: 'not_read', why: unlessAborted(err, signal) } };
  }
}

