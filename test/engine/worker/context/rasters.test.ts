import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PixelMask } from '../../../../src/engine/kernels/rasterise-mask.ts';
import { readPixels } from '../../../../src/engine/worker/context/rasters.ts';

// A 4 × 2 window whose every pixel is in the plot.
const whole: PixelMask = { width: 4, height: 2, inside: new Uint8Array(8).fill(1), spans: Int32Array.from([0, 4, 4, 8]), count: 8 };

test('a window read whole keeps the plot\'s pixels as they are', () => {
  assert.equal(readPixels(whole, 'k', undefined), whole);
  assert.equal(readPixels(whole, 'k', { other: [{ x: 0, y: 0, width: 1, height: 1 }] }), whole);
});

test('a window partly read keeps only the plot\'s pixels inside the rectangles its files filled', () => {
  const read = readPixels(whole, 'k', { k: [{ x: 0, y: 0, width: 2, height: 2 }, { x: 3, y: 1, width: 5, height: 5 }] });
  assert.equal(read.count, 5);
  assert.deepEqual([...read.spans], [0, 2, 4, 6, 7, 8]);
  assert.deepEqual([...read.inside], [1, 1, 0, 0, 1, 1, 0, 1]);
});
