import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hilbertIndex, plotsAhead, spatialOrder } from '../../../src/engine/plan/plot-order.ts';

test('the Hilbert index fills the square at the origin first, each step moving to a neighbouring cell', () => {
  const side = 64;
  const cellAt = new Map<number, [number, number]>();
  for (let x = 0; x < side; x++) for (let y = 0; y < side; y++) cellAt.set(hilbertIndex(x, y), [x, y]);
  // The first side² positions of the curve are exactly the cells of the side × side square.
  assert.deepEqual([...cellAt.keys()].sort((a, b) => a - b), Array.from({ length: side * side }, (_, d) => d));
  for (let d = 1; d < side * side; d++) {
    const [ax, ay] = cellAt.get(d - 1)!;
    const [bx, by] = cellAt.get(d)!;
    assert.equal(Math.abs(ax - bx) + Math.abs(ay - by), 1, `step ${d} jumps from (${ax},${ay}) to (${bx},${by})`);
  }
});

test('plots given interleaved between two far-apart places are read place by place', () => {
  const here = (k: number) => ({ id: `a${k}`, lon: 101.5 + k * 0.001, lat: 2.0 + k * 0.0005 });
  const there = (k: number) => ({ id: `b${k}`, lon: -55.2 + k * 0.001, lat: -10.3 });
  const given = [here(0), there(0), here(1), there(1), here(2), there(2)];
  const ids = spatialOrder(given).map((p) => p.id);
  const firstB = ids.findIndex((id) => id.startsWith('b'));
  const runs = ids.filter((id, k) => k === 0 || id[0] !== ids[k - 1][0]).length;
  assert.equal(runs, 2, `read as ${ids.join(', ')}`);
  assert.ok(firstB === 0 || firstB === 3);
});

test('plots at one place keep the order they were given, so a resumed job reads on in the same order', () => {
  const given = ['p', 'q', 'r', 's'].map((id) => ({ id, lon: 30, lat: 5 }));
  assert.deepEqual(spatialOrder(given).map((p) => p.id), ['p', 'q', 'r', 's']);
  const book = Array.from({ length: 50 }, (_, k) => ({ id: `x${k}`, lon: Math.sin(k) * 10, lat: Math.cos(k * 3) * 5 }));
  const once = spatialOrder(book).map((p) => p.id);
  // Those left after the first twenty were read come back in the order they had.
  const left = new Set(once.slice(20));
  assert.deepEqual(spatialOrder(book.filter((p) => left.has(p.id))).map((p) => p.id), once.slice(20));
  assert.deepEqual(spatialOrder([]), []);
});

test('a job looks ahead along its plots: how many plots from where it is the next one in a place comes', () => {
  const plots = [[0, 0], [5, 5], [1, 1], [5, 5], [5, 5], [1.5, 1.5], [1.552, 0.5], [1.56, 0.5]].map(([lon, lat]) => ({ lon, lat }));
  let at = 0;
  const ahead = plotsAhead(plots, () => at);
  const place = [0.9, 0.4, 1.55, 1.6] as const;
  assert.equal(ahead(place), 2);
  at = 3;
  assert.equal(ahead(place), 2, 'plot 5, two after plot 3');
  at = 6;
  assert.equal(ahead(place), 0, 'a plot whose vertex lies just beside the place may reach into it');
  at = 7;
  assert.equal(ahead(place), Infinity, 'too far beside it, and none after');
});
