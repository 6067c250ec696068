import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lossInRing } from '../../../src/engine/kernels/loss-in-ring.ts';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';

// Loss-year values 1..3 count, 0 (no loss) and 4 do not.
const COUNTS = Uint8Array.from({ length: 256 }, (_, v) => (v >= 1 && v <= 3 ? 1 : 0));

/** A 4 × 2 window whose two rows weigh 10 and 20 m² a pixel. */
const ROWS = Float64Array.of(10, 20);
const all = maskFromBits(new Uint8Array(8).fill(1), 4, 2);

test('lost area is weighed by each row\'s pixel area, over dense canopy only', () => {
  const r = lossInRing({
    ring: all,
    rowAreaM2: ROWS,
    lossyear: Uint8Array.of(1, 2, 0, 4, 3, 3, 1, 0),
    lossCounts: COUNTS,
    treecover: Uint8Array.of(50, 10, 50, 50, 30, 29, 80, 80),
    minTreecoverPct: 30,
    land: null,
  });
  // Row 0: pixel 0 counts (pixel 1 sparse, 2 no loss, 3 a year not counted); row 1: pixels 4 and 6.
  assert.deepEqual([r.land_pixels, r.loss_pixels, r.land_m2, r.loss_m2], [8, 3, 120, 10 + 40]);
  assert.equal(r.loss_share, 50 / 120);
});

test('with a land mask, only land pixels count, in the denominator as in the loss', () => {
  const r = lossInRing({
    ring: all,
    rowAreaM2: ROWS,
    lossyear: new Uint8Array(8).fill(2),
    lossCounts: COUNTS,
    treecover: new Uint8Array(8).fill(90),
    minTreecoverPct: 30,
    land: { classes: Uint8Array.of(1, 2, 1, 0, 1, 1, 2, 2), value: 1 },
  });
  assert.deepEqual([r.land_pixels, r.loss_pixels, r.land_m2, r.loss_m2, r.loss_share], [4, 4, 60, 60, 1]);
});

test('only the ring\'s pixels are read', () => {
  const ring = maskFromBits(Uint8Array.of(0, 1, 1, 0, 0, 0, 0, 1), 4, 2);
  const r = lossInRing({ ring, rowAreaM2: ROWS, lossyear: new Uint8Array(8).fill(1), lossCounts: COUNTS, treecover: new Uint8Array(8).fill(90), minTreecoverPct: 30, land: null });
  assert.deepEqual([r.land_pixels, r.land_m2, r.loss_m2], [3, 40, 40]);
});

test('a ring without land gives no share, never NaN', () => {
  const empty = lossInRing({ ring: maskFromBits(new Uint8Array(8), 4, 2), rowAreaM2: ROWS, lossyear: new Uint8Array(8), lossCounts: COUNTS, treecover: new Uint8Array(8), minTreecoverPct: 30, land: null });
  assert.deepEqual([empty.land_pixels, empty.land_m2, empty.loss_share], [0, 0, null]);
  const water = lossInRing({ ring: all, rowAreaM2: ROWS, lossyear: new Uint8Array(8).fill(1), lossCounts: COUNTS, treecover: new Uint8Array(8).fill(90), minTreecoverPct: 30, land: { classes: new Uint8Array(8).fill(2), value: 1 } });
  assert.deepEqual([water.land_m2, water.loss_m2, water.loss_share], [0, 0, null]);
});
