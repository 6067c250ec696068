// The context blocks computed in the plot task (pure): the blocks and the decision facts from the
// plan and the plot's rasters.
import type { ContextPlot, ContextPrepared, ContextResult } from '../../context/index.ts';
import { whispSwitchedOff } from '../../context/whisp.ts';
import type { WorkerRaster } from '../raster-window.ts';
import { computeCommodityMaps } from './commodity-maps.ts';
import { computeConcession } from './concession.ts';
import { computeForestTypes, forestTypesRasters } from './forest-types.ts';
import { computeHistory, historyLayers } from './history.ts';
import { computeRisk, hansenRasters } from './risk.ts';
import { computeSettlement } from './settlement.ts';
import { readWhisp, whispFromGfc, whispFromHansen, whispFromTmf } from './whisp.ts';

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
        ...(hansen === null ? {} : whispFromHansen(hansen.plotRead, hansen.treecover2000, hansen.lossyear)),
        ...(commodity.palmBy2020 === null ? {} : { Oil_palm_Descals: commodity.palmBy2020 }),
        ...(commodity.rubber === null ? {} : { Rubber_RBGE: commodity.rubber }),
      })
    : whispSwitchedOff();
  return {
    blocks: {
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
