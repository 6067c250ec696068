import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classShares } from '../../../src/engine/kernels/class-shares.ts';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';

const TMF = { undisturbed_forest: [1], degraded_forest: [2], deforested_land: [3], regrowth: [4], water: [5], other_land_cover: [6] };

test('shares are of classified pixels inside the mask; pixels with no class are dropped', () => {
  const classes = Uint8Array.from([1, 1, 1, 2, 3, 0, 0, 6, 1, 1]);
  const inside = Uint8Array.from([1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
  const r = classShares({ mask: maskFromBits(inside, 10, 1), classes, names: TMF, noClass: [0] });
  assert.equal(r.pixels, 8);
  assert.equal(r.classified, 6);
  assert.equal(r.counts.undisturbed_forest, 3);
  assert.equal(r.shares.undisturbed_forest, 0.5);
  assert.equal(r.shares.other_land_cover, 1 / 6);
  assert.equal(r.shares.water, 0);
});

test('a name gathers several class values, and unnamed classes still count in the total', () => {
  const classes = Uint16Array.from([81, 82, 86, 10, 10, 41, 300, 0]);
  const r = classShares({ mask: maskFromBits(new Uint8Array(8).fill(1), 8, 1), classes, names: { plantation: [81, 82, 83, 84, 85, 86], undisturbed: [10] }, noClass: [0] });
  assert.equal(r.classified, 7);
  assert.equal(r.shares.plantation, 3 / 7);
  assert.equal(r.shares.undisturbed, 2 / 7);
});

test('nothing classified gives null shares, never NaN', () => {
  const r = classShares({ mask: maskFromBits(Uint8Array.of(1, 1), 2, 1), classes: Uint8Array.of(0, 0), names: TMF, noClass: [0] });
  assert.equal(r.classified, 0);
  assert.equal(r.shares.undisturbed_forest, null);
  const empty = classShares({ mask: maskFromBits(Uint8Array.of(0, 0), 2, 1), classes: Uint8Array.of(1, 1), names: TMF, noClass: [0] });
  assert.deepEqual([empty.pixels, empty.classified, empty.shares.regrowth], [0, 0, null]);
});
