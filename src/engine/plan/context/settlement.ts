// The settlement block's planning half: for each year, the Open Buildings tiles over the plot's
// ring, as the reader finds them through the S2 cell's manifests.
import type { Archive } from '../../archive.ts';
import { type ContextPlot, footprintBox } from '../../context/plot.ts';
import { BUFFER_M, CUTOFF_YEAR, PITCH_M, type SettlementPrepared, type SettlementProvenance, SETTLEMENT_YEARS, type SettlementYear, type SettlementYearPlan } from '../../context/settlement.ts';
import { OPEN_BUILDINGS, openBuildingsProvenance } from '../../sources/products/open-buildings/codes.ts';
import type { Bbox } from '../../sources/reproject.ts';
import { type RasterRequest, tilesRead } from '../../sources/raster-request.ts';
import { unlessAbortedOrTransient } from './not-read.ts';

type YearOutcome = { plan: SettlementYearPlan; request: RasterRequest | null };

/** A year's window over the box; a year that fails is not remembered, so the next plot asks again. */
async function planYear(archive: Archive, year: number, box: Bbox, signal?: AbortSignal): Promise<YearOutcome> {
  try {
    const planned = await archive.openBuildings.windows(box, year, signal, PITCH_M);
    if (!planned.coverage) return { plan: { state: 'no_coverage', why: 'no manifest of the year lists a tile there' }, request: null };
    const { request } = planned.layers.bands;
    return { plan: { state: 'read', key: request.key, tiles: tilesRead(planned), cells: planned.cells }, request };
  } catch (err) {
    return { plan: { state: 'unavailable', why: unlessAbortedOrTransient(err, signal) }, request: null };
  }
}

export async function planSettlement(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: SettlementPrepared }> {
  const p = openBuildingsProvenance(CUTOFF_YEAR, '', archive.where);
  const provenance: SettlementProvenance = { source: p.dataset, version: OPEN_BUILDINGS.version, licence: p.licence, attribution: p.attribution, citation: p.citation };
  // The ring's outer edge and a few cells beyond.
  const box = footprintBox(plot.footprint, BUFFER_M + 10);
  const outcomes = await Promise.all(SETTLEMENT_YEARS.map((year) => planYear(archive, year, box, signal)));
  const years = Object.fromEntries(SETTLEMENT_YEARS.map((y, k) => [y, outcomes[k].plan])) as Record<SettlementYear, SettlementYearPlan>;
  const requests = outcomes.flatMap((o) => (o.request === null ? [] : [o.request]));
  return { requests, prepared: { provenance, years } };
}
