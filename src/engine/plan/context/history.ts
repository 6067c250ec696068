// The history block's planning half: which TMF windows the plot needs, or why none are read.
import { isIn } from '@rapideditor/country-coder';
import type { Archive } from '../../archive.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { HISTORY_DATASETS, type HistoryDataset, type HistoryNotRead, type HistoryPrepared, type HistoryProvenance, RECORD_REQUIRED_IN } from '../../context/history.ts';
import type { Provenance } from '../../sources/products/provenance.ts';
import { tmfProvenance, tmfTile, TMF_VERSION } from '../../sources/products/tmf/codes.ts';
import { type RasterRequest, tilesRead } from '../../sources/raster-request.ts';
import { unlessAbortedOrTransient } from './not-read.ts';
import { partlyReadOf } from './partly-read.ts';

/**
 * Whether the plot's ground lies in one of `codes` (alpha-2): by its registered country, or, when
 * it has none, by the country boundary holding its centroid.
 */
function groundIn(plot: ContextPlot, codes: readonly string[]): boolean {
  if (plot.country !== null) return codes.includes(plot.country.toUpperCase());
  return codes.some((code) => isIn(plot.centroid, code) === true);
}

function historyProvenance(p: Provenance): HistoryProvenance {
  return { source: 'JRC Tropical Moist Forest (TMF)', version: TMF_VERSION, licence: p.licence, citation: p.citation, acknowledgement: p.attribution };
}

/**
 * Which TMF windows the block needs over the plot, from every tile its box touches; outside the
 * tiles nothing is asked for. The host answers whole files only, so the reader reads its
 * whole-tile copies.
 */
export async function planHistory(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: HistoryPrepared }> {
  const requiredGround = groundIn(plot, RECORD_REQUIRED_IN);
  const tile = tmfTile(...plot.centroid).id;
  const notRead = (n: HistoryNotRead): { requests: RasterRequest[]; prepared: HistoryPrepared } => ({
    requests: [],
    prepared: { provenance: historyProvenance(tmfProvenance('TransitionMap_MainClasses', tile, archive.where)), requiredGround, state: 'not_read', notRead: n },
  });
  // Two pixels of margin so every pixel centred inside the boundary is in the window.
  const box = footprintBox(plot.footprint, 60);
  try {
    const tmf = await archive.tmf.windows(box, HISTORY_DATASETS, signal);
    if (!tmf.available) {
      if (tmf.reason === 'outside_coverage') return notRead({ kind: 'outside_coverage', tile: null, why: 'the record covers 30°S to 30°N' });
      // The record's tiles cover Indonesia and Malaysia whole: a tile missing there is a failed read, not ground outside the record (rule 3).
      return notRead(requiredGround
        ? { kind: 'unreadable', tile: tmf.tile, why: `the archive answered that tile ${tmf.tile}, which the record publishes, does not exist` }
        : { kind: 'outside_coverage', tile: tmf.tile, why: `no tile ${tmf.tile} is published` });
    }
    const requests = HISTORY_DATASETS.map((d) => tmf.layers[d].request);
    const keys = Object.fromEntries(HISTORY_DATASETS.map((d, k) => [d, requests[k].key])) as Record<HistoryDataset, string>;
    // The block names one tile: the tiles read, joined, where the box spans several.
    const read = tilesRead(tmf).join(', ');
    return { requests, prepared: { provenance: historyProvenance(tmf.layers.TransitionMap_MainClasses.provenance), requiredGround, state: 'read', tile: read, keys, ...partlyReadOf(requests) } };
  } catch (err) {
    return notRead({ kind: 'unreadable', tile, why: unlessAbortedOrTransient(err, signal) });
  }
}
