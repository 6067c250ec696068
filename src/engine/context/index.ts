// The context blocks of one plot (spec 2.7, 2.8): planned on the main thread (which windows each
// block needs, the vector layers fetched, what could not be read and why), computed in the plot
// task on a worker (pure: masks, class shares, year statistics, polygon tests). The facts they
// give the decision rules come back beside the blocks; risk and settlement give none, so they can
// never change a verdict.
import type { Archive } from '../archive.ts';
import type { ContextFacts } from '../decide.ts';
import type { WorkerRaster } from '../worker/raster-window.ts';
import type { RasterRequest } from '../sources/raster-request.ts';
import { type CalibrationBlock, calibrationBlock } from './calibration.ts';
import { type CommodityMapsBlock, type CommodityMapsPrepared, computeCommodityMaps, planCommodityMaps } from './commodity-maps.ts';
import { type ConcessionBlock, type ConcessionPrepared, computeConcession, planConcession } from './concession.ts';
import { computeForestTypes, type ForestTypesBlock, type ForestTypesPrepared, forestTypesRasters, planForestTypes } from './forest-types.ts';
import { computeHistory, type HistoryBlock, type HistoryPrepared, historyLayers, planHistory, type PostCutoffLoss } from './history.ts';
import type { ContextPlot } from './plot.ts';
import { computeRisk, hansenRasters, planRisk, type RiskBlock, type RiskPrepared } from './risk.ts';
import { computeSettlement, planSettlement, type SettlementBlock, type SettlementPrepared } from './settlement.ts';
import { readWhisp, type WhispBlock, whispFromGfc, whispFromHansen, whispFromTmf, whispSwitchedOff } from './whisp.ts';

export type { ContextPlot } from './plot.ts';

export interface ContextOptions {
  /** The perennial-crop rating (config WHISP); off gives `whisp: {available: false}`. */
  whisp?: boolean;
  /** The day of the read (YYYY-MM-DD), stored in the concession block; today by default. */
  readOn?: string;
}

/** Everything the worker needs besides the rasters: structured-clone-able, no pixel loops behind it. */
export interface ContextPrepared {
  whisp: boolean;
  history: HistoryPrepared;
  forestTypes: ForestTypesPrepared;
  commodityMaps: CommodityMapsPrepared;
  concession: ConcessionPrepared;
  risk: RiskPrepared;
  settlement: SettlementPrepared;
}

export interface ContextPlan {
  requests: RasterRequest[];
  prepared: ContextPrepared;
}

export interface ContextBlocks {
  calibration: CalibrationBlock;
  risk: RiskBlock;
  settlement: SettlementBlock;
  history: HistoryBlock;
  post_cutoff_loss: PostCutoffLoss | null;
  forest_types: ForestTypesBlock;
  commodity_maps: CommodityMapsBlock;
  whisp: WhispBlock;
  /** Present only for a centroid in Indonesia's extent (spec 2.8.7). */
  concession?: ConcessionBlock;
}

export interface ContextResult {
  blocks: ContextBlocks;
  facts: ContextFacts;
}

/**
 * Main thread, I/O only: every block's windows and vector answers for one plot, read together. A
 * source that fails is recorded in the plan as not read (nothing remembered); only an abort throws.
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
  };
}

/** Worker side, pure: the blocks and the decision facts from the plan and the plot's rasters. */
export function computeContext(prepared: ContextPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot): ContextResult {
  const tmf = historyLayers(prepared.history, rasters, plot);
  const history = computeHistory(prepared.history, tmf, plot);
  const maps = forestTypesRasters(prepared.forestTypes, rasters, plot);
  const forestTypes = computeForestTypes(prepared.forestTypes, maps);
  const commodity = computeCommodityMaps(prepared.commodityMaps, rasters, plot);
  const concession = computeConcession(prepared.concession, plot);
  const hansen = hansenRasters(prepared.risk, rasters, plot);
  const whisp = prepared.whisp
    ? readWhisp({
        ...(tmf === null ? {} : whispFromTmf(tmf.mask, tmf.layers)),
        ...(maps === null ? {} : whispFromGfc(maps.gfcMask, maps.gfc)),
        ...(hansen === null ? {} : whispFromHansen(hansen.plot, hansen.treecover2000, hansen.lossyear)),
        ...(commodity.palmBy2020 === null ? {} : { Oil_palm_Descals: commodity.palmBy2020 }),
        ...(commodity.rubber === null ? {} : { Rubber_RBGE: commodity.rubber }),
      })
    : whispSwitchedOff();
  return {
    blocks: {
      // The producer's country alone chooses the region; without it, the centroid (spec 2.8.1).
      calibration: calibrationBlock({ producerCountry: plot.producer_country, centroid: plot.centroid }),
      risk: computeRisk(prepared.risk, hansen, plot),
      settlement: computeSettlement(prepared.settlement, rasters, plot),
      history: history.history,
      post_cutoff_loss: history.post_cutoff_loss,
      forest_types: forestTypes.forest_types,
      commodity_maps: commodity.commodity_maps,
      whisp,
      ...(concession === null ? {} : { concession: concession.concession }),
    },
    facts: {
      ...history.facts,
      ...forestTypes.facts,
      inside_licensed_pulpwood_concession: concession?.facts.inside_licensed_pulpwood_concession ?? false,
      concession_layer_unavailable: concession?.facts.concession_layer_unavailable ?? false,
    },
  };
}
