import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localFrame, polygonsAreaHa, ringAreaM2 } from '../../src/intake/geodesic.ts';
import type { Position } from '../../src/intake/types.ts';

const box = (w: number, s: number, d: number): Position[] => [[w, s], [w + d, s], [w + d, s + d], [w, s + d], [w, s]];

// Reference areas from PROJ (Lambert azimuthal equal-area on WGS84 centred on the square, through GDAL 3.6).
test('measures plot-sized squares on the WGS84 ellipsoid as PROJ does', () => {
  assert.ok(Math.abs(ringAreaM2(box(10, 45, 0.01)) - 876163.4455) < 0.01);
  assert.ok(Math.abs(ringAreaM2(box(-1, 6, 0.001)) - 12243.42177) < 0.001);
});

test('gives clockwise rings a negative sign and polygons their area less holes, in hectares', () => {
  const outer = box(-1, 6, 0.001);
  assert.ok(ringAreaM2([...outer].reverse()) < 0);
  const hole = box(-0.9996, 6.0004, 0.0002);
  const expected = (ringAreaM2(outer) - ringAreaM2(hole)) / 10_000;
  assert.ok(Math.abs(polygonsAreaHa([[outer, hole]]) - expected) < 1e-12);
});

test('measures a plot across the antimeridian', () => {
  const across: Position[] = [[179.9995, -17], [-179.9995, -17], [-179.9995, -16.999], [179.9995, -16.999], [179.9995, -17]];
  const east = box(10, -17, 0.001);
  assert.ok(Math.abs(ringAreaM2(across) - ringAreaM2(east)) < 1e-3 * ringAreaM2(east));
});

test('the local frame measures a degree of latitude as the meridian arc does (110.6 km at the equator)', () => {
  const project = localFrame([0, 0]);
  const [, y] = project([0, 0.01]);
  assert.ok(Math.abs(y - 1105.74) < 0.01, `${y}`);
});
