/**
 * The one boundary between the engine and the context blocks (spec 2.8): `planContext` on the
 * main thread beside the instruments' planning, `computeContext` inside the plot task. Until the
 * blocks are read here, every block says it was not read and no fact withholds anything.
 */
import type { Archive } from './archive.ts';
import { calibrationBlock, type CalibrationBlock } from './context/calibration.ts';
import { classifyCountry } from './context/country-classification.ts';
import type { ContextPlot } from './context/plot.ts';
import { type ContextFacts, NO_CONTEXT } from './decide.ts';
import type { Block } from './evidence-object.ts';
import type { WorkerRaster } from './kernels/raster-window.ts';
import type { RasterRequest } from './read-plan.ts';

export type { ContextPlot };

export interface ContextBlocks {
  calibration: CalibrationBlock;
  risk: Block;
  settlement: Block;
  history: Block;
  post_cutoff_loss: Block | null;
  forest_types: Block;
  commodity_maps: Block;
  whisp: Block;
  concession?: Block;
}

export interface ContextResult {
  blocks: ContextBlocks;
  facts: ContextFacts;
}

/** What the blocks need read for one plot: raster windows, and anything else already in hand (structured-clone-able). */
export interface ContextPlan {
  requests: RasterRequest[];
  prepared: unknown;
}

export async function planContext(_plot: ContextPlot, _archive: Archive, _signal?: AbortSignal): Promise<ContextPlan> {
  return { requests: [], prepared: null };
}

const NOT_READ = 'Not read by this version of the service.';

export function computeContext(_prepared: unknown, _rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot): ContextResult {
  return {
    blocks: {
      calibration: calibrationBlock({ producerCountry: plot.producer_country, plotCountry: plot.country, centroid: plot.centroid }),
      risk: {
        note: 'Context for the risk assessment of Article 10; it changes no verdict, reason or finding.',
        article: 'Article 10 of Regulation (EU) 2023/1115',
        protected_area: { available: false, note: NOT_READ },
        country: classifyCountry(plot.producer_country),
        neighbourhood: { available: false, note: NOT_READ },
      },
      settlement: { available: false, note: NOT_READ },
      history: { checked: false, available: false, note: NOT_READ, note_on_read: NOT_READ },
      post_cutoff_loss: null,
      forest_types: { available: false, note: NOT_READ },
      commodity_maps: { oil_palm: { available: false, note: NOT_READ }, rubber: { available: false, note: NOT_READ } },
      whisp: { available: false },
    },
    facts: NO_CONTEXT,
  };
}
