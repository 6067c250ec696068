// The settlement block's compute half: each year's 2 m building cells (gathered from the 0.5 m bands
// when its tiles were decoded, or here), and the buildings counted inside the plot and in the ring around it.
import { buildingCells, buildingsInMask, type BuildingCells, judgeCells } from '../../kernels/building-cells.ts';
import type { PixelMask } from '../../kernels/rasterise-mask.ts';
import type { ContextPlot } from '../../context/plot.ts';
import {
  BUFFER_M,
  CUTOFF_YEAR,
  MIN_BUILDING_M2,
  PITCH_M,
  PRESENCE_THRESHOLD,
  type SettlementBlock,
  type SettlementPrepared,
  type SettlementProvenance,
  type SettlementSide,
  SETTLEMENT_YEARS,
  type SettlementYear,
  type SettlementYearBlock,
  settlementYearNotRead,
  UNREAD_SIDE,
} from '../../context/settlement.ts';
import { round, yearList } from '../../context/wording.ts';
import { OPEN_BUILDINGS_BAND_AT, openBuildingsNodata } from '../../sources/products/open-buildings/codes.ts';
import { gridOf, type LonLatFootprint, maskFor, ringFor, type WorkerRaster } from '../raster-window.ts';
import type { RasterGrid } from '../tasks.ts';
import type { GeoTransform } from '../../sources/reproject.ts';
import { rasterAt } from './rasters.ts';

const NOTE =
  'Supporting evidence only: buildings on and around the plot change no verdict, reason or finding. Inside the plot and in the ring are reported separately, never added.';
const THRESHOLD_SOURCE =
  'A 2 m cell is built up when its mean building presence reaches 0.4, and buildings are present where built-up cells cover 32 m² or more (about one small house); both lines are this service\'s, set on the dataset\'s uncalibrated presence score.';

/** One side (inside the plot, or the ring) from the cells its mask holds. */
function side(cells: BuildingCells, mask: PixelMask, cellM2: number): SettlementSide {
  const b = buildingsInMask(cells, mask);
  if (b.valid === 0) return { ...UNREAD_SIDE, pixels: mask.count, valid_pixels: 0 };
  const m2 = b.built * cellM2;
  return {
    pixels: mask.count,
    valid_pixels: b.valid,
    read: true,
    presence_share: round(b.built / b.valid, 4),
    building_m2: round(m2, 1),
    present: m2 >= MIN_BUILDING_M2,
    buildings_estimate: Math.round(b.count),
    max_height_m: b.tallest === null ? null : round(b.tallest, 1),
  };
}

/**
 * The plot and its ring on each grid of building cells, made once: a plot's years share their grid,
 * and the ring's distance transform is the settlement's costliest step after the cells.
 */
function sidesOf(footprint: LonLatFootprint): (grid: RasterGrid) => { plot: PixelMask; ring: PixelMask } {
  const made = new Map<string, { plot: PixelMask; ring: PixelMask }>();
  return (grid) => {
    const key = gridOf(grid);
    let m = made.get(key);
    if (m === undefined) {
      const plot = maskFor(grid, footprint);
      made.set(key, (m = { plot, ring: ringFor(plot, grid, 0, BUFFER_M) }));
    }
    return m;
  };
}

/**
 * One year read over the plot and its ring from a window of its building cells (PITCH_M, CELL_SUMS
 * samples a cell), or of the three bands (0.5 m, interleaved) gathered into cells here.
 */
export function readSettlementYear(raster: WorkerRaster, footprint: LonLatFootprint, tiles: string[], asCells: boolean, sidesOn = sidesOf(footprint)): SettlementYearBlock {
  const [ox, pw, , oy, , ph] = raster.geoTransform;
  const k = asCells ? 1 : Math.max(1, Math.round(PITCH_M / Math.abs(pw)));
  const cells = asCells
    ? judgeCells(raster.raw, raster.width, raster.height, PRESENCE_THRESHOLD)
    : buildingCells({
        raw: raster.raw,
        width: raster.width,
        height: raster.height,
        samplesPerPixel: raster.samplesPerPixel,
        bands: OPEN_BUILDINGS_BAND_AT,
        // The reader's rule, a missing tile's fill included.
        nodata: openBuildingsNodata(raster.nodata),
        factor: k,
        presenceThreshold: PRESENCE_THRESHOLD,
      });
  const geoTransform: GeoTransform = [ox, pw * k, 0, oy, 0, ph * k];
  const grid = { geoTransform, epsg: raster.epsg, width: cells.width, height: cells.height };
  const cellM2 = Math.abs(geoTransform[1] * geoTransform[5]);
  const { plot, ring } = sidesOn(grid);
  return { available: true, coverage: true, inside: side(cells, plot, cellM2), buffer: side(cells, ring, cellM2), tiles, epsg: raster.epsg };
}

function sentence(years: Record<string, SettlementYearBlock>): string {
  const read = SETTLEMENT_YEARS.filter((y) => years[y].inside.read);
  const unread = SETTLEMENT_YEARS.filter((y) => !years[y].inside.read);
  if (read.length === 0) return `No year could be read (${yearList([...SETTLEMENT_YEARS])}): nothing is said about buildings on or around the plot.`;
  const seen = read.filter((y) => years[y].inside.present === true);
  const absent = read.filter((y) => years[y].inside.present !== true);
  const parts: string[] = [];
  if (seen.length > 0) parts.push(`Buildings were seen inside the plot in ${yearList(seen)}`);
  if (absent.length > 0) parts.push(`${seen.length > 0 ? 'not' : 'No buildings were seen inside the plot'} in ${yearList(absent)}`);
  const moreInRing = read.filter((y) => years[y].buffer.read && (years[y].buffer.building_m2 ?? 0) > (years[y].inside.building_m2 ?? 0));
  const ring =
    moreInRing.length > 0
      ? `more stood in the ${BUFFER_M} m ring in ${yearList(moreInRing)}`
      : `no more stood in the ${BUFFER_M} m ring`;
  const notRead = unread.length > 0 ? ` (${yearList(unread)} not read)` : '';
  return `${parts.join(', ')}; ${ring}${notRead}.`;
}

/** The block from its three years (each read, unread, or without coverage). */
export function settlementBlock(p: SettlementProvenance, years: Record<SettlementYear, SettlementYearBlock>): SettlementBlock {
  const keyed: Record<string, SettlementYearBlock> = Object.fromEntries(SETTLEMENT_YEARS.map((y) => [String(y), years[y]]));
  const cutoff = years[CUTOFF_YEAR];
  return {
    note: NOTE,
    ...p,
    threshold_source: THRESHOLD_SOURCE,
    presence_threshold: PRESENCE_THRESHOLD,
    min_building_m2: MIN_BUILDING_M2,
    buffer_m: BUFFER_M,
    pitch_m: PITCH_M,
    cutoff_year: CUTOFF_YEAR,
    years_read: [...SETTLEMENT_YEARS],
    available: SETTLEMENT_YEARS.some((y) => years[y].available),
    present_inside_at_cutoff: cutoff.inside.read ? cutoff.inside.present : null,
    present_in_buffer_at_cutoff: cutoff.buffer.read ? cutoff.buffer.present : null,
    years: keyed,
    reading: sentence(keyed),
  };
}

export function computeSettlement(p: SettlementPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot): SettlementBlock {
  const sidesOn = sidesOf(plot.footprint);
  const years = Object.fromEntries(
    SETTLEMENT_YEARS.map((year) => {
      const y = p.years[year];
      return [year, y.state === 'read' ? readSettlementYear(rasterAt(rasters, y.key), plot.footprint, y.tiles, y.cells, sidesOn) : settlementYearNotRead(y.state, y.why)];
    }),
  ) as Record<SettlementYear, SettlementYearBlock>;
  return settlementBlock(p.provenance, years);
}
