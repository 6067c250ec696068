// The risk block's compute half: the plot's polygon against the protected areas the map answered,
// and tree-cover loss in the ring around the plot from the Hansen windows.
import { booleanIntersects, feature, pointToPolygonDistance } from '@turf/turf';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { lossInRing } from '../../kernels/loss-in-ring.ts';
import type { PixelMask } from '../../kernels/rasterise-mask.ts';
import type { CountryRiskBlock } from '../../context/country-classification.ts';
import type { ContextPlot } from '../../context/plot.ts';
import {
  CANOPY_DENSITY_THRESHOLD_PCT,
  EXCLUDED_SOURCES,
  NEIGHBOURHOOD_ACCURACY,
  type NeighbourhoodBlock,
  neighbourhoodNotRead,
  type NeighbourhoodProvenance,
  PROTECTED_AREA_SOURCE,
  type ProtectedAreaAnswer,
  type ProtectedAreaBlock,
  type ProtectedAreaProvenance,
  RING_KM,
  RISK_ARTICLE,
  RISK_NOTE,
  type RiskBlock,
  type RiskPrepared,
  SEARCH_RADIUS_KM,
  SINCE_YEAR,
} from '../../context/risk.ts';
import { round } from '../../context/wording.ts';
import type { GeoTransform } from '../../sources/reproject.ts';
import type { ProtectedArea } from '../../sources/products/protected-areas/codes.ts';
import { DATAMASK, lossYear } from '../../sources/products/hansen/codes.ts';
import { maskFor, ringFor, type WorkerRaster } from '../raster-window.ts';
import { rasterAt, readPixels, sameGrid, uint8 } from './rasters.ts';
import { ringCoverage, tooLittleRead } from '../coverage.ts';
import { covers, pixelsWithData } from '../../kernels/coverage.ts';

const COVERAGE_NOTE =
  'OpenStreetMap is a crowd-sourced open map database under an open database licence, not an official register: an area missing from it is not shown to be absent. An intersection is not a finding of illegality.';

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

const EARTH_RADIUS_M = 6_371_008.8;
/** 1 for each raw loss-year value dated SINCE_YEAR or later. */
const LOSS_SINCE = Uint8Array.from({ length: 256 }, (_, v) => ((lossYear(v) ?? 0) >= SINCE_YEAR ? 1 : 0));

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
  /** Share of the whole ring read with data, wherever the tiles end. */
  coverage: number;
  provenance: NeighbourhoodProvenance;
}

/**
 * Loss since 2021 over pixels of at least 30% canopy in 2000, in the ring around the plot; the
 * ring's land area is the denominator.
 */
export function readNeighbourhood(input: NeighbourhoodInput): NeighbourhoodBlock {
  const { ring, datamask } = input;
  const { land_m2: ringM2, loss_m2: lossM2 } = lossInRing({
    ring,
    rowAreaM2: rowAreasM2(input.geoTransform, ring.height),
    lossyear: input.lossyear,
    lossCounts: LOSS_SINCE,
    treecover: input.treecover2000,
    minTreecoverPct: CANOPY_DENSITY_THRESHOLD_PCT,
    land: datamask === null ? null : { classes: datamask, value: DATAMASK.LAND },
  });
  if (!covers(input.coverage)) return neighbourhoodNotRead(input.provenance, tooLittleRead(input.coverage, 'the ring'), input.coverage);
  if (ringM2 === 0) return neighbourhoodNotRead(input.provenance, 'the ring around the plot holds no land pixel of the product', input.coverage);
  return {
    available: true,
    loss_ha: round(lossM2 / 10_000, 2),
    prevalence_pct: round((100 * lossM2) / ringM2, 2),
    ring_km: RING_KM,
    ring_area_ha: round(ringM2 / 10_000, 1),
    since_year: SINCE_YEAR,
    canopy_density_threshold_pct: CANOPY_DENSITY_THRESHOLD_PCT,
    ...input.provenance,
    accuracy: NEIGHBOURHOOD_ACCURACY,
    coverage: input.coverage,
  };
}

/** The three parts together; the country is the producer's classification (riskCountry). */
export function riskBlock(country: CountryRiskBlock, protectedArea: ProtectedAreaBlock, neighbourhood: NeighbourhoodBlock): RiskBlock {
  return {
    note: RISK_NOTE,
    article: RISK_ARTICLE,
    protected_area: protectedArea,
    country,
    neighbourhood,
  };
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
  const ring = ringFor(plotMask, treecover, 0, RING_KM * 1000);
  const datamask = uint8(mask, 'datamask');
  return {
    plot: plotMask,
    // A tile missing beside one read reads as 0 (no cover, no loss, no data): shares over the plot count the pixels read; the ring's land leaves them out.
    plotRead: readPixels(plotMask, n.treecover2000, n.partlyRead),
    ring,
    // Land and water are data; 0, and the ring beyond the window, are not.
    coverage: ringCoverage(treecover, pixelsWithData(readPixels(ring, n.datamask, n.partlyRead), [datamask], DATAMASK.NO_DATA), plot.footprint, 0, RING_KM * 1000),
    treecover2000: uint8(treecover, 'treecover2000'),
    lossyear: uint8(loss, 'lossyear'),
    datamask,
    geoTransform: treecover.geoTransform,
  };
}

export function computeRisk(p: RiskPrepared, hansen: ReturnType<typeof hansenRasters>, plot: ContextPlot): RiskBlock {
  const n = p.neighbourhood;
  let neighbourhood: NeighbourhoodBlock;
  if (n.state !== 'read' || hansen === null) neighbourhood = neighbourhoodNotRead(n.provenance, n.state === 'read' ? 'the windows were not read' : n.why);
  else if (hansen.plot.count === 0) neighbourhood = neighbourhoodNotRead(n.provenance, 'no 30 m pixel has its centre inside the boundary, so no ring can be drawn around it');
  else neighbourhood = readNeighbourhood({ ...hansen, provenance: n.provenance });
  return riskBlock(p.country, readProtectedAreas(plot, p.protectedAreas, PROTECTED_AREA_SOURCE), neighbourhood);
}
