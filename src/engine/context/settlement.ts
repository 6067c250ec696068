// The `settlement` block (spec 2.8.3): buildings from Open Buildings 2.5D Temporal in 2016, 2020
// and 2023, inside the plot and in a 100 m ring around it, reported separately and never added.
// Supporting evidence only: it changes no verdict, reason or finding.
import type { PixelMask } from '../kernels/rasterise-mask.ts';
import { type LonLatFootprint, maskFor, ringFor, type WorkerRaster } from '../worker/raster-window.ts';
import type { Archive } from '../archive.ts';
import { type RasterRequest, requestForBox } from '../sources/raster-request.ts';
import { readArchiveJson } from '../sources/products/cog-opener.ts';
import { type GcsListing, type ManifestJson, manifestListingUrl, manifestNamesForYear, manifestToken, objectUrl, OPEN_BUILDINGS, OPEN_BUILDINGS_BANDS, openBuildingsProvenance, parseManifest, tilesTouching } from '../sources/products/open-buildings/codes.ts';
import { type Bbox, transformBbox } from '../sources/reproject.ts';
import { type ContextPlot, footprintBox } from './plot.ts';
import { rasterAt, unlessAborted } from './rasters.ts';
import { round, yearList } from './wording.ts';

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

const COUNT = OPEN_BUILDINGS_BANDS.indexOf('building_fractional_count');
const HEIGHT = OPEN_BUILDINGS_BANDS.indexOf('building_height');
const PRESENCE = OPEN_BUILDINGS_BANDS.indexOf('building_presence');

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

const NOTE =
  'Supporting evidence only: buildings on and around the plot change no verdict, reason or finding. Inside the plot and in the ring are reported separately, never added.';
const THRESHOLD_SOURCE =
  'A 2 m cell is built up when its mean building presence reaches 0.4, and buildings are present where built-up cells cover 32 m² or more (about one small house); both lines are this service\'s, set on the dataset\'s uncalibrated presence score.';

const UNREAD_SIDE: SettlementSide = {
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

/** The 0.5 m bands gathered into cells of PITCH_M: mean presence, highest height, summed count. */
interface Cells {
  raster: Pick<WorkerRaster, 'geoTransform' | 'epsg' | 'width' | 'height'>;
  valid: Uint8Array;
  presence: Float32Array;
  height: Float32Array;
  count: Float32Array;
}

function cellsOf(r: WorkerRaster): Cells {
  const [ox, pw, , oy, , ph] = r.geoTransform;
  const k = Math.max(1, Math.round(PITCH_M / Math.abs(pw)));
  const width = Math.floor(r.width / k);
  const height = Math.floor(r.height / k);
  const n = width * height;
  const valid = new Uint8Array(n);
  const presence = new Float32Array(n);
  const tallest = new Float32Array(n);
  const count = new Float32Array(n);
  const seen = new Uint16Array(n);
  const spp = r.samplesPerPixel;
  const raw = r.raw;
  const nodata = r.nodata ?? Number.NaN;
  // The cell column of every pixel column, once, so the pixel loop does no division.
  const cellOf = new Int32Array(width * k);
  for (let x = 0; x < width * k; x++) cellOf[x] = Math.floor(x / k);
  for (let y = 0; y < height * k; y++) {
    const cellRow = Math.floor(y / k) * width;
    let at = y * r.width * spp;
    for (let x = 0; x < width * k; x++, at += spp) {
      const p = raw[at + PRESENCE];
      // NaN is never equal to itself: a float raster's NaN is no data too.
      if (p === nodata || p !== p) continue;
      const c = cellRow + cellOf[x];
      seen[c]++;
      presence[c] += p;
      count[c] += raw[at + COUNT];
      const h = raw[at + HEIGHT];
      if (h > tallest[c]) tallest[c] = h;
    }
  }
  for (let c = 0; c < n; c++) {
    if (seen[c] === 0) continue;
    valid[c] = 1;
    presence[c] /= seen[c];
  }
  return {
    raster: { geoTransform: [ox, pw * k, 0, oy, 0, ph * k], epsg: r.epsg, width, height },
    valid,
    presence,
    height: tallest,
    count,
  };
}

function side(cells: Cells, mask: PixelMask): SettlementSide {
  const { spans } = mask;
  const cellM2 = Math.abs(cells.raster.geoTransform[1] * cells.raster.geoTransform[5]);
  let valid = 0;
  let built = 0;
  let count = 0;
  let tallest = -Infinity;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      if (cells.valid[i] === 0) continue;
      valid++;
      count += cells.count[i];
      if (cells.presence[i] >= PRESENCE_THRESHOLD) {
        built++;
        if (cells.height[i] > tallest) tallest = cells.height[i];
      }
    }
  }
  if (valid === 0) return { ...UNREAD_SIDE, pixels: mask.count, valid_pixels: 0 };
  const m2 = built * cellM2;
  return {
    pixels: mask.count,
    valid_pixels: valid,
    read: true,
    presence_share: round(built / valid, 4),
    building_m2: round(m2, 1),
    present: m2 >= MIN_BUILDING_M2,
    buildings_estimate: Math.round(count),
    max_height_m: built === 0 ? null : round(tallest, 1),
  };
}

/** One year read over the plot and its ring from a window of the three bands (0.5 m, interleaved). */
export function readSettlementYear(raster: WorkerRaster, footprint: LonLatFootprint, tiles: string[]): SettlementYearBlock {
  const cells = cellsOf(raster);
  const plot = maskFor(cells.raster, footprint);
  const ring = ringFor(plot, cells.raster, 0, BUFFER_M);
  return { available: true, coverage: true, inside: side(cells, plot), buffer: side(cells, ring), tiles, epsg: raster.epsg };
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

// --- planning (main thread) and computing (worker) ----------------------------------------------

export type SettlementYearPlan = { state: 'read'; key: string; tiles: string[] } | { state: 'no_coverage' | 'unavailable'; why: string };

export interface SettlementPrepared {
  provenance: SettlementProvenance;
  years: Record<SettlementYear, SettlementYearPlan>;
}

/** The manifest names of one S2 cell, every page of the bucket listing. */
async function manifestNames(archive: Archive, token: string, signal?: AbortSignal): Promise<string[]> {
  const names: string[] = [];
  let page: string | undefined;
  do {
    const listing = await readArchiveJson<GcsListing>(manifestListingUrl(token, page), archive, signal);
    names.push(...(listing.items ?? []).map((i) => i.name));
    page = listing.nextPageToken;
  } while (page);
  return names;
}

type YearOutcome = { plan: SettlementYearPlan; request: RasterRequest | null };

/** The first tile of a year's manifests that touches the box, as a request for the box's window. */
async function planYear(archive: Archive, names: string[], year: number, box: Bbox, signal?: AbortSignal): Promise<YearOutcome> {
  for (const name of manifestNamesForYear({ items: names.map((n) => ({ name: n })) }, year)) {
    for (const tile of parseManifest(await readArchiveJson<ManifestJson>(objectUrl(name), archive, signal))) {
      if (tilesTouching([tile], tile.epsg, transformBbox(box, 'EPSG:4326', tile.epsg)).length === 0) continue;
      const request = requestForBox(await archive.cogs.open(tile.href, { signal }), box);
      return { plan: { state: 'read', key: request.key, tiles: [tile.href] }, request };
    }
  }
  return { plan: { state: 'no_coverage', why: 'no manifest of the year lists a tile there' }, request: null };
}

export async function planSettlement(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: SettlementPrepared }> {
  const p = openBuildingsProvenance(CUTOFF_YEAR, '', archive.where);
  const provenance: SettlementProvenance = { source: p.dataset, version: OPEN_BUILDINGS.version, licence: p.licence, attribution: p.attribution, citation: p.citation };
  // The ring's outer edge and a few cells beyond.
  const box = footprintBox(plot.footprint, BUFFER_M + 10);
  let names: string[] | null = null;
  let listingFailed = '';
  try {
    names = await manifestNames(archive, manifestToken(...plot.centroid), signal);
  } catch (err) {
    listingFailed = unlessAborted(err, signal);
  }
  // A year that fails is not remembered: the next plot asks again.
  const outcomes = await Promise.all(
    SETTLEMENT_YEARS.map(async (year): Promise<YearOutcome> => {
      if (names === null) return { plan: { state: 'unavailable', why: listingFailed }, request: null };
      try {
        return await planYear(archive, names, year, box, signal);
      } catch (err) {
        return { plan: { state: 'unavailable', why: unlessAborted(err, signal) }, request: null };
      }
    }),
  );
  const years = Object.fromEntries(SETTLEMENT_YEARS.map((y, k) => [y, outcomes[k].plan])) as Record<SettlementYear, SettlementYearPlan>;
  const requests = outcomes.flatMap((o) => (o.request === null ? [] : [o.request]));
  return { requests, prepared: { provenance, years } };
}

export function computeSettlement(p: SettlementPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot): SettlementBlock {
  const years = Object.fromEntries(
    SETTLEMENT_YEARS.map((year) => {
      const y = p.years[year];
      return [year, y.state === 'read' ? readSettlementYear(rasterAt(rasters, y.key), plot.footprint, y.tiles) : settlementYearNotRead(y.state, y.why)];
    }),
  ) as Record<SettlementYear, SettlementYearBlock>;
  return settlementBlock(p.provenance, years);
}
