import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';
import { yearStats } from '../../../src/engine/kernels/year-stats.ts';

const all = (n: number) => maskFromBits(new Uint8Array(n).fill(1), n, 1);

test('calendar years split at the cutoff, with min, median and max on each side', () => {
  const years = Uint16Array.from([0, 0, 0, 0, 2003, 2011, 2011, 2020, 2021, 2023, 2024, 0]);
  const r = yearStats({ mask: all(12), years, yearOffset: 0, none: 0, noData: [], cutoffYear: 2020 });
  assert.equal(r.valid, 12);
  assert.equal(r.pixels_before, 4);
  assert.equal(r.pixels_from, 3);
  assert.equal(r.share_ever, 7 / 12);
  assert.equal(r.share_before, 4 / 12);
  assert.equal(r.share_from, 3 / 12);
  assert.deepEqual([r.year_min, r.year_median, r.year_max], [2003, 2020, 2024]);
  assert.deepEqual(r.before, { year_min: 2003, year_median: 2011, year_max: 2020 });
  assert.deepEqual(r.from, { year_min: 2021, year_median: 2023, year_max: 2024 });
});

test("Hansen's loss years 1..24 are offset from 2000, and no-data pixels leave the denominator", () => {
  const years = Uint8Array.from([0, 5, 21, 22, 255, 255]);
  const r = yearStats({ mask: all(6), years, yearOffset: 2000, none: 0, noData: [255], cutoffYear: 2020 });
  assert.equal(r.valid, 4);
  assert.equal(r.share_from, 2 / 4);
  assert.deepEqual(r.before, { year_min: 2005, year_median: 2005, year_max: 2005 });
  assert.deepEqual(r.from, { year_min: 2021, year_median: 2021, year_max: 2022 });
});

test('no event on one side answers null years there; an empty mask answers null everywhere', () => {
  const r = yearStats({ mask: all(3), years: Uint16Array.from([0, 2015, 2016]), yearOffset: 0, none: 0, noData: [], cutoffYear: 2020 });
  assert.deepEqual(r.from, { year_min: null, year_median: null, year_max: null });
  assert.equal(r.share_from, 0);
  const empty = yearStats({ mask: maskFromBits(new Uint8Array(3), 3, 1), years: Uint16Array.from([2015, 2016, 2017]), yearOffset: 0, none: 0, noData: [], cutoffYear: 2020 });
  assert.deepEqual([empty.valid, empty.share_ever, empty.year_median, empty.before.year_min], [0, null, null, null]);
});
