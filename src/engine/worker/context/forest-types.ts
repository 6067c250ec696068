// The forest_types block's compute half: class shares of the two 2020 maps over the plot, and the
// three facts their counts give.
import { classShares } from '../../kernels/class-shares.ts';
import type { PixelMask } from '../../kernels/rasterise-mask.ts';
import {
  EU_FOREST_AT_MOST,
  EU_FOREST_WITHHOLDS_FROM,
  type ForestTypesPrepared,
  type ForestTypesProvenance,
  type ForestTypesResult,
  forestTypesNotRead,
  PLANTED_WITHHOLDS_ABOVE,
} from '../../context/forest-types.ts';
import type { ContextPlot } from '../../context/plot.ts';
import { round } from '../../context/wording.ts';
import { EU_FOREST_MAPS_ASSUMED, GFC2020, GFT2020 } from '../../sources/products/eu-forest-maps/codes.ts';
import { maskFor, type WorkerRaster } from '../raster-window.ts';
import { maskCoverage, tooLittleRead } from '../coverage.ts';
import { covers } from '../../kernels/coverage.ts';
import { rasterAt, readPixels, uint8 } from './rasters.ts';

// 0 is "not forest", a value, never missing (EU_FOREST_MAPS_ASSUMED).
const GFT_NAMES = {
  primary: [GFT2020.PRIMARY],
  naturally_regenerating: [GFT2020.NATURALLY_REGENERATING],
  planted: [GFT2020.PLANTED],
  not_forest: [EU_FOREST_MAPS_ASSUMED.notForest],
} as const;

export interface ForestTypesInput {
  /** Plot pixels on the GFT2020 window's grid. */
  gftMask: PixelMask;
  gft: Uint8Array;
  /** Plot pixels on the GFC2020 window's grid. */
  gfcMask: PixelMask;
  gfc: Uint8Array;
  /** Share of the plot both maps were read over (the lesser); 1 when every plot pixel was read. */
  coverage: number;
  provenance: ForestTypesProvenance;
}

export function readForestTypes(input: ForestTypesInput): ForestTypesResult {
  const types = classShares({ mask: input.gftMask, classes: input.gft, names: GFT_NAMES, noClass: [] });
  const cover = classShares({ mask: input.gfcMask, classes: input.gfc, names: { forest: [GFC2020.FOREST] }, noClass: [] });
  if (types.classified === 0 || cover.classified === 0) {
    return forestTypesNotRead(input.provenance, 'no 10 m pixel has its centre inside the boundary', input.coverage);
  }
  // Shares of a part of the plot say nothing of the rest: no share, and no fact, from under 95% of it.
  if (!covers(input.coverage)) {
    return forestTypesNotRead(input.provenance, tooLittleRead(input.coverage), input.coverage);
  }
  const s = types.shares;
  const c = types.counts;
  // Rules on counts, so a tenth is a tenth and not a sum of rounded shares.
  const gftForest = (c.primary + c.naturally_regenerating + c.planted) / types.classified;
  const gfcForest = cover.counts.forest / cover.classified;
  return {
    forest_types: {
      available: true,
      primary: round(s.primary ?? 0, 4),
      naturally_regenerating: round(s.naturally_regenerating ?? 0, 4),
      planted: round(s.planted ?? 0, 4),
      not_forest: round(s.not_forest ?? 0, 4),
      ...input.provenance,
      coverage: input.coverage,
    },
    facts: {
      planted_forest_2020: c.planted / types.classified > PLANTED_WITHHOLDS_ABOVE,
      eu_forest_maps_read_forest: Math.max(gftForest, gfcForest) >= EU_FOREST_WITHHOLDS_FROM,
      eu_maps_at_most_a_tenth_forest: gftForest <= EU_FOREST_AT_MOST && gfcForest <= EU_FOREST_AT_MOST,
    },
  };
}

/** The plot on both maps' grids, or null when they were not read. */
export function forestTypesRasters(p: ForestTypesPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot) {
  if (p.state !== 'read') return null;
  const gft = rasterAt(rasters, p.gft);
  const gfc = rasterAt(rasters, p.gfc);
  // A tile missing beside one read reads as 0, "not forest": only the pixels read are counted, and
  // the plot's pixels beyond every file count as not read.
  const gftMask = readPixels(maskFor(gft, plot.footprint), p.gft, p.partlyRead);
  const gfcMask = readPixels(maskFor(gfc, plot.footprint), p.gfc, p.partlyRead);
  return {
    gftMask,
    gft: uint8(gft, 'GFT2020'),
    gfcMask,
    gfc: uint8(gfc, 'GFC2020'),
    coverage: Math.min(maskCoverage(gft, gftMask, plot.footprint), maskCoverage(gfc, gfcMask, plot.footprint)),
  };
}

export function computeForestTypes(p: ForestTypesPrepared, read: ReturnType<typeof forestTypesRasters>): ForestTypesResult {
  if (p.state !== 'read' || read === null) return forestTypesNotRead(p.provenance, p.state === 'read' ? 'the windows were not read' : p.why);
  return readForestTypes({ ...read, provenance: p.provenance });
}
