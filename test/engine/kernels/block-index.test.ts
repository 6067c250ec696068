import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockCount, blockIndex, forestPart, latticeOver, latticePair, type LocalAffine, summariseBlocks } from '../../../src/engine/kernels/block-index.ts';
import { heightBlocks, radarBlocks, shadeBlocks } from '../../../src/engine/kernels/block-readings.ts';
import { addSceneBlocks, sceneBlockSums } from '../../../src/engine/kernels/scene-blocks.ts';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';
import { CLEAR_MASK_LOOKUP } from '../../../src/engine/kernels/scene-stats.ts';

/** A north-up grid of `pitch` m pixels whose top-left corner lies at (x0, top) in the local frame. */
const northUp = (pitch: number, x0: number, top: number): LocalAffine => [x0, pitch, 0, top, 0, -pitch];
const full = (w: number, h: number) => maskFromBits(new Uint8Array(w * h).fill(1), w, h);
const FOREST_PART = { minHa: 0.5, minShare: 0.1 };
const HEIGHT_LINES = { forestLineM: 25, minPixels: 5, unlikeM: 5 };

test('the same ground gets the same block on every grid, whatever its pitch', () => {
  // Every 30 m pixel's centre is the centre of the middle 10 m pixel of the 3 × 3 under it.
  const lattice = latticeOver(300, 300, 100, 0);
  const fine = blockIndex(full(30, 30), northUp(10, 0, 300), lattice);
  const coarse = blockIndex(full(10, 10), northUp(30, 0, 300), lattice);
  for (let r = 0; r < 10; r++) for (let c = 0; c < 10; c++) assert.equal(coarse[r * 10 + c], fine[(3 * r + 1) * 30 + 3 * c + 1], `pixel ${c},${r}`);
  // Ids count from the south-west corner, east along a row of cells, then north.
  assert.equal(fine[29 * 30], 0);
  assert.equal(fine[29 * 30 + 29], 2);
  assert.equal(fine[0], 2 * lattice.cols);
});

test('pixels outside the plot have no block; centres past the lattice join its edge block', () => {
  const bits = new Uint8Array(16).fill(1);
  bits[5] = 0;
  const lattice = latticeOver(40, 40, 20, 0);
  // Pixel centres at x = −10, 0, 10, 20 and y = 40, 30, 20, 10: the west column lies past the lattice.
  const blocks = blockIndex(maskFromBits(bits, 4, 4), northUp(10, -15, 45), lattice);
  assert.equal(blocks[5], -1);
  assert.equal(blocks[12], 0, 'x −10, y 10: the south-west block');
  assert.equal(blocks[3], 2 * lattice.cols + 1, 'x 20, y 40');
  assert.ok(Math.max(...blocks) < blockCount(lattice));
  assert.equal(latticePair(40, 40, 20)[1].shiftM, 10);
});

/** A plot of `width` × 320 m on a 10 m grid with canopy heights from `tallAt(column)`. */
function heightPlot(width: number, tallAt: (c: number) => boolean) {
  const w = width / 10;
  const h = 32;
  const heights = Uint8Array.from({ length: w * h }, (_, i) => (tallAt(i % w) ? 30 : 15));
  const mask = full(w, h);
  const affine = northUp(10, 0, 320);
  const answers = latticePair(width, 320, 30).map((l) => heightBlocks({ mask, blocks: blockIndex(mask, affine, l), count: blockCount(l), heights, encoding: { scale: 1, offset: 0, nodata: 255 } }, HEIGHT_LINES));
  return { mask, affine, answers };
}

test('a 30 m strip of forest along a plot\'s edge is caught, however it falls on the lattice', () => {
  for (let width = 300; width <= 330; width += 10) {
    const w = width / 10;
    const { mask, affine, answers } = heightPlot(width, (c) => c >= w - 3);
    const s = summariseBlocks(mask, affine, answers);
    assert.ok(forestPart(s, FOREST_PART), `width ${width}: ${JSON.stringify(s)}`);
    assert.ok(s.forest_like_share! >= 3 / w && s.forest_like_share! <= 6 / w, `width ${width}: share ${s.forest_like_share}`);
    assert.ok(s.forest_like_offset_m![0] > 100 && Math.abs(s.forest_like_offset_m![1]) < 20, `the part lies east: ${s.forest_like_offset_m}`);
  }
});

test('a strip two pixels wide that one lattice splits in half is caught by the other', () => {
  // Columns 11 and 12 fall in two cells of the lattice at the origin (9–11 and 12–14)…
  const { mask, affine, answers } = heightPlot(300, (c) => c === 11 || c === 12);
  assert.equal(answers[0].forest.reduce((a, b) => a + b, 0), 0, 'the unshifted lattice misses it');
  // …and in one cell (10–12) of the lattice shifted by 15 m, read wherever it holds 5 pixels.
  assert.ok(answers[1].forest.some((f) => f === 1));
  const s = summariseBlocks(mask, affine, answers);
  assert.ok(s.forest_like_pixels >= 3 * 30 && s.forest_like_pixels <= 3 * 32, `${s.forest_like_pixels}`);
});

test('a plantation without tall blocks has no forest part, and a part under both the hectare and the tenth is not enough', () => {
  const none = heightPlot(300, () => false);
  const s = summariseBlocks(none.mask, none.affine, none.answers);
  assert.deepEqual([s.forest_like_pixels, s.forest_like_share, s.forest_like_offset_m, forestPart(s, FOREST_PART)], [0, 0, null, false]);
  // One 30 m cell column is 0.96 ha of 9.6: past 0.5 ha. Half a hectare or a tenth, whichever is smaller.
  const one = heightPlot(300, (c) => c >= 27);
  const t = summariseBlocks(one.mask, one.affine, one.answers);
  assert.equal(forestPart(t, { minHa: 1, minShare: 0.11 }), false);
  assert.equal(forestPart(t, { minHa: 0.9, minShare: 0.1 }), true);
  assert.equal(forestPart(t, { minHa: 5, minShare: 0.09 }), true);
});

test('a block with too few pixels does not answer', () => {
  const bits = new Uint8Array(9);
  bits[0] = bits[1] = bits[2] = bits[3] = 1;
  const mask = maskFromBits(bits, 3, 3);
  const l = latticeOver(30, 30, 30, 0);
  const a = heightBlocks({ mask, blocks: blockIndex(mask, northUp(10, 0, 30), l), count: blockCount(l), heights: new Uint8Array(9).fill(40), encoding: { scale: 1, offset: 0, nodata: 255 } }, HEIGHT_LINES);
  assert.deepEqual([a.read[0], a.forest[0]], [0, 0]);
});

test('shade per block reads forest-like only past the line by the margin, over clear pixels of every scene', () => {
  const mask = full(6, 3);
  const l = latticeOver(60, 30, 30, 0);
  const blocks = blockIndex(mask, northUp(10, 0, 30), l);
  const sums = sceneBlockSums(2, blockCount(l));
  const endmembers = { vegetation: [0.04, 0.5] as [number, number], soil: [0.25, 0.3] as [number, number] };
  // West: dark forest canopy (shade near 0.39); east: a leafless plantation (near 0.23).
  const red = Uint16Array.from({ length: 18 }, (_, i) => (i % 6 < 3 ? 300 : 1200));
  const nir = Uint16Array.from({ length: 18 }, () => 3000);
  const clear = Uint8Array.from({ length: 18 }, (_, i) => (i === 0 ? 0 : 1));
  for (let k = 0; k < 2; k++) addSceneBlocks({ mask, blocks, red, nir, reflectance: { scale: 1e-4, offset: 0, nodata: 0 }, clear: { classes: clear, lookup: CLEAR_MASK_LOOKUP }, shade: endmembers }, k, sums);
  assert.deepEqual([...sums.count], [8, 9, 0, 0, 0, 0, 8, 9, 0, 0, 0, 0], 'two scenes of six blocks, pixel 0 never clear');
  const a = shadeBlocks(blocks, sums, { shadeLine: 0.3, shadeMargin: 0.04, minPixels: 5, unlike: 0.08 });
  assert.deepEqual([...a.forest.subarray(0, 2)], [1, 0]);
  assert.deepEqual([...shadeBlocks(blocks, sums, { shadeLine: 0.36, shadeMargin: 0.04, minPixels: 5, unlike: 0.08 }).forest.subarray(0, 2)], [0, 0], 'near the line is not forest-like');
});

test('radar per block pools the years and clears the plot\'s own line by its margin', () => {
  const mask = full(8, 4);
  const l = latticeOver(200, 100, 100, 0);
  const blocks = blockIndex(mask, northUp(25, 0, 100), l);
  const dn = (db: number) => Math.round(Math.sqrt(10 ** ((db + 83) / 10)));
  // West block: forest HV (−11.5 dB) one year, nodata the other; east: plantation HV (−14.5 dB).
  const year = (west: number) => Uint16Array.from({ length: 32 }, (_, i) => (i % 8 < 4 ? west : dn(-14.5)));
  const hv = new Uint16Array(64);
  hv.set(year(dn(-11.5)), 0);
  hv.set(year(0), 32);
  const usable = { classes: new Uint8Array(64).fill(1), lookup: CLEAR_MASK_LOOKUP };
  const input = { mask, blocks, count: blockCount(l), years: 2, hv, nodata: 0, calibrationDb: 83, usable, baselineDb: -11.5, sigmaDb: 1 };
  const a = radarBlocks(input, { thresholdDb: -2, marginSigmas: 0.5, minPixels: 16, unlikeDb: 1.5 });
  assert.deepEqual([...a.read.subarray(0, 2)], [1, 1], 'the west block holds 16 looks, the east 32');
  assert.deepEqual([...a.forest.subarray(0, 2)], [1, 0]);
  assert.deepEqual([...radarBlocks(input, { thresholdDb: -2, marginSigmas: 0.5, minPixels: 17, unlikeDb: 1.5 }).read.subarray(0, 2)], [0, 1], 'the west block\'s second year was not read');
  assert.deepEqual([...radarBlocks(input, { thresholdDb: -1, marginSigmas: 1.5, minPixels: 16, unlikeDb: 1.5 }).forest.subarray(0, 2)], [0, 0], 'within the margin of its line: not forest-like');
});
