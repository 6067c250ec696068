import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildingCells, buildingsInMask } from '../../../src/engine/kernels/building-cells.ts';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';

const BANDS = { count: 0, height: 1, presence: 2 };

/** Interleaved [count, height, presence] pixels of a width × height window. */
function window(width: number, height: number, at: (x: number, y: number) => [number, number, number]): Float32Array {
  const raw = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set(at(x, y), (y * width + x) * 3);
  return raw;
}

test('cells take the mean presence, the summed count and the greatest height of their pixels', () => {
  // 4 × 2 pixels into two 2 × 2 cells: the left cell's presence averages 0.5, the right one's 0.25.
  const raw = window(4, 2, (x, y) => (x < 2 ? [0.25, 3 + x + y, x === 0 ? 0.8 : 0.2] : [0.5, 9, y === 0 ? 0.5 : 0]));
  const cells = buildingCells({ raw, width: 4, height: 2, samplesPerPixel: 3, bands: BANDS, nodata: null, factor: 2, presenceThreshold: 0.4 });
  assert.deepEqual([cells.width, cells.height], [2, 1]);
  assert.deepEqual([...cells.valid], [1, 1]);
  assert.deepEqual([...cells.built], [1, 0]);
  assert.deepEqual([...cells.count], [1, 2]);
  assert.deepEqual([...cells.builtHeight], [5, -Infinity]);
});

test('no-data and NaN pixels are left out of a cell; a cell of no data is not valid', () => {
  const raw = window(4, 2, (x) => (x < 2 ? [1, 7, -1] : x === 2 ? [1, 4, Number.NaN] : [1, 2, 0.9]));
  const cells = buildingCells({ raw, width: 4, height: 2, samplesPerPixel: 3, bands: BANDS, nodata: -1, factor: 2, presenceThreshold: 0.4 });
  assert.deepEqual([...cells.valid], [0, 1]);
  // The right cell holds two pixels with data, of presence 0.9: its count is theirs only.
  assert.deepEqual([[...cells.built], [...cells.count], [...cells.builtHeight]], [[0, 1], [0, 2], [-Infinity, 2]]);
});

test('partial cells at the right and bottom edges are dropped', () => {
  const raw = window(5, 3, () => [1, 1, 1]);
  const cells = buildingCells({ raw, width: 5, height: 3, samplesPerPixel: 3, bands: BANDS, nodata: null, factor: 2, presenceThreshold: 0.4 });
  assert.deepEqual([cells.width, cells.height, [...cells.count]], [2, 1, [4, 4]]);
});

test('a mask counts its valid and built-up cells, their buildings, and the tallest built-up cell', () => {
  const raw = window(6, 2, (x) => [[0.5, 0.5, 2, 2, 1, 1][x], [10, 10, 30, 30, 4, 4][x], [0.9, 0.9, 0.1, 0.1, 0.6, 0.6][x]]);
  const cells = buildingCells({ raw, width: 6, height: 2, samplesPerPixel: 3, bands: BANDS, nodata: null, factor: 2, presenceThreshold: 0.4 });
  const r = buildingsInMask(cells, maskFromBits(Uint8Array.of(1, 1, 1), 3, 1));
  // The middle cell is the tallest but not built up: its height does not count.
  assert.deepEqual(r, { valid: 3, built: 2, count: 14, tallest: 10 });
  const none = buildingsInMask(cells, maskFromBits(Uint8Array.of(0, 1, 0), 3, 1));
  assert.deepEqual(none, { valid: 1, built: 0, count: 8, tallest: null });
  assert.deepEqual(buildingsInMask(cells, maskFromBits(new Uint8Array(3), 3, 1)), { valid: 0, built: 0, count: 0, tallest: null });
});
