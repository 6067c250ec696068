// The history block's planning half: which TMF windows the plot needs, or why none are read.
import { isIn } from '@rapideditor/country-coder';
import type { Archive } from '../../archive.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { HISTORY_DATASETS, type HistoryDataset, type HistoryNotRead, type HistoryPrepared, type HistoryProvenance, RECORD_REQUIRED_IN } from '../../context/history.ts';
import type { Cog } from '../../sources/cog.ts';
import { isSourceError } from '../../sources/errors.ts';
import type { ArchiveLocation } from '../../sources/products/provenance.ts';
import { type TmfDataset, tmfCovers, tmfProvenance, tmfTile, TMF_VERSION } from '../../sources/products/tmf/codes.ts';
import { type RasterRequest, requestForBox } from '../../sources/raster-request.ts';
import { unlessAborted } from './not-read.ts';

/**
 * Whether the plot's ground lies in one of `codes` (alpha-2): by its registered country, or, when
 * it has none, by the country boundary holding its centroid.
 */
function groundIn(plot: ContextPlot, codes: readonly string[]): boolean {
  if (plot.country !== null) return codes.includes(plot.country.toUpperCase());
  return codes.some((code) => isIn(plot.centroid, code) === true);
}

function historyProvenance(where: ArchiveLocation, tile: string): HistoryProvenance {
  const p = tmfProvenance('TransitionMap_MainClasses', tile, where);
  return { source: 'JRC Tropical Moist Forest (TMF)', version: TMF_VERSION, licence: p.licence, citation: p.citation, acknowledgement: p.attribution };
}

/**
 * The one place the block opens a TMF layer. The real host answers whole files only; the archive's
 * range reads serve the demo archive and archive servers.
 */
// The TMF host ignores Range, so tiles are read from the adapter's whole-tile copy, never by byte ranges.
function openTmf(archive: Archive, dataset: TmfDataset, tile: { lat: string; lon: string; id: string }, signal?: AbortSignal): Promise<Cog> {
  return archive.tmf.open(dataset, tile, signal);
}

/** Which TMF windows the block needs over the plot; outside the tiles nothing is asked for. */
export async function planHistory(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: HistoryPrepared }> {
  const [lon, lat] = plot.centroid;
  const tile = tmfTile(lon, lat);
  const base = { provenance: historyProvenance(archive.where, tile.id), requiredGround: groundIn(plot, RECORD_REQUIRED_IN) };
  if (!tmfCovers(lat)) {
    return { requests: [], prepared: { ...base, state: 'not_read', notRead: { kind: 'outside_coverage', tile: null, why: 'the record covers 30°S to 30°N' } } };
  }
  // Two pixels of margin so every pixel centred inside the boundary is in the window.
  const box = footprintBox(plot.footprint, 60);
  try {
    const requests = await Promise.all(HISTORY_DATASETS.map(async (d) => requestForBox(await openTmf(archive, d, tile, signal), box)));
    const keys = Object.fromEntries(HISTORY_DATASETS.map((d, k) => [d, requests[k].key])) as Record<HistoryDataset, string>;
    return { requests, prepared: { ...base, state: 'read', tile: tile.id, keys } };
  } catch (err) {
    const why = unlessAborted(err, signal);
    const notRead: HistoryNotRead = isSourceError(err, 'not_found')
      ? { kind: 'outside_coverage', tile: tile.id, why: `no tile ${tile.id} is published` }
      : { kind: 'unreadable', tile: tile.id, why };
    return { requests: [], prepared: { ...base, state: 'not_read', notRead } };
  }
}

