/** Clustering of alert pixels (spec 2.12, 8) on constructed pixel sets: touching, dates, diagonals, tile edges. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertClusters, type AlertPixels } from '../../../src/engine/kernels/alert-clusters.ts';
import { utcDay } from '../../../src/engine/kernels/days.ts';

const DEG = 0.0001;

/** Pixels at cells (i, j) of the 0.0001° grid from an origin cell, each with its date and level. */
function pixels(cells: Array<[number, number, string, number?]>, origin: [number, number] = [1_120_000, 8_500]): AlertPixels {
  const n = cells.length;
  const px: AlertPixels = { lon: new Float64Array(n), lat: new Float64Array(n), day: new Int32Array(n), level: new Uint8Array(n) };
  cells.forEach(([i, j, date, level = 2], k) => {
    // Centres as the source writes them, rounded to five decimals.
    px.lon[k] = Math.round((origin[0] + i + 0.5) * DEG * 1e5) / 1e5;
    px.lat[k] = Math.round((origin[1] + j + 0.5) * DEG * 1e5) / 1e5;
    px.day[k] = utcDay(date);
    px.level[k] = level;
  });
  return px;
}

const sizes = (px: AlertPixels) => alertClusters(px, DEG, 90).map((c) => c.pixels).sort((a, b) => a - b);

test('touching pixels detected within 90 days of one another are one alert', () => {
  assert.deepEqual(sizes(pixels([[0, 0, '2023-01-01'], [1, 0, '2023-04-01'], [1, 1, '2023-03-15']])), [3]);
});

test('touching pixels detected 91 days apart are two alerts', () => {
  assert.deepEqual(sizes(pixels([[0, 0, '2023-01-01'], [1, 0, '2023-04-02']])), [1, 1]);
});

test('diagonal neighbours touch, in both directions; a cell between them does not', () => {
  assert.deepEqual(sizes(pixels([[0, 0, '2023-01-01'], [1, 1, '2023-01-02']])), [2]);
  assert.deepEqual(sizes(pixels([[1, 0, '2023-01-01'], [0, 1, '2023-01-02']])), [2]);
  assert.deepEqual(sizes(pixels([[0, 0, '2023-01-01'], [2, 0, '2023-01-02'], [0, 2, '2023-01-02']])), [1, 1, 1]);
});

test('the last cell of a row does not touch the first cell of the next', () => {
  assert.deepEqual(sizes(pixels([[2, 0, '2023-01-01'], [0, 1, '2023-01-01']])), [1, 1]);
  assert.deepEqual(sizes(pixels([[0, 0, '2023-01-01'], [2, 1, '2023-01-01'], [2, 0, '2023-01-01']])), [1, 2]);
});

test('a cluster across a 10° tile edge of the source is one alert', () => {
  // Cells either side of 110° E and of 0° N: the source's tiles meet there.
  const px = pixels([[-1, -1, '2022-02-01'], [0, -1, '2022-02-03'], [-1, 0, '2022-02-05'], [0, 0, '2022-02-07']], [1_100_000, 0]);
  const [c] = alertClusters(px, DEG, 90);
  assert.equal(c.pixels, 4);
  assert.deepEqual(c.bbox.map((x) => Number(x.toFixed(6))), [109.9999, -0.0001, 110.0001, 0.0001]);
});

test('an alert reports its dates, strongest level, counts by level, area, centre and bounds', () => {
  const px = pixels([[0, 0, '2022-03-10', 1], [1, 0, '2022-03-01', 3], [2, 0, '2022-04-20', 2], [2, 1, '2022-04-01', 1], [9, 9, '2024-01-01', 1]]);
  const [a, b] = alertClusters(px, DEG, 90);
  assert.deepEqual([a.firstDay, a.lastDay, a.level, a.byLevel, a.pixels], [utcDay('2022-03-01'), utcDay('2022-04-20'), 3, [2, 1, 1], 4]);
  // A cell of 0.0001° near 0.85° N is about 11.13 m by 11.06 m.
  assert.ok(Math.abs(a.areaM2 / 4 - 123.1) < 0.5, `cell area ${a.areaM2 / 4}`);
  assert.ok(a.lon > a.bbox[0] && a.lon < a.bbox[2] && a.lat > a.bbox[1] && a.lat < a.bbox[3]);
  assert.equal(Number((a.bbox[2] - a.bbox[0]).toFixed(6)), 0.0003);
  assert.equal(b.pixels, 1);
  assert.equal(b.firstDay, utcDay('2024-01-01'));
});

test('pixels joined through a chain of neighbours each within 90 days are one alert; no pixels, no alerts', () => {
  assert.deepEqual(sizes(pixels([[0, 0, '2023-01-01'], [1, 0, '2023-03-15'], [2, 0, '2023-06-01'], [3, 0, '2023-08-20']])), [4]);
  assert.deepEqual(alertClusters(pixels([]), DEG, 90), []);
});

test('two pixels in one cell are one alert when within 90 days', () => {
  assert.deepEqual(sizes(pixels([[0, 0, '2023-01-01'], [0, 0, '2023-02-01']])), [2]);
  assert.deepEqual(sizes(pixels([[0, 0, '2023-01-01'], [0, 0, '2023-09-01']])), [1, 1]);
});
