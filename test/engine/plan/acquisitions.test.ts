import { test } from 'node:test';
import { area, bboxPolygon, feature, featureCollection, intersect } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import assert from 'node:assert/strict';
import { boxCoverage, landsatPublication, onePerAcquisition, type Publication, SAME_ACQUISITION_MS, sentinel2Publication } from '../../../src/engine/plan/acquisitions.ts';
import { parseLandsatItem, processedOn } from '../../../src/engine/sources/products/landsat/codes.ts';
import { parseS2Item } from '../../../src/engine/sources/products/sentinel-2/codes.ts';
import type { Bbox } from '../../../src/engine/sources/reproject.ts';

const BOX: Bbox = [101.0, 3.0, 101.01, 3.01];
const square = (w: number, s: number, e: number, n: number) => ({ type: 'Polygon' as const, coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] });

/** An Earth Search v1 item of tile `tile`, sensed at `datetime`, under baseline `pb`, covering `geometry`. */
function s2Item(id: string, tile: string, datetime: string, pb: string, geometry: ReturnType<typeof square>) {
  return {
    id, collection: 'sentinel-2-l2a', geometry,
    properties: { datetime, platform: 'sentinel-2a', 'proj:epsg': 32647, 's2:mgrs_tile': tile, 's2:processing_baseline': pb, 'eo:cloud_cover': 10 },
    assets: { red: { href: `https://example.test/${id}/B04.tif` } },
  };
}

const pub = (over: Partial<Publication> & Pick<Publication, 'id'>): Publication => ({
  sensor: 'sentinel-2', platform: 'sentinel-2a', datetime: '2019-02-10T03:32:11Z', where: 'MGRS tile 47NPG',
  processing: { rank: 2.09, label: 'baseline 02.09' }, coverage: 1, ...over,
});

test('the same Sentinel-2 acquisition published in two overlapping MGRS tiles is read once, from the tile covering the plot', () => {
  // The plot box lies in the overlap's edge: 47NQG holds all of it, 47NPG only its western half.
  const full = parseS2Item(s2Item('S2A_47NQG_20190210_0_L2A', '47NQG', '2019-02-10T03:32:11.024Z', '02.09', square(100.9, 2.9, 101.9, 3.9)), 'earth-search-v1');
  const half = parseS2Item(s2Item('S2A_47NPG_20190210_0_L2A', '47NPG', '2019-02-10T03:32:14.500Z', '02.09', square(100.0, 2.9, 101.005, 3.9)), 'earth-search-v1');
  const next = parseS2Item(s2Item('S2A_47NQG_20190220_0_L2A', '47NQG', '2019-02-20T03:32:11.024Z', '02.09', square(100.9, 2.9, 101.9, 3.9)), 'earth-search-v1');
  const { kept, skipped } = onePerAcquisition([half, full, next].map((s) => sentinel2Publication(s, BOX)));
  assert.deepEqual(kept.map((k) => k.id), ['S2A_47NQG_20190210_0_L2A', 'S2A_47NQG_20190220_0_L2A']);
  assert.equal(skipped.length, 1);
  assert.equal(skipped[0].scene, 'S2A_47NPG_20190210_0_L2A');
  assert.equal(skipped[0].at, '2019-02-10');
  assert.match(skipped[0].why, /^the same acquisition as S2A_47NQG_20190210_0_L2A, published in MGRS tile 47NPG, which covers less of the plot \(50% against 100%\)$/);
});

test('a reprocessed Sentinel-2 item of the same tile and time is read once, under the newest baseline', () => {
  const old = parseS2Item(s2Item('S2A_47NQG_20190210_0_L2A', '47NQG', '2019-02-10T03:32:11.024Z', '02.09', square(100.9, 2.9, 101.9, 3.9)), 'earth-search-v1');
  const reprocessed = parseS2Item(s2Item('S2A_47NQG_20190210_1_L2A', '47NQG', '2019-02-10T03:32:11.024Z', '05.10', square(100.9, 2.9, 101.9, 3.9)), 'earth-search-v1');
  const { kept, skipped } = onePerAcquisition([old, reprocessed].map((s) => sentinel2Publication(s, BOX)));
  assert.deepEqual(kept.map((k) => k.id), ['S2A_47NQG_20190210_1_L2A']);
  assert.deepEqual(skipped, [{ scene: 'S2A_47NQG_20190210_0_L2A', at: '2019-02-10', why: 'reprocessed as S2A_47NQG_20190210_1_L2A (baseline 05.10)' }]);
});

test('coverage outranks processing: a newer baseline of a tile that misses the plot does not replace the one over it', () => {
  const { kept } = onePerAcquisition([
    pub({ id: 'over', coverage: 1, processing: { rank: 2.09, label: 'baseline 02.09' } }),
    pub({ id: 'beside', where: 'MGRS tile 47NQG', coverage: 0.3, processing: { rank: 5.1, label: 'baseline 05.10' } }),
  ]);
  assert.deepEqual(kept.map((k) => k.id), ['over']);
});

test('passes of another platform, another sensor or another orbit are separate acquisitions', () => {
  const t0 = Date.parse('2019-02-10T03:32:11Z');
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const items = [
    pub({ id: 'a' }),
    pub({ id: 'other-platform', platform: 'sentinel-2b' }),
    pub({ id: 'landsat', sensor: 'landsat', platform: 'landsat-8', where: 'WRS-2 path/row 127058' }),
    pub({ id: 'next-orbit', datetime: at(100 * 60_000) }),
    pub({ id: 'just-outside', datetime: at(SAME_ACQUISITION_MS + 1000), where: 'MGRS tile 47NQG' }),
  ];
  assert.deepEqual(onePerAcquisition(items).kept.map((k) => k.id), items.map((i) => i.id));
});

test('an item that does not name its platform joins the acquisition sensed at its time', () => {
  const { kept, skipped } = onePerAcquisition([pub({ id: 'named', coverage: 1 }), pub({ id: 'unnamed', platform: null, coverage: 0.4, where: 'MGRS tile 47NQG' })]);
  assert.deepEqual(kept.map((k) => k.id), ['named']);
  assert.equal(skipped[0].scene, 'unnamed');
});

test('the same item published twice with nothing to choose between them keeps one and says so', () => {
  const { kept, skipped } = onePerAcquisition([pub({ id: 'x-0' }), pub({ id: 'x-1' })]);
  assert.deepEqual(kept.map((k) => k.id), ['x-1']);
  assert.equal(skipped[0].why, 'the same acquisition as x-1, published twice');
});

test('a Landsat scene in two overlapping WRS-2 rows, and reprocessed, is read once: the covering row, the newest processing', () => {
  const item = (id: string, row: string, datetime: string, processed: string, geometry: ReturnType<typeof square>) => parseLandsatItem({
    id, geometry,
    properties: { datetime, platform: 'landsat-8', 'proj:epsg': 32647, 'landsat:wrs_path': '127', 'landsat:wrs_row': row },
    assets: { red: { href: `https://example.test/LC08_L2SP_127${row}_20190214_${processed}_02_T1_SR_B4.TIF` } },
  });
  const row57 = item('LC08_L2SP_127057_20190214_02_T1', '057', '2019-02-14T03:41:03Z', '20190221', square(100.5, 2.5, 101.5, 3.5));
  const row58 = item('LC08_L2SP_127058_20190214_02_T1', '058', '2019-02-14T03:41:27Z', '20190221', square(100.5, 3.005, 101.5, 4.5));
  const row57again = item('LC08_L2SP_127057_20190214_02_T1-r', '057', '2019-02-14T03:41:03Z', '20200905', square(100.5, 2.5, 101.5, 3.5));
  assert.equal(row57again.processed, '2020-09-05');
  const { kept, skipped } = onePerAcquisition([row57, row58, row57again].map((s) => landsatPublication(s, BOX)));
  assert.deepEqual(kept.map((k) => k.id), ['LC08_L2SP_127057_20190214_02_T1-r']);
  assert.deepEqual(skipped.map((s) => [s.scene, s.why]), [
    ['LC08_L2SP_127057_20190214_02_T1', 'reprocessed as LC08_L2SP_127057_20190214_02_T1-r (processed 2020-09-05)'],
    ['LC08_L2SP_127058_20190214_02_T1', 'the same acquisition as LC08_L2SP_127057_20190214_02_T1-r, published in WRS-2 path/row 127058, which covers less of the plot (50% against 100%)'],
  ]);
});

test('box coverage: whole, half, none, and an item without a footprint taken as whole', () => {
  assert.equal(boxCoverage(square(100, 2, 102, 4), BOX), 1);
  assert.ok(Math.abs(boxCoverage(square(100, 2, 101.005, 4), BOX) - 0.5) < 0.01);
  assert.equal(boxCoverage(square(102, 2, 103, 4), BOX), 0);
  assert.equal(boxCoverage(null, BOX), 1);
  // A box without area has nothing to share out, even beside a footprint that misses it.
  assert.equal(boxCoverage(square(102, 2, 103, 4), [101, 3, 101, 3.5]), 1);
  assert.equal(boxCoverage(square(102, 2, 103, 4), [Number.NaN, 3, 101, 3.5]), 1);
});

test('box coverage answered from the edges equals the clipped share: boxes inside, outside, across edges, in a notch and in a hole', () => {
  // An L-shaped footprint with a hole, and a second square far off.
  const footprint: MultiPolygon = {
    type: 'MultiPolygon',
    coordinates: [
      [[[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 0]], [[0.2, 0.2], [0.6, 0.2], [0.6, 0.6], [0.2, 0.6], [0.2, 0.2]]],
      [[[5, 5], [6, 5], [6, 6], [5, 6], [5, 5]]],
    ],
  };
  const clipped = (box: Bbox) => {
    const b = bboxPolygon(box);
    const common = intersect(featureCollection([b, feature(footprint as Polygon | MultiPolygon)]));
    return common === null ? 0 : Math.min(1, area(common) / area(b));
  };
  const cases: Array<[string, Bbox, number]> = [
    ['inside the first polygon', [0.7, 0.1, 0.8, 0.2], 1],
    ['inside the second polygon', [5.1, 5.1, 5.2, 5.2], 1],
    ['in the notch of the L, within its bounding box', [1.3, 1.3, 1.5, 1.5], 0],
    ['in the hole', [0.3, 0.3, 0.4, 0.4], 0],
    ['far outside', [3, 3, 3.1, 3.1], 0],
    ['across the outer edge', [1.9, 0.4, 2.1, 0.6], 0.5],
    ['across the hole\'s edge', [0.5, 0.3, 0.7, 0.5], 0.5],
    ['holding the whole hole', [0.1, 0.1, 0.7, 0.7], 1 - 0.16 / 0.36],
  ];
  for (const [what, box, share] of cases) {
    assert.ok(Math.abs(boxCoverage(footprint, box) - share) < 0.01, `${what}: ${boxCoverage(footprint, box)}`);
    assert.ok(Math.abs(boxCoverage(footprint, box) - clipped(box)) < 1e-9, `${what}: as clipped`);
  }
  // Boxes placed all over the footprint, some touching its vertices and edges exactly.
  for (let x = -0.25; x < 2.25; x += 0.25) {
    for (let y = -0.25; y < 2.25; y += 0.25) {
      for (const size of [0.05, 0.2, 0.5]) {
        const box: Bbox = [x, y, x + size, y + size];
        assert.ok(Math.abs(boxCoverage(footprint, box) - clipped(box)) < 1e-9, `box ${box.join(', ')}`);
      }
    }
  }
});

test('the processing date is read from a Collection 2 product id, and absent from a name without one', () => {
  assert.equal(processedOn('https://x/LC09_L2SP_089090_20240417_20240418_02_T1/LC09_L2SP_089090_20240417_20240418_02_T1_SR_B4.TIF'), '2024-04-18');
  assert.equal(processedOn('https://x/LC09_L2SP_089090_20240417_02_T1_SR_B4.TIF'), null);
});
