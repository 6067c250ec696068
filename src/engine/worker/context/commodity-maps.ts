// The commodity_maps block's compute half: oil palm extent and planting years, and rubber, over the
// plot's pixels.
import { classShares } from '../../kernels/class-shares.ts';
import type { PixelMask } from '../../kernels/rasterise-mask.ts';
import { yearStats } from '../../kernels/year-stats.ts';
import {
  type CommodityMapsPrepared,
  type CommodityMapsResult,
  CUTOFF_YEAR,
  type OilPalmBlock,
  oilPalmNotRead,
  PLANTED_BY_2020_ABOVE,
  type RubberBlock,
  rubberNotRead,
} from '../../context/commodity-maps.ts';
import type { ContextPlot } from '../../context/plot.ts';
import { round } from '../../context/wording.ts';
import { OIL_PALM_EXTENT, oilPalmPlantingYear, RUBBER_CLASSES } from '../../sources/products/commodity-maps/codes.ts';
import { maskFor, type WorkerRaster } from '../raster-window.ts';
import { rasterAt, readPixels, uint16, uint8 } from './rasters.ts';
import { maskCoverage, tooLittleRead } from '../coverage.ts';
import { covers } from '../../kernels/coverage.ts';

const tooLittle = (coverage: number) => ({ kind: 'unreadable' as const, why: tooLittleRead(coverage) });

export interface OilPalmInput {
  /** Plot pixels on the 10 m extent window (classes 0 other, 1 industrial, 2 smallholder). */
  extentMask: PixelMask;
  extent: Uint8Array;
  /** Plot pixels on the 30 m planting-year window (days since 1970, 0 = no palm). */
  yearMask: PixelMask;
  plantingDays: Uint16Array;
  /** Share of the plot both layers were read over (the lesser). */
  coverage: number;
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
    return { block: oilPalmNotRead(input.citation, { kind: 'unreadable', why: 'no pixel of the map has its centre inside the boundary' }, input.coverage), by2020: null };
  }
  if (!covers(input.coverage)) return { block: oilPalmNotRead(input.citation, tooLittle(input.coverage), input.coverage), by2020: null };
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
      coverage: input.coverage,
    },
    by2020,
  };
}

export interface RubberInput {
  mask: PixelMask;
  /** 1 forest, 2 rubber, anything else neither. */
  classes: Uint8Array;
  /** Share of the plot the map was read over. */
  coverage: number;
  citation: string;
}

export function readRubber(input: RubberInput): { block: RubberBlock; share: number | null } {
  const r = classShares({ mask: input.mask, classes: input.classes, names: { rubber: [RUBBER_CLASSES.RUBBER] }, noClass: [] });
  if (r.classified === 0) {
    return { block: rubberNotRead(input.citation, { kind: 'unreadable', why: 'no pixel of the map has its centre inside the boundary' }, input.coverage), share: null };
  }
  if (!covers(input.coverage)) return { block: rubberNotRead(input.citation, tooLittle(input.coverage), input.coverage), share: null };
  const share = r.shares.rubber ?? 0;
  return { block: { available: true, outside_coverage: false, rubber_2020: round(share, 4), citation: input.citation, coverage: input.coverage }, share };
}

export function computeCommodityMaps(p: CommodityMapsPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot): CommodityMapsResult {
  let palm: { block: OilPalmBlock; by2020: number | null };
  if (p.oilPalm.state === 'read') {
    const extent = rasterAt(rasters, p.oilPalm.extent);
    const years = rasterAt(rasters, p.oilPalm.years);
    // A cell missing beside one read reads as 0 ("other", "no palm"): only the pixels read are counted.
    const extentMask = readPixels(maskFor(extent, plot.footprint), p.oilPalm.extent, p.oilPalm.partlyRead);
    const yearMask = readPixels(maskFor(years, plot.footprint), p.oilPalm.years, p.oilPalm.partlyRead);
    palm = readOilPalm({
      extentMask,
      extent: uint8(extent, 'oil palm extent'),
      yearMask,
      plantingDays: uint16(years, 'oil palm planting year'),
      coverage: Math.min(maskCoverage(extent, extentMask, plot.footprint), maskCoverage(years, yearMask, plot.footprint)),
      citation: p.oilPalm.citation,
    });
  } else palm = { block: oilPalmNotRead(p.oilPalm.citation, p.oilPalm.notRead), by2020: null };
  let rubber: { block: RubberBlock; share: number | null };
  if (p.rubber.state === 'read') {
    const classes = rasterAt(rasters, p.rubber.classes);
    const mask = readPixels(maskFor(classes, plot.footprint), p.rubber.classes, p.rubber.partlyRead);
    rubber = readRubber({ mask, classes: uint8(classes, 'rubber map'), coverage: maskCoverage(classes, mask, plot.footprint), citation: p.rubber.citation });
  } else rubber = { block: rubberNotRead(p.rubber.citation, p.rubber.notRead), share: null };
  return { commodity_maps: { oil_palm: palm.block, rubber: rubber.block }, palmBy2020: palm.by2020, rubber: rubber.share };
}
