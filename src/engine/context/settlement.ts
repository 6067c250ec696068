// The `settlement` block (spec 2.8.3): buildings from Open Buildings 2.5D Temporal in 2016, 2020
// and 2023, inside the plot and in a 100 m ring around it, reported separately and never added.
// Supporting evidence only: it changes no verdict, reason or finding.

export const SETTLEMENT_YEARS = [2016, 2020, 2023] as const;
export type SettlementYear = (typeof SETTLEMENT_YEARS)[number];
export const CUTOFF_YEAR = 2020;
/** A cell is built up when its presence (an uncalibrated confidence, 0–1) reaches this. */
export const PRESENCE_THRESHOLD = 0.4;
/** Built-up area from which buildings are said to be present. */
export const MIN_BUILDING_M2 = 32.0;
export const BUFFER_M = 100.0;
/** The rasters are 0.5 m; they are read in cells of 2 m, the product's effective resolution being 4 m. */
export const PITCH_M = 2.0;

export interface SettlementProvenance {
  source: string;
  version: string;
  licence: string;
  attribution: string;
  citation: string;
}

export interface SettlementSide {
  /** Cells of 2 m whose centre lies in the side (inside the plot, or in the ring). */
  pixels: number | null;
  /** Of those, cells holding data. */
  valid_pixels: number | null;
  read: boolean;
  /** Share of the cells read that are built up. */
  presence_share: number | null;
  building_m2: number | null;
  present: boolean | null;
  buildings_estimate: number | null;
  max_height_m: number | null;
}

export interface SettlementYearBlock {
  available: boolean;
  coverage: boolean;
  inside: SettlementSide;
  buffer: SettlementSide;
  tiles: string[];
  epsg: number | null;
  note?: string;
}

export interface SettlementBlock {
  note: string;
  source: string;
  version: string;
  licence: string;
  attribution: string;
  citation: string;
  threshold_source: string;
  presence_threshold: number;
  min_building_m2: number;
  buffer_m: number;
  pitch_m: number;
  cutoff_year: number;
  years_read: number[];
  available: boolean;
  present_inside_at_cutoff: boolean | null;
  present_in_buffer_at_cutoff: boolean | null;
  years: Record<string, SettlementYearBlock>;
  reading: string;
}

export const UNREAD_SIDE: SettlementSide = {
  pixels: null,
  valid_pixels: null,
  read: false,
  presence_share: null,
  building_m2: null,
  present: null,
  buildings_estimate: null,
  max_height_m: null,
};

/** A year whose archive did not answer (nothing measured) or that publishes no tile over the ground. */
export function settlementYearNotRead(kind: 'unavailable' | 'no_coverage', why: string): SettlementYearBlock {
  return {
    available: kind === 'no_coverage',
    coverage: false,
    inside: { ...UNREAD_SIDE },
    buffer: { ...UNREAD_SIDE },
    tiles: [],
    epsg: null,
    note:
      kind === 'no_coverage'
        ? `No tile of this year is published over the ground (${why}).`
        : `This year could not be read (${why}); nothing was measured, and the next plot asks again.`,
  };
}

/** A year read: its window's key, the tiles it came from, and whether the window holds building cells of PITCH_M (its files' tiles gathered once, kernels/building-cells.ts) or pixels. */
export type SettlementYearPlan = { state: 'read'; key: string; tiles: string[]; cells: boolean } | { state: 'no_coverage' | 'unavailable'; why: string };

export interface SettlementPrepared {
  provenance: SettlementProvenance;
  years: Record<SettlementYear, SettlementYearPlan>;
}

