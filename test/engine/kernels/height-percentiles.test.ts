import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heightPercentiles, type HeightLines } from '../../../src/engine/kernels/height-percentiles.ts';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';
import { operatingPoints } from '../../../src/engine/operating-points.ts';

const LINES: HeightLines = { cropLineM: 18, forestLineM: 25, minPixels: 20 };
const ETH = { scale: 1, offset: 0, nodata: 255 };

function linearQuantile(sorted: number[], q: number): number {
  const p = q * (sorted.length - 1);
  const k = Math.floor(p);
  return k + 1 < sorted.length ? sorted[k] + (p - k) * (sorted[k + 1] - sorted[k]) : sorted[k];
}

/** 20×20 window; the plot is every pixel but the last row. */
function window(height: (i: number) => number) {
  const heights = new Uint8Array(400);
  for (let i = 0; i < 400; i++) heights[i] = height(i);
  const inside = new Uint8Array(400).fill(1, 0, 380);
  return { mask: maskFromBits(inside, 20, 20), heights, encoding: ETH };
}

test('percentiles of whole-metre heights match numpy over the plot pixels', () => {
  let s = 3;
  const input = window(() => ((s = (s * 16807) % 2147483647), 5 + (s % 31)));
  const values = [...input.heights.subarray(0, 380)].sort((a, b) => a - b);
  const r = heightPercentiles(input, LINES);
  assert.equal(r.pixels, 380);
  assert.equal(r.median_m, linearQuantile(values, 0.5));
  assert.equal(r.p10_m, linearQuantile(values, 0.1));
  assert.equal(r.p90_m, linearQuantile(values, 0.9));
});

test('no-data pixels (255: built-up, water, snow) are not counted', () => {
  const r = heightPercentiles(window((i) => (i % 2 ? 255 : 12)), LINES);
  assert.equal(r.pixels, 190);
  assert.equal(r.median_m, 12);
});

test('a low canopy reads crop with confidence, a tall one forest; one between the lines is read but gives no answer', () => {
  const palm = heightPercentiles(window(() => 12), LINES);
  assert.deepEqual([palm.forest_like, palm.confident, palm.between_lines], [false, true, false]);
  const forest = heightPercentiles(window(() => 31), LINES);
  assert.deepEqual([forest.forest_like, forest.confident, forest.between_lines], [true, true, false]);
  const between = heightPercentiles(window(() => 21), LINES);
  assert.deepEqual([between.forest_like, between.confident, between.between_lines, between.median_m], [null, false, true, 21]);
  assert.match(between.refusal ?? '', /overlap in height, so its height cannot tell a crop from forest/);
});

test('16-bit heights in decimetres come back in metres, exact', () => {
  const heights = Uint16Array.from({ length: 400 }, (_, i) => (i % 4 === 0 ? 65535 : 100 + (i % 50) * 3));
  const values = [...heights.subarray(0, 380)].filter((v) => v !== 65535).map((v) => v * 0.1).sort((a, b) => a - b);
  const r = heightPercentiles({ ...window(() => 0), heights, encoding: { scale: 0.1, offset: 0, nodata: 65535 } }, LINES);
  assert.equal(r.pixels, values.length);
  for (const [got, q] of [[r.median_m, 0.5], [r.p10_m, 0.1], [r.p90_m, 0.9]] as const) {
    assert.ok(Math.abs((got as number) - linearQuantile(values, q)) < 1e-9, `q=${q}: ${got}`);
  }
});

test('float heights are binned at the width asked for', () => {
  const heights = Float32Array.from({ length: 400 }, (_, i) => 10 + (i % 10) * 0.25);
  const r = heightPercentiles({ mask: maskFromBits(new Uint8Array(400).fill(1), 20, 20), heights, encoding: { scale: 1, offset: 0, nodata: null }, binM: 0.05, maxM: 100 }, LINES);
  assert.ok(Math.abs((r.median_m as number) - 11.125) <= 0.025 + 1e-9, `${r.median_m}`);
});

test('too few pixels refuses with the readings kept; an empty mask has no value at all', () => {
  const input = window((i) => (i < 10 ? 14 : 255));
  const few = heightPercentiles(input, LINES);
  assert.equal(few.pixels, 10);
  assert.equal(few.median_m, 14);
  assert.equal(few.forest_like, null);
  assert.match(few.refusal as string, /too few/i);
  const empty = heightPercentiles({ ...input, mask: maskFromBits(new Uint8Array(400), 20, 20) }, LINES);
  assert.deepEqual([empty.median_m, empty.p10_m, empty.p90_m, empty.pixels, empty.forest_like], [null, null, null, 0, null]);
  assert.ok(empty.refusal);
});

test('under the lines in force, no canopy a forest type reaches is confirmed a crop: dry deciduous forest of 12 to 18 m, or rubber among them, gives no answer', () => {
  for (const m of [12, 15, 18, 21]) {
    const r = heightPercentiles(window(() => m), operatingPoints.height);
    assert.deepEqual([r.forest_like, r.confident, r.between_lines], [null, false, true], `${m} m`);
  }
  for (const type of Object.values(operatingPoints.forestTypes)) assert.ok(operatingPoints.height.cropLineM <= type.heightM[0]);
  const young = heightPercentiles(window(() => 6), operatingPoints.height);
  assert.deepEqual([young.forest_like, young.confident], [false, true], 'a young plantation under every forest type is a crop');
});
