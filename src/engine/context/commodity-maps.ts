// The `commodity_maps` block (spec 2.8.6): the oil palm map (planted by 2020, median planting
// year, industrial and smallholder extent in 2021) and the Southeast Asian rubber map. Context
// only: it changes no verdict.
import type { PartlyRead } from './partly-read.ts';

/**
 * Oil palm planted by 2020 is said of a plot when palm dated 2020 or earlier covers more than a
 * tenth of it: the share above which Whisp's commodity indicator says yes (data-products.md §14).
 */
export const PLANTED_BY_2020_ABOVE = 0.1;
export const CUTOFF_YEAR = 2020;

export interface OilPalmBlock {
  available: boolean;
  outside_coverage: boolean;
  planted_by_2020: boolean | null;
  median_planting_year: number | null;
  industrial_2021: number | null;
  smallholder_2021: number | null;
  citation: string;
  /** Share of the plot's pixels both layers were read over (the lesser); null when nothing was read. */
  coverage: number | null;
  note?: string;
}

export interface RubberBlock {
  available: boolean;
  outside_coverage: boolean;
  rubber_2020: number | null;
  citation: string;
  /** Share of the plot's pixels the map was read over; null when nothing was read. */
  coverage: number | null;
  note?: string;
}

export interface CommodityMapsBlock {
  oil_palm: OilPalmBlock;
  rubber: RubberBlock;
}

export type MapNotRead = { kind: 'outside_coverage'; why: string } | { kind: 'unreadable'; why: string };

/** A map not read, or read over too little of the plot (`coverage` then says how much). */
export function oilPalmNotRead(citation: string, notRead: MapNotRead, coverage: number | null = null): OilPalmBlock {
  const outside = notRead.kind === 'outside_coverage';
  return {
    available: outside,
    outside_coverage: outside,
    planted_by_2020: null,
    median_planting_year: null,
    industrial_2021: null,
    smallholder_2021: null,
    citation,
    coverage,
    note: outside
      ? `No cell of the oil palm map covers the plot (${notRead.why}); nothing is read as absent.`
      : `The oil palm map could not be read (${notRead.why}).`,
  };
}

export function rubberNotRead(citation: string, notRead: MapNotRead, coverage: number | null = null): RubberBlock {
  const outside = notRead.kind === 'outside_coverage';
  return {
    available: outside,
    outside_coverage: outside,
    rubber_2020: null,
    citation,
    coverage,
    note: outside
      ? `The rubber map covers Southeast Asia only (${notRead.why}).`
      : `The rubber map could not be read (${notRead.why}).`,
  };
}

export interface CommodityMapsPrepared {
  oilPalm: { citation: string } & ({ state: 'read'; extent: string; years: string; partlyRead?: PartlyRead } | { state: 'not_read'; notRead: MapNotRead });
  rubber: { citation: string } & ({ state: 'read'; classes: string; partlyRead?: PartlyRead } | { state: 'not_read'; notRead: MapNotRead });
}

export interface CommodityMapsResult {
  commodity_maps: CommodityMapsBlock;
  /** Shares the perennial-crop rating reuses: palm dated 2020 or earlier, rubber; null where not read. */
  palmBy2020: number | null;
  rubber: number | null;
}

