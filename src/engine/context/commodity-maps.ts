// The `commodity_maps` block (spec 2.8.6): the oil palm map (planted by 2020, median planting
// year, industrial and smallholder extent in 2021) and the Southeast Asian rubber map. Context
// only: it changes no verdict.
import { classShares } from '../kernels/class-shares.ts';
import type { PixelMask } from '../kernels/rasterise-mask.ts';
import { yearStats } from '../kernels/year-stats.ts';
import type { Archive } from '../archive.ts';
import { maskFor, type WorkerRaster } from '../worker/raster-window.ts';
import { type RasterRequest, requestForBox } from '../sources/raster-request.ts';
import { readArchiveJson } from '../sources/products/cog-opener.ts';
import { type GridCellFeature, OIL_PALM_EXTENT, OIL_PALM_GRID_HREF, oilPalmCells, oilPalmHref, oilPalmPlantingYear, oilPalmProvenance, RUBBER_CLASSES, rubberCovers, rubberHref, rubberProvenance, rubberReadable } from '../sources/products/commodity-maps/codes.ts';
import { euForestTile } from '../sources/products/eu-forest-maps/codes.ts';
import type { Bbox } from '../sources/reproject.ts';
import { type ContextPlot, footprintBox } from './plot.ts';
import { rasterAt, uint16, uint8, unlessAborted } from './rasters.ts';
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

// --- planning (main thread) and computing (worker) ----------------------------------------------

export interface CommodityMapsPrepared {
  oilPalm: { citation: string } & ({ state: 'read'; extent: string; years: string } | { state: 'not_read'; notRead: MapNotRead });
  rubber: { citation: string } & ({ state: 'read'; classes: string } | { state: 'not_read'; notRead: MapNotRead });
}

// The oil palm grid is one document per archive: kept once asked for, dropped if the ask failed.
const palmGrids = new WeakMap<Archive, Promise<{ features: GridCellFeature[] }>>();
function palmGrid(archive: Archive, signal?: AbortSignal): Promise<{ features: GridCellFeature[] }> {
  let grid = palmGrids.get(archive);
  if (grid === undefined) {
    grid = readArchiveJson<{ features: GridCellFeature[] }>(OIL_PALM_GRID_HREF, archive, signal);
    palmGrids.set(archive, grid);
    grid.catch(() => palmGrids.delete(archive));
  }
  return grid;
}

async function planOilPalm(archive: Archive, box: Bbox, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared['oilPalm'] }> {
  const citation = oilPalmProvenance('', archive.where).citation;
  try {
    const cells = oilPalmCells(await palmGrid(archive, signal), box);
    if (cells.length === 0) return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'outside_coverage', why: 'the map covers the producing regions only' } } };
    const [extent, years] = await Promise.all((['OP-extent', 'YoP'] as const).map(async (layer) => requestForBox(await archive.cogs.open(oilPalmHref(layer, cells[0]), { signal }), box)));
    return { requests: [extent, years], prepared: { citation, state: 'read', extent: extent.key, years: years.key } };
  } catch (err) {
    return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: unlessAborted(err, signal) } } };
  }
}

async function planRubber(plot: ContextPlot, archive: Archive, box: Bbox, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared['rubber'] }> {
  const tile = euForestTile(...plot.centroid);
  const citation = rubberProvenance(tile, archive.where).citation;
  if (!rubberCovers(...plot.centroid)) return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'outside_coverage', why: 'the plot lies outside it' } } };
  if (!rubberReadable(archive.where)) {
    return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: 'the map is published as an Earth Engine asset only and no mirror of it is configured' } } };
  }
  try {
    const classes = requestForBox(await archive.cogs.open(rubberHref(tile), { signal }), box);
    return { requests: [classes], prepared: { citation, state: 'read', classes: classes.key } };
  } catch (err) {
    return { requests: [], prepared: { citation, state: 'not_read', notRead: { kind: 'unreadable', why: unlessAborted(err, signal) } } };
  }
}

export async function planCommodityMaps(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: CommodityMapsPrepared }> {
  const box = footprintBox(plot.footprint, 60);
  const [palm, rubber] = await Promise.all([planOilPalm(archive, box, signal), planRubber(plot, archive, box, signal)]);
  return { requests: [...palm.requests, ...rubber.requests], prepared: { oilPalm: palm.prepared, rubber: rubber.prepared } };
}

export interface CommodityMapsResult {
  commodity_maps: CommodityMapsBlock;
  /** Shares the perennial-crop rating reuses: palm dated 2020 or earlier, rubber; null where not read. */
  palmBy2020: number | null;
  rubber: number | null;
}

export function computeCommodityMaps(p: CommodityMapsPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot): CommodityMapsResult {
  let palm: { block: OilPalmBlock; by2020: number | null };
  if (p.oilPalm.state === 'read') {
    const extent = rasterAt(rasters, p.oilPalm.extent);
    const years = rasterAt(rasters, p.oilPalm.years);
    palm = readOilPalm({
      extentMask: maskFor(extent, plot.footprint),
      extent: uint8(extent, 'oil palm extent'),
      yearMask: maskFor(years, plot.footprint),
      plantingDays: uint16(years, 'oil palm planting year'),
      citation: p.oilPalm.citation,
    });
  } else palm = { block: oilPalmNotRead(p.oilPalm.citation, p.oilPalm.notRead), by2020: null };
  let rubber: { block: RubberBlock; share: number | null };
  if (p.rubber.state === 'read') {
    const classes = rasterAt(rasters, p.rubber.classes);
    rubber = readRubber({ mask: maskFor(classes, plot.footprint), classes: uint8(classes, 'rubber map'), citation: p.rubber.citation });
  } else rubber = { block: rubberNotRead(p.rubber.citation, p.rubber.notRead), share: null };
  return { commodity_maps: { oil_palm: palm.block, rubber: rubber.block }, palmBy2020: palm.by2020, rubber: rubber.share };
}
