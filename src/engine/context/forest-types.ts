// The `forest_types` block (spec 2.8.6) from the Commission's 2020 forest maps, and the three
// facts they give the decision rules: most of the plot planted forest (`planted_forest_2020`), at
// least half of it forest (`eu_forest_maps_read_forest`), and at most a tenth forest on both maps
// (which lets structure overrule a forest-like shade reading).
import type { PartlyRead } from './partly-read.ts';

/** "Most of the plot": strictly more than half. */
export const PLANTED_WITHHOLDS_ABOVE = 0.5;
/** "At least half of the plot" forest on the 2020 maps withholds. */
export const EU_FOREST_WITHHOLDS_FROM = 0.5;
/** "At most a tenth" forest on both maps lets structure overrule the shade veto. */
export const EU_FOREST_AT_MOST = 0.1;

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
  /**
   * Share of the plot's 10 m pixels both maps were read over (the lesser of the two); null when
   * nothing was read. Ground beyond the maps' files is not read, never "not forest".
   */
  coverage: number | null;
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

/** The maps could not be read, or read over too little of the plot: nothing measured, nothing withheld on their account. */
export function forestTypesNotRead(p: ForestTypesProvenance, why: string, coverage: number | null = null): ForestTypesResult {
  return {
    forest_types: {
      available: false,
      primary: null,
      naturally_regenerating: null,
      planted: null,
      not_forest: null,
      ...p,
      coverage,
      note: `The 2020 forest maps could not be read (${why}); nothing is withheld on their account.`,
    },
    facts: NO_FACTS,
  };
}

export type ForestTypesPrepared = { provenance: ForestTypesProvenance } & (
  | { state: 'read'; gft: string; gfc: string; partlyRead?: PartlyRead }
  | { state: 'not_read'; why: string }
);

