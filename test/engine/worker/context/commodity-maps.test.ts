import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskFromBits } from '../../../../src/engine/kernels/rasterise-mask.ts';
import { oilPalmYopValue } from '../../../../src/engine/sources/products/commodity-maps/codes.ts';
import { oilPalmNotRead, rubberNotRead } from '../../../../src/engine/context/commodity-maps.ts';
import { readOilPalm, readRubber } from '../../../../src/engine/worker/context/commodity-maps.ts';

const all = (n: number) => maskFromBits(new Uint8Array(n).fill(1), n, 1);
const fill = (counts: Array<[number, number]>) => counts.flatMap(([v, n]) => Array<number>(n).fill(v));

function palm(extent: number[], years: number[]) {
  const plantingDays = Uint16Array.from(years, (y) => (y === 0 ? 0 : oilPalmYopValue(y)));
  return readOilPalm({ extentMask: all(extent.length), extent: Uint8Array.from(extent), yearMask: all(years.length), plantingDays, coverage: 1, citation: 'Descals et al. 2024' });
}

test('oil palm: industrial and smallholder shares of 2021, median planting year, planted by 2020', () => {
  const r = palm(fill([[1, 6], [2, 2], [0, 2]]), fill([[2004, 3], [2006, 2], [2021, 1], [0, 4]]));
  assert.deepEqual(r.block, {
    available: true, outside_coverage: false, planted_by_2020: true, median_planting_year: 2004,
    industrial_2021: 0.6, smallholder_2021: 0.2, citation: 'Descals et al. 2024', coverage: 1,
  });
  assert.equal(r.by2020, 0.5);
});

test('palm planted only after 2020, or on a tenth of the plot, is not planted by 2020', () => {
  assert.equal(palm(fill([[1, 10]]), fill([[2021, 10]])).block.planted_by_2020, false);
  assert.equal(palm(fill([[1, 10]]), fill([[2010, 1], [0, 9]])).block.planted_by_2020, false);
  const none = palm(fill([[0, 10]]), fill([[0, 10]])).block;
  assert.deepEqual([none.planted_by_2020, none.median_planting_year, none.industrial_2021], [false, null, 0]);
});

test('rubber: the share mapped as rubber, outside_coverage outside Southeast Asia, never a zero for an unread map', () => {
  const r = readRubber({ mask: all(10), classes: Uint8Array.from(fill([[2, 7], [1, 2], [0, 1]])), coverage: 1, citation: 'Wang et al. 2023' });
  assert.deepEqual(r.block, { available: true, outside_coverage: false, rubber_2020: 0.7, coverage: 1, citation: 'Wang et al. 2023' });
  const outside = rubberNotRead('Wang et al. 2023', { kind: 'outside_coverage', why: 'the plot lies in Brazil' });
  assert.deepEqual([outside.outside_coverage, outside.rubber_2020], [true, null]);
  const unreadable = rubberNotRead('Wang et al. 2023', { kind: 'unreadable', why: 'no mirror of the map is configured' });
  assert.deepEqual([unreadable.available, unreadable.outside_coverage, unreadable.rubber_2020], [false, false, null]);
  const palmOutside = oilPalmNotRead('Descals et al. 2024', { kind: 'outside_coverage', why: 'no grid cell' });
  assert.deepEqual([palmOutside.outside_coverage, palmOutside.planted_by_2020, palmOutside.industrial_2021], [true, null, null]);
});

test('maps read over under 95% of the plot give no share: the unread part is neither "no palm" nor "not rubber"', () => {
  const rubber = readRubber({ mask: all(10), classes: Uint8Array.from(fill([[0, 10]])), coverage: 0.6, citation: 'Wang et al. 2023' }).block;
  assert.deepEqual([rubber.available, rubber.rubber_2020, rubber.coverage], [false, null, 0.6]);
  assert.match(rubber.note!, /data for 60% of the plot/);
  const plantingDays = Uint16Array.from(fill([[2004, 10]]), (y) => oilPalmYopValue(y));
  const palm = readOilPalm({ extentMask: all(10), extent: Uint8Array.from(fill([[1, 10]])), yearMask: all(10), plantingDays, coverage: 0.94, citation: 'Descals et al. 2024' });
  assert.deepEqual([palm.block.available, palm.block.planted_by_2020, palm.block.industrial_2021, palm.by2020], [false, null, null, null]);
});
