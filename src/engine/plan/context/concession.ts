// The concession block's planning half: the layer asked for the concessions over the plot.
import type { Archive } from '../../archive.ts';
import { concessionApplies, type ConcessionPrepared } from '../../context/concession.ts';
import type { ContextPlot } from '../../context/plot.ts';
import { GFW_DATA_API } from '../../sources/products/gfw-data-api.ts';
import { WOOD_FIBRE_DATASET } from '../../sources/products/wood-fibre-concessions/codes.ts';
import { unlessAborted } from './not-read.ts';

const SOURCE = 'Global Forest Watch Data API';

/** Asks the layer for the concessions intersecting the plot; an unanswered layer is recorded, never taken for outside. */
export async function planConcession(plot: ContextPlot, archive: Archive, readOn: string, signal?: AbortSignal): Promise<ConcessionPrepared> {
  if (!concessionApplies(plot.centroid)) return null;
  try {
    const read = await archive.concessions.read(plot.footprint, signal);
    const p = read.provenance;
    return {
      readOn,
      layer: {
        checked: true,
        features: read.features,
        provenance: { source: SOURCE, dataset: p.dataset, version: read.version, licence: p.licence, citation: p.citation },
      },
    };
  } catch (err) {
    const why = unlessAborted(err, signal);
    return {
      readOn,
      layer: {
        checked: false,
        why,
        provenance: { source: SOURCE, dataset: WOOD_FIBRE_DATASET, version: null, licence: 'Varies by source', citation: `Global Forest Watch, ${WOOD_FIBRE_DATASET}, ${GFW_DATA_API}/dataset/${WOOD_FIBRE_DATASET}` },
      },
    };
  }
}

