// The `risk` block (spec 2.8.2): Article 10 context that never changes a verdict. Three parts,
// always present: protected areas (OSM through Overpass), the country classification of the
// producer's country, and tree-cover loss since 2021 in a ring around the plot (Hansen GFC).
// A part that could not be measured says `available: false` and names its source; an absence is
// never served as a zero.
import { booleanIntersects, feature, pointToPolygonDistance } from '@turf/turf';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import type { Archive } from '../archive.ts';
import { maskFor, ringFor, type WorkerRaster } from '../worker/raster-window.ts';
import type { PixelMask } from '../kernels/rasterise-mask.ts';
import { type RasterRequest, requestForBox } from '../sources/raster-request.ts';
import type { GeoTransform } from '../sources/reproject.ts';
import { DATAMASK, HANSEN_VERSION, hansenHref, hansenProvenance, hansenTile, lossYear } from '../sources/products/hansen/codes.ts';
import type { ProtectedArea } from '../sources/products/protected-areas/codes.ts';
import { classifyCountry, type CountryRiskBlock } from './country-classification.ts';
import { type ContextPlot, footprintBox } from './plot.ts';
import { rasterAt, sameGrid, uint8, unlessAborted } from './rasters.ts';
import { round } from './wording.ts';

export const RISK_NOTE = 'Context for the risk assessment of Article 10; it changes no verdict, reason, reasons or finding sentence.';
export const RISK_ARTICLE = 'Article 10 of Regulation (EU) 2023/1115 (risk assessment)';

// --- protected areas ------------------------------------------------------------------------------

/** Both searches run against one point: every area within this radius, and every area containing it. */
export const SEARCH_RADIUS_KM = 25.0;

export const EXCLUDED_SOURCES = [
  { source: 'World Database on Protected Areas (WDPA, Protected Planet)', why: 'its terms of use bar commercial use, so this service does not read it' },
  { source: 'World Database of Key Biodiversity Areas', why: 'its terms of use bar commercial use, so this service does not read it' },
] as const;

const COVERAGE_NOTE =
  'OpenStreetMap is a crowd-sourced open map database under an open database licence, not an official register: an area missing from it is not shown to be absent. An intersection is not a finding of illegality.';

export interface ProtectedAreaProvenance {
  source: string;
  dataset: string;
  licence: string;
  attribution: string;
}

export interface ProtectedAreaEntry {
  name: string | null;
  designation: string;
  iucn_category: string | null;
  map_type: string;
  map_id: string;
}

export interface ProtectedAreaBlock {
  available: boolean;
  intersects: boolean | null;
  source: string;
  dataset: string;
  licence: string;
  attribution: string;
  snapshot: string | null;
  search_radius_km: number;
  areas: ProtectedAreaEntry[];
  distance_km: number | null;
  coverage_note: string;
  excluded_sources: Array<{ source: string; why: string }>;
  note?: string;
}

/** What the two searches answered; areas keep their outlines for the polygon test. */
export type ProtectedAreaAnswer =
  | { available: true; around: ProtectedArea[]; containing: ProtectedArea[]; snapshot: string | null }
  | { available: false; why: string };

function vertices(g: Polygon | MultiPolygon): Position[] {
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  return polygons.flatMap((rings) => rings.flatMap((ring) => ring));
}

/** Shortest distance between two polygons that do not intersect (km): the nearest vertex of either to the other. */
function polygonDistanceKm(a: Polygon | MultiPolygon, b: Polygon): number {
  let best = Infinity;
  for (const p of vertices(a)) best = Math.min(best, Math.abs(pointToPolygonDistance(p, b, { units: 'kilometers' })));
  for (const p of vertices(b)) best = Math.min(best, Math.abs(pointToPolygonDistance(p, a, { units: 'kilometers' })));
  return best;
}

export function readProtectedAreas(plot: ContextPlot, answer: ProtectedAreaAnswer, provenance: ProtectedAreaProvenance): ProtectedAreaBlock {
  const frame = { ...provenance, search_radius_km: SEARCH_RADIUS_KM, coverage_note: COVERAGE_NOTE, excluded_sources: EXCLUDED_SOURCES.map((x) => ({ ...x })) };
  if (!answer.available) {
    return {
      available: false,
      intersects: null,
      ...frame,
      snapshot: null,
      areas: [],
      distance_km: null,
      note: `Nothing was measured: ${provenance.source} could not be read (${answer.why}).`,
    };
  }
  const plotFeature = feature(plot.footprint);
  const containingIds = new Set(answer.containing.map((a) => a.map_id));
  const byId = new Map<string, ProtectedArea>();
  for (const a of [...answer.around, ...answer.containing]) if (!byId.has(a.map_id)) byId.set(a.map_id, a);
  const measured = [...byId.values()].map((a) => {
    // The area holds the search point, or one of its outlines crosses the plot: an intersection.
    const crosses = containingIds.has(a.map_id) || a.polygons.some((p) => booleanIntersects(plotFeature, p));
    const distance = crosses ? 0 : Math.min(Infinity, ...a.polygons.map((p) => polygonDistanceKm(plot.footprint, p)));
    return { area: a, crosses, distance };
  });
  measured.sort((x, y) => x.distance - y.distance || String(x.area.name).localeCompare(String(y.area.name)));
  const intersects = measured.some((m) => m.crosses);
  const nearest = measured.length > 0 && Number.isFinite(measured[0].distance) ? measured[0].distance : null;
  const block: ProtectedAreaBlock = {
    available: true,
    intersects,
    ...frame,
    snapshot: answer.snapshot,
    areas: measured.map(({ area: a }) => ({ name: a.name, designation: a.designation, iucn_category: a.iucn_category, map_type: a.map_type, map_id: a.map_id })),
    distance_km: nearest === null ? null : round(nearest, 2),
  };
  if (nearest === null) {
    block.note = `No protected area on the map lies within ${SEARCH_RADIUS_KM} km of the plot; the search stops there, so no distance is given beyond it.`;
  }
  return block;
}

// --- neighbourhood --------------------------------------------------------------------------------

export const RING_KM = 2.0;
export const SINCE_YEAR = 2021;
export const CANOPY_DENSITY_THRESHOLD_PCT = 30;
const EARTH_RADIUS_M = 6_371_008.8;

export interface NeighbourhoodProvenance {
  source: string;
  dataset: string;
  version: string;
  licence: string;
  citation: string;
}

export interface NeighbourhoodBlock {
  available: boolean;
  loss_ha: number | null;
  prevalence_pct: number | null;
  ring_km: number;
  ring_area_ha: number | null;
  since_year: number;
  canopy_density_threshold_pct: number;
  source: string;
  dataset: string;
  version: string;
  licence: string;
  citation: string;
  accuracy: string;
  note?: string;
}

const ACCURACY =
  'Stand-replacement disturbance of any cause at 30 m (Hansen et al. 2013): plantation harvest and rotation count as loss, and loss where the canopy was under 30% in 2000 is not counted.';

export function neighbourhoodNotRead(p: NeighbourhoodProvenance, why: string): NeighbourhoodBlock {
  return {
    available: false,
    loss_ha: null,
    prevalence_pct: null,
    ring_km: RING_KM,
    ring_area_ha: null,
    since_year: SINCE_YEAR,
    canopy_density_threshold_pct: CANOPY_DENSITY_THRESHOLD_PCT,
    ...p,
    accuracy: ACCURACY,
    note: `Nothing was measured: ${p.source} could not be read (${why}).`,
  };
}

/** Area of each row's pixels (m²) on a geographic grid: a sphere's zone between the row's two latitudes. */
function rowAreasM2(geoTransform: GeoTransform, height: number): Float64Array {
  const [, dLon, , lat0, , dLat] = geoTransform;
  const out = new Float64Array(height);
  const rad = Math.PI / 180;
  for (let r = 0; r < height; r++) {
    const a = lat0 + r * dLat;
    const b = a + dLat;
    out[r] = EARTH_RADIUS_M * EARTH_RADIUS_M * Math.abs(dLon * rad) * Math.abs(Math.sin(a * rad) - Math.sin(b * rad));
  }
  return out;
}

export interface NeighbourhoodInput {
  /** The ring around the plot on the Hansen window's grid (EPSG:4326), the plot cut out. */
  ring: PixelMask;
  treecover2000: Uint8Array;
  lossyear: Uint8Array;
  /** 0 no data, 1 land, 2 water; absent: every pixel land. */
  datamask: Uint8Array | null;
  geoTransform: GeoTransform;
  provenance: NeighbourhoodProvenance;
}

/**
 * Loss since 2021 over pixels of at least 30% canopy in 2000, in the ring around the plot; the
 * ring's land area is the denominator.
 */
export function readNeighbourhood(input: NeighbourhoodInput): NeighbourhoodBlock {
  const { ring, treecover2000, lossyear, datamask, geoTransform } = input;
  const counts = new Uint8Array(256);
  for (let v = 0; v < 256; v++) counts[v] = (lossYear(v) ?? 0) >= SINCE_YEAR ? 1 : 0;
  const rows = rowAreasM2(geoTransform, ring.height);
  let ringM2 = 0;
  let lossM2 = 0;
  const { spans, width } = ring;
  for (let s = 0; s < spans.length; s += 2) {
    const a = rows[Math.floor(spans[s] / width)];
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      if (datamask !== null && datamask[i] !== DATAMASK.LAND) continue;
      ringM2 += a;
      if (counts[lossyear[i]] === 1 && treecover2000[i] >= CANOPY_DENSITY_THRESHOLD_PCT) lossM2 += a;
    }
  }
  if (ringM2 === 0) return neighbourhoodNotRead(input.provenance, 'the ring around the plot holds no land pixel of the product');
  return {
    available: true,
    loss_ha: round(lossM2 / 10_000, 2),
    prevalence_pct: round((100 * lossM2) / ringM2, 2),
    ring_km: RING_KM,
    ring_area_ha: round(ringM2 / 10_000, 1),
    since_year: SINCE_YEAR,
    canopy_density_threshold_pct: CANOPY_DENSITY_THRESHOLD_PCT,
    ...input.provenance,
    accuracy: ACCURACY,
  };
}

// --- the block ------------------------------------------------------------------------------------

export interface RiskBlock {
  note: string;
  article: string;
  protected_area: ProtectedAreaBlock;
  country: CountryRiskBlock;
  neighbourhood: NeighbourhoodBlock;
}

/** The three parts together; the country is the producer's, never read off the boundary. */
export function riskBlock(plot: ContextPlot, protectedArea: ProtectedAreaBlock, neighbourhood: NeighbourhoodBlock): RiskBlock {
  return {
    note: RISK_NOTE,
    article: RISK_ARTICLE,
    protected_area: protectedArea,
    country: classifyCountry(plot.producer_country),
    neighbourhood,
  };
}

// --- planning (main thread) and computing (worker) ----------------------------------------------

const PROTECTED_AREA_SOURCE: ProtectedAreaProvenance = {
  source: 'OpenStreetMap, through the Overpass API',
  dataset: 'OSM features tagged boundary=protected_area, boundary=national_park or leisure=nature_reserve',
  licence: 'ODbL 1.0',
  attribution: '© OpenStreetMap contributors',
};

export interface RiskPrepared {
  protectedAreas: ProtectedAreaAnswer;
  neighbourhood: { provenance: NeighbourhoodProvenance } & (
    | { state: 'read'; treecover2000: string; lossyear: string; datamask: string }
    | { state: 'not_read'; why: string }
  );
}

async function askProtectedAreas(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<ProtectedAreaAnswer> {
  const [lon, lat] = plot.centroid;
  try {
    const [around, containing] = await Promise.all([
      archive.protectedAreas.around(lon, lat, SEARCH_RADIUS_KM * 1000, signal),
      archive.protectedAreas.containing(lon, lat, signal),
    ]);
    return { available: true, around: around.areas, containing: containing.areas, snapshot: around.snapshot ?? containing.snapshot };
  } catch (err) {
    return { available: false, why: unlessAborted(err, signal) };
  }
}

/** The Hansen windows reach the ring's outer edge and a pixel beyond. */
export async function planRisk(plot: ContextPlot, archive: Archive, signal?: AbortSignal): Promise<{ requests: RasterRequest[]; prepared: RiskPrepared }> {
  const tile = hansenTile(...plot.centroid);
  const p = hansenProvenance('lossyear', tile, archive.where);
  const provenance: NeighbourhoodProvenance = {
    source: 'Hansen/UMD Global Forest Change',
    dataset: HANSEN_VERSION.release,
    version: HANSEN_VERSION.release.replace(/^.*-(v[\d.]+)$/, '$1'),
    licence: p.licence,
    citation: p.citation,
  };
  const box = footprintBox(plot.footprint, RING_KM * 1000 + 60);
  const layers = ['treecover2000', 'lossyear', 'datamask'] as const;
  const [protectedAreas, hansen] = await Promise.all([
    askProtectedAreas(plot, archive, signal),
    Promise.all(layers.map(async (layer) => requestForBox(await archive.cogs.open(hansenHref(layer, tile), { signal }), box))).then(
      (requests) => ({ requests, error: null }),
      (error: unknown) => ({ requests: [] as RasterRequest[], error }),
    ),
  ]);
  if (hansen.error !== null) {
    return { requests: [], prepared: { protectedAreas, neighbourhood: { provenance, state: 'not_read', why: unlessAborted(hansen.error, signal) } } };
  }
  const [treecover2000, lossyear, datamask] = hansen.requests.map((r) => r.key);
  return { requests: hansen.requests, prepared: { protectedAreas, neighbourhood: { provenance, state: 'read', treecover2000, lossyear, datamask } } };
}

/** The Hansen windows with the plot and its ring on their grid, or null when they were not read. */
export function hansenRasters(p: RiskPrepared, rasters: ReadonlyMap<string, WorkerRaster>, plot: ContextPlot) {
  const n = p.neighbourhood;
  if (n.state !== 'read') return null;
  const treecover = rasterAt(rasters, n.treecover2000);
  const loss = rasterAt(rasters, n.lossyear);
  const mask = rasterAt(rasters, n.datamask);
  sameGrid('Hansen Global Forest Change', [treecover, loss, mask]);
  const plotMask = maskFor(treecover, plot.footprint);
  return {
    plot: plotMask,
    ring: ringFor(plotMask, treecover, 0, RING_KM * 1000),
    treecover2000: uint8(treecover, 'treecover2000'),
    lossyear: uint8(loss, 'lossyear'),
    datamask: uint8(mask, 'datamask'),
    geoTransform: treecover.geoTransform,
  };
}

export function computeRisk(p: RiskPrepared, hansen: ReturnType<typeof hansenRasters>, plot: ContextPlot): RiskBlock {
  const n = p.neighbourhood;
  let neighbourhood: NeighbourhoodBlock;
  if (n.state !== 'read' || hansen === null) neighbourhood = neighbourhoodNotRead(n.provenance, n.state === 'read' ? 'the windows were not read' : n.why);
  else if (hansen.plot.count === 0) neighbourhood = neighbourhoodNotRead(n.provenance, 'no 30 m pixel has its centre inside the boundary, so no ring can be drawn around it');
  else neighbourhood = readNeighbourhood({ ...hansen, provenance: n.provenance });
  return riskBlock(plot, readProtectedAreas(plot, p.protectedAreas, PROTECTED_AREA_SOURCE), neighbourhood);
}
