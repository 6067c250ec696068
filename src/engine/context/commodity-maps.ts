// The `commodity_maps` block (spec 2.8.6): the oil palm map (planted by 2020, median planting
// year, industrial and smallholder extent in 2021) and the Southeast Asian rubber map. Context
// only: it changes no verdict.
import { classShares } from '../kernels/class-shares.ts';
import type { PixelMask } from '../kernels/rasterise-mask.ts';
import { yearStats } from '../kernels/year-stats.ts';
import { OIL_PALM_EXTENT, oilPalmPlantingYear, RUBBER_CLASSES } from '../sources/products/commodity-maps.ts';
import { round } from './wording.ts';

/**
 * Oil palm planted by 2020 is said of a plot when palm dated 2020 or earlier covers more than a
 * tenth of it: the share above which Whisp's commodity indicator says yes (data-products.md §14).
 */
export const PLANTED_BY_2020_ABOVE = 0.1;
const CUTOFF_YEAR = 2020;

export interface OilPalmBlock {
  available: boolean;
  outside_coverage: boolean;
  planted_by_2020: boolean | null;
  median_planting_year: number | null;
  industrial_2021: number | null;
  smallholder_2021: number | null;
  citation: string;
  note?: string;
}

export interface RubberBlock {
  available: boolean;
  outside_coverage: boolean;
  rubber_2020: number | null;
  citation: string;
  note?: string;
}

export interface CommodityMapsBlock {
  oil_palm: OilPalmBlock;
  rubber: RubberBlock;
}

export type MapNotRead = { kind: 'outside_coverage'; why: string } | { kind: 'unreadable'; why: string };

export function oilPalmNotRead(citation: string, notRead: MapNotRead): OilPalmBlock {
  const outside = notRead.kind === 'outside_coverage';
  return {
    available: outside,
    outside_coverage: outside,
    planted_by_2020: null,
    median_planting_year: null,
    industrial_2021: null,
    smallholder_2021: null,
    citation,
    note: outside
      ? `No cell of the oil palm map covers the plot (${notRead.why}); nothing is read as absent.`
      : `The oil palm map could not be read (${notRead.why}).`,
  };
}

export function rubberNotRead(citation: string, notRead: MapNotRead): RubberBlock {
  const outside = notRead.kind === 'outside_coverage';
  return {
    available: outside,
    outside_coverage: outside,
    rubber_2020: null,
    citation,
    note: outside
      ? `The rubber map covers Southeast Asia only (${notRead.why}).`
      : `The rubber map could not be read (${notRead.why}).`,
  };
}

export interface OilPalmInput {
  /** Plot pixels on the 10 m extent window (classes 0 other, 1 industrial, 2 smallholder). */
  extentMask: PixelMask;
  extent: Uint8Array;
  /** Plot pixels on the 30 m planting-year window (days since 1970, 0 = no palm). */
  yearMask: PixelMask;
  plantingDays: Uint16Array;
  citation: string;
}

export function readOilPalm(input: OilPalmInput): { block: OilPalmBlock; by2020: number | null } {
  const extent = classShares({
    mask: input.extentMask,
    classes: input.extent,
    names: { industrial: [OIL_PALM_EXTENT.INDUSTRIAL], smallholder: [OIL_PALM_EXTENT.SMALLHOLDER] },
    noClass: [],
  });
  // Planting years as calendar years, one pass over the plot's pixels; 0 stays "no palm".
  const years = new Uint16Array(input.plantingDays.length);
  const { spans } = input.yearMask;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) years[i] = oilPalmPlantingYear(input.plantingDays[i]) ?? 0;
  }
  const planted = yearStats({ mask: input.yearMask, years, yearOffset: 0, none: 0, noData: [], cutoffYear: CUTOFF_YEAR });
  if (extent.classified === 0 || planted.valid === 0) {
    return { block: oilPalmNotRead(input.citation, { kind: 'unreadable', why: 'no pixel of the map has its centre inside the boundary' }), by2020: null };
  }
  const by2020 = planted.share_before ?? 0;
  return {
    block: {
      available: true,
      outside_coverage: false,
      planted_by_2020: by2020 > PLANTED_BY_2020_ABOVE,
      median_planting_year: planted.year_median,
      industrial_2021: round(extent.shares.industrial ?? 0, 4),
      smallholder_2021: round(extent.shares.smallholder ?? 0, 4),
      citation: input.citation,
    },
    by2020,
  };
}

export interface RubberInput {
  mask: PixelMask;
  /** 1 forest, 2 rubber, anything else neither. */
  classes: Uint8Array;
  citation: string;
}

export function readRubber(input: RubberInput): { block: RubberBlock; share: number | null } {
  const r = classShares({ mask: input.mask, classes: input.classes, names: { rubber: [RUBBER_CLASSES.RUBBER] }, noClass: [] });
  if (r.classified === 0) {
    return { block: rubberNotRead(input.citation, { kind: 'unreadable', why: 'no pixel of the map has its centre inside the boundary' }), share: null };
  }
  const share = r.shares.rubber ?? 0;
  return { block: { available: true, outside_coverage: false, rubber_2020: round(share, 4), citation: input.citation }, share };
}
