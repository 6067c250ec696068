import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockDips, withDipBlocks } from '../../../src/engine/kernels/block-dips.ts';
import { blockCount, blockIndex, latticeOver, type LocalAffine, summariseBlocks } from '../../../src/engine/kernels/block-index.ts';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';
import { CLEAR_MASK_LOOKUP, SCENE_USABLE } from '../../../src/engine/kernels/scene-stats.ts';
import { addSceneBlocks, sceneBlockSums } from '../../../src/engine/kernels/scene-blocks.ts';
import { seasonalTroughs } from '../../../src/engine/kernels/seasonal-troughs.ts';

const LINES = { dipDepth: 0.15, minPixels: 8, unlikeDays: 30, unlikeDepth: 0.1 };
const SEASON_LINES = { dipDepth: 0.15, minObservations: 4, maxGapDays: 60, minSeasons: 3, phaseSdLimitDays: 30 };
const PART = { minHa: 0.5, minShare: 0.1 };
const day0 = Date.UTC(2016, 0, 1) / 86_400_000;
const ENDMEMBERS = { vegetation: [0.04, 0.5] as [number, number], soil: [0.25, 0.3] as [number, number] };

/**
 * Five years of scenes every 16 days over a 200 × 100 m plot of 10 m pixels: the west half winters
 * each February (NDVI 0.85 down to 0.25), the east half stays at 0.85, or winters too when `allDip`.
 */
function record(allDip: boolean) {
  const w = 20;
  const h = 10;
  const mask = maskFromBits(new Uint8Array(w * h).fill(1), w, h);
  const affine: LocalAffine = [0, 10, 0, 100, 0, -10];
  const lattice = latticeOver(200, 100, 100, 0);
  const blocks = blockIndex(mask, affine, lattice);
  const days: number[] = [];
  for (let d = day0; d < day0 + 5 * 365; d += 16) days.push(d);
  const sums = sceneBlockSums(days.length, blockCount(lattice));
  const plotNdvi: number[] = [];
  const reflectance = { scale: 1e-4, offset: 0, nodata: 0 };
  const clear = { classes: new Uint8Array(w * h).fill(1), lookup: CLEAR_MASK_LOOKUP };
  days.forEach((d, k) => {
    const doy = (d - day0) % 365;
    const winter = Math.exp(-0.5 * (Math.min(Math.abs(doy - 40), 365 - Math.abs(doy - 40)) / 25) ** 2);
    const dipped = 0.85 - 0.6 * winter;
    // NDVI (n − r)/(n + r) from red and near-infrared with n + r = 0.5.
    const band = (ndvi: number) => ({ red: Math.round(((0.5 * (1 - ndvi)) / 2) * 1e4), nir: Math.round(((0.5 * (1 + ndvi)) / 2) * 1e4) });
    const red = new Uint16Array(w * h);
    const nir = new Uint16Array(w * h);
    for (let i = 0; i < w * h; i++) {
      const b = band(i % w < 10 || allDip ? dipped : 0.85);
      red[i] = b.red;
      nir[i] = b.nir;
    }
    addSceneBlocks({ mask, blocks, red, nir, reflectance, clear, shade: ENDMEMBERS }, k, sums);
    plotNdvi.push(allDip ? dipped : (dipped + 0.85) / 2);
  });
  const series = { days: Float64Array.from(days), index: Float64Array.from(plotNdvi), flags: new Uint8Array(days.length).fill(SCENE_USABLE) };
  const troughs = seasonalTroughs(series, { start: day0, end: day0 + 5 * 365 - 1 }, SEASON_LINES);
  const answers = blockDips({ blocks, sums, days: series.days, usable: series.flags, seasons: troughs.seasons }, LINES);
  return { mask, affine, troughs, answers, sums };
}

test('each block\'s mean NDVI per scene is summed over its clear pixels', () => {
  const { sums } = record(false);
  assert.equal(sums.count[0], 100);
  assert.ok(Math.abs(sums.ndvi[1] / sums.count[1] - 0.85) < 1e-3, `${sums.ndvi[1] / sums.count[1]}`);
});

test('a half of the plot without the dip is found at the plot\'s troughs, and holds the plot\'s cycle', () => {
  const { mask, affine, troughs, answers } = record(false);
  assert.equal(troughs.cycle, 'phase_locked', 'the plot as a whole dips');
  assert.deepEqual([...answers.read.subarray(0, 2)], [1, 1]);
  assert.deepEqual([...answers.forest.subarray(0, 2)], [0, 1], 'the east block has no dip');
  const summary = summariseBlocks(mask, affine, [answers]);
  assert.equal(summary.forest_like_share, 0.5);
  const held = withDipBlocks(troughs, summary, PART);
  assert.deepEqual([held.cycle, held.phase_locked, held.part_without_dip], ['not_consistent', false, true]);
});

test('a plot that dips everywhere keeps its cycle', () => {
  const { mask, affine, troughs, answers } = record(true);
  assert.deepEqual([...answers.forest.subarray(0, 2)], [0, 0]);
  const kept = withDipBlocks(troughs, summariseBlocks(mask, affine, [answers]), PART);
  assert.deepEqual([kept.cycle, kept.phase_locked, kept.part_without_dip], ['phase_locked', true, false]);
  assert.deepEqual([withDipBlocks(troughs, null, PART).cycle], ['phase_locked'], 'no blocks read: the plot\'s cycle stands');
});

test('a block seen through too few clear pixels gives no answer', () => {
  const { troughs, answers, sums } = record(false);
  const strict = blockDips({ blocks: answers.blocks, sums, days: Float64Array.from({ length: sums.count.length / sums.blocks }, (_, k) => day0 + 16 * k), usable: new Uint8Array(sums.count.length / sums.blocks).fill(1), seasons: troughs.seasons }, { ...LINES, minPixels: 101 });
  assert.deepEqual([...strict.read.subarray(0, 2)], [0, 0]);
});
