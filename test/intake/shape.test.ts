import { test } from 'node:test';
import assert from 'node:assert/strict';
import { centroidOf } from '../../src/intake/shape.ts';

test('the centroid of a plot across the antimeridian lies between its parts', () => {
  const [x, y] = centroidOf({ kind: 'polygons', polygons: [[[[179, 0], [179.5, 0], [179.5, 1], [179, 1], [179, 0]]], [[[-179.5, 0], [-179, 0], [-179, 1], [-179.5, 1], [-179.5, 0]]]] });
  assert.ok(Math.abs(Math.abs(x) - 180) < 0.01, `x = ${x}`);
  assert.ok(Math.abs(y - 0.5) < 1e-9);
});

test('a centroid of longitudes far off the Earth is found, not chased (a file with 1e271 as a longitude)', () => {
  const [x] = centroidOf({ kind: 'polygons', polygons: [[[[8.6e271, 0], [-9.1e160, 1], [0, 2], [8.6e271, 0]]]] });
  assert.equal(typeof x, 'number');
});
