import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BOUNDARY_MOVE_TOLERANCE_M, boundaryMoved, boundaryShiftM } from '../../src/intake/boundary-shift.ts';
import type { PlotGeometry, Position } from '../../src/intake/types.ts';

// About 1.2 ha near Kumasi, Ghana (latitude 6.7).
const RING: Position[] = [[-1.600123, 6.700456], [-1.599123, 6.700456], [-1.599123, 6.701456], [-1.600123, 6.701456], [-1.600123, 6.700456]];
const plot: PlotGeometry = { type: 'Polygon', coordinates: [RING] };

/** Metres east to degrees of longitude at this latitude (WGS84 prime vertical radius). */
const eastDegrees = (metres: number) => {
  const phi = (6.7 * Math.PI) / 180;
  const n = 6378137 / Math.sqrt(1 - 0.00669437999014 * Math.sin(phi) ** 2);
  return (metres / (n * Math.cos(phi))) * (180 / Math.PI);
};
const movedEast = (g: PlotGeometry, metres: number): PlotGeometry => ({
  type: 'Polygon',
  coordinates: (g.coordinates as Position[][]).map((r) => r.map(([x, y]) => [x + eastDegrees(metres), y] as Position)),
});

test('an unchanged boundary has not moved', () => {
  assert.equal(boundaryShiftM(plot, structuredClone(plot)), 0);
  assert.equal(boundaryMoved(plot, structuredClone(plot)), false);
});

test('a boundary moved 5 mm has not moved by the 1 cm rule', () => {
  const shift = boundaryShiftM(plot, movedEast(plot, 0.005));
  assert.ok(Math.abs(shift - 0.005) < 0.0002, `${shift} m`);
  assert.equal(boundaryMoved(plot, movedEast(plot, 0.005)), false);
});

test('a boundary moved 5 cm has moved', () => {
  const shift = boundaryShiftM(plot, movedEast(plot, 0.05));
  assert.ok(Math.abs(shift - 0.05) < 0.001, `${shift} m`);
  assert.equal(boundaryMoved(plot, movedEast(plot, 0.05)), true);
  assert.equal(BOUNDARY_MOVE_TOLERANCE_M, 0.01);
});

test('one vertex moved 5 cm, the rest in place, has moved', () => {
  const coords = structuredClone(RING);
  coords[2] = [coords[2][0] + eastDegrees(0.05), coords[2][1]];
  assert.equal(boundaryMoved(plot, { type: 'Polygon', coordinates: [coords] }), true);
});

test('a vertex added on an edge, or the ring started elsewhere, is the same boundary', () => {
  const withMidpoint: Position[] = [RING[0], [(RING[0][0] + RING[1][0]) / 2, RING[0][1]], ...RING.slice(1)];
  assert.equal(boundaryMoved(plot, { type: 'Polygon', coordinates: [withMidpoint] }), false);
  const rotated: Position[] = [...RING.slice(2, 4), ...RING.slice(0, 3)];
  assert.equal(boundaryMoved(plot, { type: 'Polygon', coordinates: [rotated] }), false);
});

test('points are compared by their distance; a point against a polygon has moved', () => {
  const a: PlotGeometry = { type: 'Point', coordinates: [-1.6, 6.7] };
  const b: PlotGeometry = { type: 'Point', coordinates: [-1.6 + eastDegrees(0.02), 6.7] };
  assert.ok(Math.abs(boundaryShiftM(a, b) - 0.02) < 0.0005);
  assert.equal(boundaryMoved(a, b), true);
  assert.equal(boundaryShiftM(a, plot), Infinity);
});

test('a boundary gained or lost counts as moved; none on either side does not', () => {
  assert.equal(boundaryMoved(null, plot), true);
  assert.equal(boundaryMoved(plot, null), true);
  assert.equal(boundaryMoved(null, null), false);
});
