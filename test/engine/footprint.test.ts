import { test } from 'node:test';
import assert from 'node:assert/strict';
import { area } from '@turf/turf';
import { plotFootprint, POINT_AREA_HA } from '../../src/engine/footprint.ts';

test('a point with no declared area is read as a circle of 4 ha drawn around it, and the sentence says so', () => {
  const f = plotFootprint({ type: 'Point', coordinates: [99.13, 8.85] }, 4, null);
  assert.equal(POINT_AREA_HA, 4);
  assert.equal(f.drawn, true);
  assert.equal(f.areaHa, 4);
  assert.deepEqual(f.centroid, [99.13, 8.85]);
  assert.ok(Math.abs(area(f.footprint) / 10_000 - 4) < 0.04, `circle of ${area(f.footprint) / 10_000} ha`);
  assert.match(f.sentence, /circle of 4\.00 ha \(4\.00 ha: no area was declared\), radius 113 m/);
});

test('a point with a declared area is read as a circle of that area', () => {
  const f = plotFootprint({ type: 'Point', coordinates: [-7.65, 6.15] }, 2.5, 2.5);
  assert.ok(Math.abs(area(f.footprint) / 10_000 - 2.5) < 0.03);
  assert.match(f.sentence, /circle of 2\.50 ha \(the declared area\)/);
});

test('an uploaded boundary is read as it is, its area and parts stated', () => {
  const square = (x: number) => [[[x, 0], [x + 0.001, 0], [x + 0.001, 0.001], [x, 0.001], [x, 0]]];
  const one = plotFootprint({ type: 'Polygon', coordinates: square(10) }, 1.23, null);
  assert.equal(one.drawn, false);
  assert.equal(one.sentence, 'The uploaded boundary was read (1.23 ha).');
  assert.ok(Math.abs(one.centroid[0] - 10.0005) < 1e-9 && Math.abs(one.centroid[1] - 0.0005) < 1e-9);
  const two = plotFootprint({ type: 'MultiPolygon', coordinates: [square(10), square(10.01)] }, 2.46, null);
  assert.equal(two.sentence, 'The uploaded boundary, in 2 parts, was read (2.46 ha).');
});
