// The context blocks of one plot (spec 2.7, 2.8): planned on the main thread (plan/context: which
// windows each block needs, the vector layers fetched, what could not be read and why), computed in
// the plot task on a worker (worker/context: masks, class shares, year statistics, polygon tests).
// The facts they give the decision rules come back beside the blocks; risk and settlement give
// none, so they can never change a verdict. The calibration block is no pixel work: the plan
// looks it up (plan/context/index.ts).
import type { ContextFacts } from '../decide.ts';
import type { CommodityMapsBlock, CommodityMapsPrepared } from './commodity-maps.ts';
import type { ConcessionBlock, ConcessionPrepared } from './concession.ts';
import type { ForestTypesBlock, ForestTypesPrepared } from './forest-types.ts';
import type { HistoryBlock, HistoryPrepared, PostCutoffLoss } from './history.ts';
import type { RiskBlock, RiskPrepared } from './risk.ts';
import type { SettlementBlock, SettlementPrepared } from './settlement.ts';
import type { WhispBlock } from './whisp.ts';

export type { ContextPlot } from './plot.ts';

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

/** The blocks the plot task computes. */
export interface ContextBlocks {
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
