import { test } from 'node:test';
import assert from 'node:assert/strict';
import { polygonsAreaHa } from '../../src/intake/geodesic.ts';
import { plotFootprint, POINT_AREA_HA } from '../../src/engine/footprint.ts';
import type { Polygon } from 'geojson';

/** The drawn polygon's area, measured as the register measures an uploaded boundary. */
const measured = (p: Polygon) => polygonsAreaHa([p.coordinates as [number, number][][]]);

test('a point with no declared area is read over a polygon that holds 4 ha, its area measured and not known to be the plot\'s', () => {
  const f = plotFootprint({ type: 'Point', coordinates: [99.13, 8.85] }, null, null);
  assert.equal(POINT_AREA_HA, 4);
  assert.equal(f.drawn, true);
  assert.equal(f.areaKnown, false);
  assert.deepEqual(f.centroid, [99.13, 8.85]);
  assert.equal(f.footprint.type, 'Polygon');
  // The stated area is the drawn polygon's own, not a nominal figure; the polygon is widened to hold the 4 ha.
  assert.equal(f.areaHa, measured(f.footprint as Polygon));
  assert.ok(f.areaHa >= 4 && f.areaHa < 4.0001, `drawn ${f.areaHa} ha`);
  assert.match(f.sentence, /no area was declared: a circle of 4\.00 ha \(the area a point stands for\), radius 113 m, drawn around the declared point was read/);
  assert.match(f.sentence, /The plot's own area is not known, so it is not shown to reach the evidence floor\.$/);
});

test('a point with a declared area is read over a polygon holding that area, the area known', () => {
  const f = plotFootprint({ type: 'Point', coordinates: [-7.65, 6.15] }, 2.5, 2.5);
  assert.equal(f.areaKnown, true);
  assert.equal(f.areaHa, measured(f.footprint as Polygon));
  assert.ok(Math.abs(f.areaHa - 2.5) < 1e-4, `drawn ${f.areaHa} ha`);
  assert.match(f.sentence, /^No boundary was uploaded: a circle of 2\.50 ha \(the declared area\), radius 89 m, drawn around the declared point was read\.$/);
});

test('a point declaring exactly the floor is drawn at the floor or a hair over, never under it by rounding', () => {
  for (const [lon, lat] of [[99.13, 8.85], [11.55, -0.45], [25, 60], [-55, -10]]) {
    const f = plotFootprint({ type: 'Point', coordinates: [lon, lat] }, 4, 4);
    assert.ok(f.areaHa >= 4 && f.areaHa - 4 < 1e-5, `${lon},${lat}: ${f.areaHa} ha`);
  }
});

test('an uploaded boundary is read as it is, its area and parts stated', () => {
  const square = (x: number) => [[[x, 0], [x + 0.001, 0], [x + 0.001, 0.001], [x, 0.001], [x, 0]]];
  const one = plotFootprint({ type: 'Polygon', coordinates: square(10) }, 1.23, null);
  assert.equal(one.drawn, false);
  assert.equal(one.areaKnown, true);
  assert.equal(one.sentence, 'The uploaded boundary was read (1.23 ha).');
  assert.ok(Math.abs(one.centroid[0] - 10.0005) < 1e-9 && Math.abs(one.centroid[1] - 0.0005) < 1e-9);
  const two = plotFootprint({ type: 'MultiPolygon', coordinates: [square(10), square(10.01)] }, 2.46, null);
  assert.equal(two.sentence, 'The uploaded boundary, in 2 parts, was read part by part (2.46 ha in all), each part on the archives\' tiles under it.');
});
