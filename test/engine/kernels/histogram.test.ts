import { test } from 'node:test';
import assert from 'node:assert/strict';
import { histogramQuantile } from '../../../src/engine/kernels/histogram.ts';

// numpy's default (linear) quantile over a sorted array, as the reference.
function linearQuantile(sorted: number[], q: number): number {
  const p = q * (sorted.length - 1);
  const k = Math.floor(p);
  return k + 1 < sorted.length ? sorted[k] + (p - k) * (sorted[k + 1] - sorted[k]) : sorted[k];
}

function countInts(values: number[], bins: number): Uint32Array {
  const counts = new Uint32Array(bins);
  for (const v of values) counts[v]++;
  return counts;
}

test('integer values counted in unit bins give numpy-linear quantiles exactly', () => {
  let seed = 7;
  const values: number[] = [];
  for (let i = 0; i < 501; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    values.push(seed % 40);
  }
  const counts = countInts(values, 40);
  const sorted = [...values].sort((a, b) => a - b);
  for (const q of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]) {
    assert.equal(histogramQuantile(counts, values.length, q, -0.5, 1), linearQuantile(sorted, q), `q=${q}`);
  }
});

test('interpolates across empty bins between two order statistics', () => {
  const counts = countInts([2, 9], 12);
  assert.equal(histogramQuantile(counts, 2, 0.5, -0.5, 1), 5.5);
});

test('without interpolation answers the lower order statistic, a value that was counted', () => {
  const counts = countInts([2003, 2007, 2011, 2019].map((y) => y - 2000), 30);
  assert.equal(histogramQuantile(counts, 4, 0.5, 1999.5, 1, false), 2007);
});
