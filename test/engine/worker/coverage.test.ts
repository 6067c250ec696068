// The share of the plot a window read: the plot's pixels are counted on the window's grid as if it
// reached the whole footprint, so a window clipped at the archive's edge reads as partly covered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverageShare, pixelsWithData } from '../../../src/engine/kernels/coverage.ts';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';
import { answerWhenCovered, plotPixelsOn, ringCoverage, windowCoverage } from '../../../src/engine/worker/coverage.ts';
import { type LonLatFootprint, maskFor, ringFor, type WorkerRaster } from '../../../src/engine/worker/raster-window.ts';

const PIXEL = 0.0001;
/** A 40 × 40 pixel square plot with its north-west corner at (10, 1). */
const square: LonLatFootprint = { type: 'Polygon', coordinates: [[[10, 1], [10.004, 1], [10.004, 0.996], [10, 0.996], [10, 1]]] };

/** A window of the 0.0001° grid whose north-west corner is `cols`, `rows` pixels east and south of (10, 1). */
function window(cols: number, rows: number, width: number, height: number, value = 1): WorkerRaster {
  return {
    raw: new Uint8Array(width * height).fill(value), width, height, samplesPerPixel: 1,
    geoTransform: [10 + cols * PIXEL, PIXEL, 0, 1 - rows * PIXEL, 0, -PIXEL], epsg: 4326, nodata: 0, scale: 1, offset: 0,
  };
}

test('pixels with data leave out nodata and NaN, and count a pixel once however many layers hold it', () => {
  const mask = maskFromBits(Uint8Array.from([1, 1, 1, 1, 0]), 5, 1);
  assert.equal(pixelsWithData(mask, [Uint16Array.from([0, 5, 0, 7, 9])], 0), 2);
  assert.equal(pixelsWithData(mask, [Uint16Array.from([0, 5, 0, 7, 9]), Uint16Array.from([3, 5, 0, 0, 0])], 0), 3);
  assert.equal(pixelsWithData(mask, [Float32Array.from([Number.NaN, 1, 2, 3, 4])], null), 3);
  assert.equal(coverageShare(3, 0), 0);
  assert.equal(coverageShare(2, 3), 0.6667);
});

test('a window clipped at the archive\'s edge covers only the plot\'s pixels inside it', () => {
  const whole = window(-5, -5, 50, 50);
  assert.equal(plotPixelsOn(whole, square), 1600);
  assert.equal(windowCoverage(whole, maskFor(whole, square), [whole.raw], 0, square), 1);
  // The archive ends 10 pixels into the plot: a quarter read.
  const clipped = window(-5, -5, 15, 50);
  assert.equal(plotPixelsOn(clipped, square), 1600);
  assert.equal(windowCoverage(clipped, maskFor(clipped, square), [clipped.raw], 0, square), 0.25);
  // Fill inside the window is no more read than ground beyond it.
  const filled = window(-5, -5, 50, 50, 0);
  assert.equal(windowCoverage(filled, maskFor(filled, square), [filled.raw], 0, square), 0);
});

test('a ring clipped at the archive\'s edge covers the share of the whole ring inside the window', () => {
  const whole = window(-60, -60, 160, 160);
  const ring = ringFor(maskFor(whole, square), whole, 0, 300);
  assert.ok(ringCoverage(whole, ring.count, square, 0, 300) > 0.99);
  // The western half of the window only.
  const west = window(-60, -60, 80, 160);
  const westRing = ringFor(maskFor(west, square), west, 0, 300);
  const share = ringCoverage(west, westRing.count, square, 0, 300);
  assert.ok(share > 0.45 && share < 0.55, `western half covers ${share}`);
});

test('an instrument that read under 95% of the plot does not answer, and says what share it read', () => {
  const reading = { forest_like: false, confident: true, refusal: null, median_m: 12 };
  assert.equal(answerWhenCovered(reading, 0.95, 'canopy-height map'), reading);
  const partial = answerWhenCovered(reading, 0.56, 'canopy-height map')!;
  assert.deepEqual([partial.forest_like, partial.confident, partial.median_m], [null, false, 12]);
  assert.match(partial.refusal!, /^The canopy-height map held data for 56% of the plot .*95% of the plot or more\.$/);
  // A reading that already refused keeps its own reason.
  const refused = { forest_like: null, confident: false, refusal: 'Too few pixels.' };
  assert.equal(answerWhenCovered(refused, 0.2, 'radar mosaics'), refused);
  assert.equal(answerWhenCovered(null, 0.2, 'radar mosaics'), null);
  const radar = answerWhenCovered({ forest_like: false, confident: false, polarimetry_cultivated: true, refusal: null }, 0.5, 'radar mosaics')!;
  assert.deepEqual([radar.forest_like, radar.polarimetry_cultivated], [null, null]);
});
