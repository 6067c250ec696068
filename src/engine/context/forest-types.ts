// The `forest_types` block (spec 2.8.6) from the Commission's 2020 forest maps, and the three
// facts they give the decision rules: most of the plot planted forest (`planted_forest_2020`), at
// least half of it forest (`eu_forest_maps_read_forest`), and at most a tenth forest on both maps
// (which lets structure overrule a forest-like shade reading).
import { classShares } from '../kernels/class-shares.ts';
import type { PixelMask } from '../kernels/rasterise-mask.ts';
import { EU_FOREST_MAPS_ASSUMED, GFC2020, GFT2020 } from '../sources/products/eu-forest-maps.ts';
import { round } from './wording.ts';

/** "Most of the plot": strictly more than half. */
export const PLANTED_WITHHOLDS_ABOVE = 0.5;
/** "At least half of the plot" forest on the 2020 maps withholds. */
export const EU_FOREST_WITHHOLDS_FROM = 0.5;
/** "At most a tenth" forest on both maps lets structure overrule the shade veto. */
export const EU_FOREST_AT_MOST = 0.1;

// 0 is "not forest", a value, never missing (EU_FOREST_MAPS_ASSUMED).
const GFT_NAMES = {
  primary: [GFT2020.PRIMARY],
  naturally_regenerating: [GFT2020.NATURALLY_REGENERATING],
  planted: [GFT2020.PLANTED],
  not_forest: [EU_FOREST_MAPS_ASSUMED.notForest],
} as const;

export interface ForestTypesProvenance {
  source: string;
  licence: string;
  citation: string;
}

export interface ForestTypesBlock {
  available: boolean;
  primary: number | null;
  naturally_regenerating: number | null;
  planted: number | null;
  not_forest: number | null;
  source: string;
  licence: string;
  citation: string;
  note?: string;
}

export interface ForestTypesFacts {
  planted_forest_2020: boolean;
  eu_forest_maps_read_forest: boolean;
  eu_maps_at_most_a_tenth_forest: boolean;
}

export interface ForestTypesResult {
  forest_types: ForestTypesBlock;
  facts: ForestTypesFacts;
}

const NO_FACTS: ForestTypesFacts = { planted_forest_2020: false, eu_forest_maps_read_forest: false, eu_maps_at_most_a_tenth_forest: false };

/** The maps could not be read: nothing measured, nothing withheld on their account. */
export function forestTypesNotRead(p: ForestTypesProvenance, why: string): ForestTypesResult {
  return {
    forest_types: {
      available: false,
      primary: null,
      naturally_regenerating: null,
      planted: null,
      not_forest: null,
      ...p,
      note: `The 2020 forest maps could not be read (${why}); nothing is withheld on their account.`,
    },
    facts: NO_FACTS,
  };
}

export interface ForestTypesInput {
  /** Plot pixels on the GFT2020 window's grid. */
  gftMask: PixelMask;
  gft: Uint8Array;
  /** Plot pixels on the GFC2020 window's grid. */
  gfcMask: PixelMask;
  gfc: Uint8Array;
  provenance: ForestTypesProvenance;
}

export function readForestTypes(input: ForestTypesInput): ForestTypesResult {
  const types = classShares({ mask: input.gftMask, classes: input.gft, names: GFT_NAMES, noClass: [] });
  const cover = classShares({ mask: input.gfcMask, classes: input.gfc, names: { forest: [GFC2020.FOREST] }, noClass: [] });
  if (types.classified === 0 || cover.classified === 0) {
    return forestTypesNotRead(input.provenance, 'no 10 m pixel has its centre inside the boundary');
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
    },
    facts: {
      planted_forest_2020: c.planted / types.classified > PLANTED_WITHHOLDS_ABOVE,
      eu_forest_maps_read_forest: Math.max(gftForest, gfcForest) >= EU_FOREST_WITHHOLDS_FROM,
      eu_maps_at_most_a_tenth_forest: gftForest <= EU_FOREST_AT_MOST && gfcForest <= EU_FOREST_AT_MOST,
    },
  };
}
