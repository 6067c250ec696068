import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Polygon } from 'geojson';
import { maskFromBits, ringMask } from '../../../../src/engine/kernels/rasterise-mask.ts';
import type { ProtectedArea } from '../../../../src/engine/sources/products/protected-areas/codes.ts';
import type { ContextPlot } from '../../../../src/engine/context/plot.ts';
import { SEARCH_RADIUS_KM } from '../../../../src/engine/context/risk.ts';
import { riskCountry } from '../../../../src/engine/plan/context/risk.ts';
import { readNeighbourhood, readProtectedAreas, riskBlock } from '../../../../src/engine/worker/context/risk.ts';

const box = (w: number, s: number, e: number, n: number): Polygon => ({ type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] });
const PLOT: ContextPlot = { footprint: box(-0.001, -0.001, 0.001, 0.001), centroid: [0, 0], area_ha: 4.9, country: 'GH', producer_country: 'GH' };
const OSM = { source: 'OpenStreetMap (Overpass API)', dataset: 'protected areas', licence: 'ODbL 1.0', attribution: '© OpenStreetMap contributors' };

function area(name: string, polygon: Polygon | null, id: number): ProtectedArea {
  return { name, designation: 'National Park', iucn_category: 'II', map_type: 'osm', map_id: `way/${id}`, polygons: polygon ? [polygon] : [] };
}

test('a plot outside every area reports the distance to the nearest one, not null', () => {
  const near = area('Near', box(0.1, -0.05, 0.2, 0.05), 1);
  const far = area('Far', box(0.15, 0.1, 0.2, 0.2), 2);
  const pa = readProtectedAreas(PLOT, { available: true, around: [far, near], containing: [], snapshot: '2025-11-15T00:00:00Z' }, OSM);
  assert.equal(pa.available, true);
  assert.equal(pa.intersects, false);
  // From the plot's east edge (0.001°) to the area's west edge (0.1°) along the equator.
  const expected = (0.099 * Math.PI * 6371.0088) / 180;
  assert.ok(Math.abs(pa.distance_km! - expected) < 0.02, `distance ${pa.distance_km}, expected ${expected}`);
  assert.deepEqual(pa.areas.map((a) => a.name), ['Near', 'Far']);
  assert.equal(pa.snapshot, '2025-11-15T00:00:00Z');
  assert.equal(pa.search_radius_km, 25);
  assert.equal(pa.excluded_sources.length, 2);
  assert.match(pa.excluded_sources[0].why, /commercial use/);
});

test('an outline crossing the plot is an intersection at distance 0', () => {
  const pa = readProtectedAreas(PLOT, { available: true, around: [area('Across', box(0.0005, -0.05, 0.2, 0.05), 3)], containing: [], snapshot: null }, OSM);
  assert.deepEqual([pa.intersects, pa.distance_km], [true, 0]);
});

test('an area containing the search point intersects even when its outline lies beyond the radius search', () => {
  const huge = area('Huge reserve', null, 4);
  const pa = readProtectedAreas(PLOT, { available: true, around: [], containing: [huge], snapshot: null }, OSM);
  assert.deepEqual([pa.intersects, pa.distance_km, pa.areas.length], [true, 0, 1]);
  assert.deepEqual(Object.keys(pa.areas[0]).sort(), ['designation', 'iucn_category', 'map_id', 'map_type', 'name']);
});

test('with no area within 25 km the search stops there: no distance is invented', () => {
  const pa = readProtectedAreas(PLOT, { available: true, around: [], containing: [], snapshot: null }, OSM);
  assert.deepEqual([pa.available, pa.intersects, pa.distance_km], [true, false, null]);
  assert.match(pa.note!, new RegExp(`within ${SEARCH_RADIUS_KM} km.*search stops there`));
});

test('an unread source is available: false with a note naming it, never "no area"', () => {
  const pa = readProtectedAreas(PLOT, { available: false, why: 'HTTP 504' }, OSM);
  assert.deepEqual([pa.available, pa.intersects, pa.distance_km], [false, null, null]);
  assert.match(pa.note!, /OpenStreetMap/);
});

// A 201 × 201 window of 0.00025° pixels centred on the equator, the plot an 11 × 11 square in the middle.
const N = 201;
const GT: [number, number, number, number, number, number] = [-N * 0.000125, 0.00025, 0, N * 0.000125, 0, -0.00025];
const HANSEN = { source: 'Hansen/UMD Global Forest Change', dataset: 'GFC-2025-v1.13', version: 'v1.13', licence: 'CC BY 4.0', citation: 'Hansen et al. 2013' };
/** The ring of 2 km around the plot, in pixels of 0.00025° of latitude (27.6 m). */
function ring() {
  const bits = new Uint8Array(N * N);
  for (let r = 95; r <= 105; r++) for (let c = 95; c <= 105; c++) bits[r * N + c] = 1;
  return ringMask(maskFromBits(bits, N, N), 2000 / (0.00025 * 110_574));
}
const grid = (f: (r: number, c: number) => number) => Uint8Array.from({ length: N * N }, (_, i) => f(Math.floor(i / N), i % N));

test('neighbourhood: loss since 2021 over at least 30% canopy in 2000, in a ring with the plot cut out', () => {
  // Loss in 2022 everywhere, the plot included; canopy 60% east of the plot's middle column, 20% elsewhere.
  const hood = readNeighbourhood({ ring: ring(), treecover2000: grid((_, c) => (c > 100 ? 60 : 20)), lossyear: grid(() => 22), datamask: null, geoTransform: GT, coverage: 1, provenance: HANSEN });
  assert.equal(hood.available, true);
  assert.equal(hood.ring_km, 2);
  assert.equal(hood.since_year, 2021);
  assert.equal(hood.canopy_density_threshold_pct, 30);
  // The ring around a 306 m square out to 2 km: 4 × 0.306 × 2 + π × 2² km², less nothing (the plot is cut out).
  const ringHa = (4 * 0.306 * 2 + Math.PI * 4) * 100;
  assert.ok(Math.abs(hood.ring_area_ha! - ringHa) / ringHa < 0.03, `ring ${hood.ring_area_ha} ha, expected about ${ringHa}`);
  // Just under half the ring lies east of the middle column.
  assert.ok(hood.prevalence_pct! > 47 && hood.prevalence_pct! < 50, `prevalence ${hood.prevalence_pct}`);
  assert.ok(Math.abs(hood.loss_ha! - (hood.prevalence_pct! / 100) * hood.ring_area_ha!) < 0.5);
});

test('neighbourhood: loss in 2020 does not count, water leaves the ring, and a measured zero is a zero', () => {
  const before = readNeighbourhood({ ring: ring(), treecover2000: grid(() => 80), lossyear: grid(() => 20), datamask: null, geoTransform: GT, coverage: 1, provenance: HANSEN });
  assert.deepEqual([before.available, before.loss_ha, before.prevalence_pct], [true, 0, 0]);
  const all = readNeighbourhood({ ring: ring(), treecover2000: grid(() => 80), lossyear: grid(() => 23), datamask: null, geoTransform: GT, coverage: 1, provenance: HANSEN });
  const wet = readNeighbourhood({ ring: ring(), treecover2000: grid(() => 80), lossyear: grid(() => 23), datamask: grid((r) => (r < 100 ? 2 : 1)), geoTransform: GT, coverage: 1, provenance: HANSEN });
  assert.equal(all.prevalence_pct, 100);
  assert.ok(wet.ring_area_ha! < all.ring_area_ha! * 0.55);
  assert.equal(wet.prevalence_pct, 100);
});

test('risk carries the producer\'s country classification, the plot\'s own country without a producer, and none without either', () => {
  const hood = readNeighbourhood({ ring: ring(), treecover2000: grid(() => 80), lossyear: grid(() => 0), datamask: null, geoTransform: GT, coverage: 1, provenance: HANSEN });
  const pa = readProtectedAreas(PLOT, { available: true, around: [], containing: [], snapshot: null }, OSM);
  const risk = riskBlock(riskCountry({ ...PLOT, country: 'GH', producer_country: 'BR' }), pa, hood);
  assert.equal(risk.country.country, 'BR');
  assert.equal(riskBlock(riskCountry({ ...PLOT, country: 'GH', producer_country: null }), pa, hood).country.country, 'GH');
  assert.equal(riskBlock(riskCountry({ ...PLOT, country: null, producer_country: null }), pa, hood).country.classification, null);
  assert.deepEqual(Object.keys(risk), ['note', 'article', 'protected_area', 'country', 'neighbourhood']);
});

test('neighbourhood: a ring read over under 95% gives no figure and states the share read', () => {
  const hood = readNeighbourhood({ ring: ring(), treecover2000: grid(() => 80), lossyear: grid(() => 23), datamask: null, geoTransform: GT, coverage: 0.5, provenance: HANSEN });
  assert.deepEqual([hood.available, hood.loss_ha, hood.prevalence_pct, hood.coverage], [false, null, null, 0.5]);
  assert.match(hood.note!, /data for 50% of the ring/);
});
