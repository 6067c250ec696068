import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bufferedClearMask } from '../../../src/engine/kernels/dilate-mask.ts';
import { qaPixelAnyBitLookup, qaPixelClearLookup, sclClearLookup } from '../../../src/engine/kernels/scene-stats.ts';

const W = 15;
const H = 15;
const CLEAR = sclClearLookup([4, 5, 6]);
const SPREAD = sclClearLookup([3, 8, 9, 10]);

/** A 15×15 SCL window of vegetation (4) with the given pixels set. */
function scl(set: Array<[x: number, y: number, cls: number]>): Uint8Array {
  const a = new Uint8Array(W * H).fill(4);
  for (const [x, y, c] of set) a[y * W + x] = c;
  return a;
}

const notClear = (m: Uint8Array) => [...m].flatMap((v, i) => (v === 0 ? [[i % W, Math.floor(i / W)]] : []));

test('the neighbours of a cloud pixel within the radius are not clear, and those beyond it are', () => {
  const m = bufferedClearMask({ classes: scl([[7, 7, 9]]), lookup: CLEAR, spread: SPREAD, width: W, height: H, radius: 2 });
  const expected: number[][] = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if ((x - 7) ** 2 + (y - 7) ** 2 <= 4) expected.push([x, y]);
  assert.deepEqual(notClear(m), expected);
  // Within the disc of radius 2: (9,7) and (8,8); outside it: (9,8) at √5 and (10,7).
  assert.equal(m[7 * W + 9], 0);
  assert.equal(m[8 * W + 8], 0);
  assert.equal(m[8 * W + 9], 1);
  assert.equal(m[7 * W + 10], 1);
});

test('cloud shadow, medium cloud and cirrus are buffered as high cloud is', () => {
  for (const cls of [3, 8, 10]) {
    const m = bufferedClearMask({ classes: scl([[2, 2, cls]]), lookup: CLEAR, spread: SPREAD, width: W, height: H, radius: 1 });
    assert.deepEqual(notClear(m), [[2, 1], [1, 2], [2, 2], [3, 2], [2, 3]], `class ${cls}`);
  }
});

test('a nodata edge is not dilated: the plot beside it stays clear', () => {
  const set: Array<[number, number, number]> = [];
  for (let y = 0; y < H; y++) set.push([0, y, 0], [1, y, 0]);
  const m = bufferedClearMask({ classes: scl(set), lookup: CLEAR, spread: SPREAD, width: W, height: H, radius: 3 });
  assert.deepEqual(notClear(m), set.map(([x, y]) => [x, y]).sort((a, b) => a[1] - b[1] || a[0] - b[0]));
});

test('with a radius of 0, or no cloud in the window, the mask is the clear lookup alone', () => {
  const classes = scl([[7, 7, 9], [0, 0, 0], [3, 3, 7]]);
  assert.deepEqual(notClear(bufferedClearMask({ classes, lookup: CLEAR, spread: SPREAD, width: W, height: H, radius: 0 })), [[0, 0], [3, 3], [7, 7]]);
  const noCloud = scl([[0, 0, 0], [3, 3, 7]]);
  assert.deepEqual(notClear(bufferedClearMask({ classes: noCloud, lookup: CLEAR, spread: SPREAD, width: W, height: H, radius: 4 })), [[0, 0], [3, 3]]);
});

test('the buffer reaches across the window edge from a cloud on it, and never wraps to the next row', () => {
  const m = bufferedClearMask({ classes: scl([[14, 5, 9]]), lookup: CLEAR, spread: SPREAD, width: W, height: H, radius: 1 });
  assert.deepEqual(notClear(m), [[14, 4], [13, 5], [14, 5], [14, 6]]);
  assert.equal(m[6 * W + 0], 1);
});

test('Landsat QA_PIXEL: a shadow word is buffered and a fill word is not', () => {
  const clearWord = (1 << 6) | (1 << 8);
  const shadow = (1 << 4) | (3 << 10);
  const classes = new Uint16Array(W * H).fill(clearWord);
  classes[7 * W + 7] = shadow;
  for (let y = 0; y < H; y++) classes[y * W] = 1; // fill down the first column
  const m = bufferedClearMask({ classes, lookup: qaPixelClearLookup([6], [0, 1, 2, 3, 4, 5]), spread: qaPixelAnyBitLookup([2, 4]), width: W, height: H, radius: 1 });
  assert.deepEqual(notClear(m).filter(([x]) => x > 0), [[7, 6], [6, 7], [7, 7], [8, 7], [7, 8]]);
  assert.equal(m[7 * W + 1], 1);
});

test('a window smaller than its classes claim is refused', () => {
  assert.throws(() => bufferedClearMask({ classes: new Uint8Array(10), lookup: CLEAR, spread: SPREAD, width: W, height: H, radius: 1 }), RangeError);
});
