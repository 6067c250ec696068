// The context blocks' plan for one plot (main thread, I/O only): every block's windows and vector
// answers, read together, and the calibration block, which is a table lookup.
import type { Archive } from '../../archive.ts';
import { CALIBRATION_DEFAULTS, type CalibrationBlock, calibrationBlockFrom, type CalibrationTable } from '../../context/calibration.ts';
import type { ContextPrepared } from '../../context/index.ts';
import type { ContextPlot } from '../../context/plot.ts';
import type { RasterRequest } from '../../sources/raster-request.ts';
import { planCommodityMaps } from './commodity-maps.ts';
import { planConcession } from './concession.ts';
import { planForestTypes } from './forest-types.ts';
import { planHistory } from './history.ts';
import { planRisk } from './risk.ts';
import { planSettlement } from './settlement.ts';

export interface ContextOptions {
  /** The perennial-crop rating (config WHISP); off gives `whisp: {available: false}`. */
  whisp?: boolean;
  /** The day of the read (YYYY-MM-DD), stored in the concession block; today by default. */
  readOn?: string;
  /** The calibration regions with the figures of the deployment's campaigns; the committed regions by default. */
  calibration?: CalibrationTable;
}

export interface ContextPlan {
  requests: RasterRequest[];
  /** What the plot task computes the other blocks from. */
  prepared: ContextPrepared;
  calibration: CalibrationBlock;
}

/**
 * Every block's windows and vector answers for one plot, read together. A source that is
 * permanently absent or refused is recorded in the plan as not read (nothing remembered); an abort
 * throws, and so does a transient failure of any source but the concession layer (not-read.ts).
 */
export async function planContext(plot: ContextPlot, archive: Archive, signal?: AbortSignal, options: ContextOptions = {}): Promise<ContextPlan> {
  const readOn = options.readOn ?? new Date().toISOString().slice(0, 10);
  const [history, forestTypes, commodityMaps, concession, risk, settlement] = await Promise.all([
    planHistory(plot, archive, signal),
    planForestTypes(plot, archive, signal),
    planCommodityMaps(plot, archive, signal),
    planConcession(plot, archive, readOn, signal),
    planRisk(plot, archive, signal),
    planSettlement(plot, archive, signal),
  ]);
  return {
    requests: [...history.requests, ...forestTypes.requests, ...commodityMaps.requests, ...risk.requests, ...settlement.requests],
    prepared: {
      whisp: options.whisp ?? false,
      history: history.prepared,
      forestTypes: forestTypes.prepared,
      commodityMaps: commodityMaps.prepared,
      concession,
      risk: risk.prepared,
      settlement: settlement.prepared,
    },
    // The producer's country chooses the region, else the plot's own country; without either, the centroid (spec 2.8.1).
    calibration: calibrationBlockFrom(options.calibration ?? CALIBRATION_DEFAULTS, { producerCountry: plot.producer_country, plotCountry: plot.country, centroid: plot.centroid }),
  };
}
