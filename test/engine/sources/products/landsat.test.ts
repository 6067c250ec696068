import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  QA_PIXEL_BITS, QA_PIXEL_CLEAR_LAND, QA_PIXEL_CLOUD, QA_PIXEL_SHADOW, landsatAssetHref, landsatDn, landsatItemId, landsatReflectance,
  parseLandsatItem, qaPixelConfidence, qaPixelIsClear,
} from '../../../../src/engine/sources/products/landsat.ts';

test('SR is DN × 2.75e-05 − 0.2 with nodata 0', () => {
  assert.ok(Math.abs(landsatReflectance(10000) - 0.075) < 1e-12);
  assert.ok(Number.isNaN(landsatReflectance(0)));
  assert.ok(Math.abs(landsatReflectance(landsatDn(0.0421)) - 0.0421) < 2e-5);
});

test('QA_PIXEL: the usual clear land word 21824 is clear; cloud, shadow, fill and snow are not', () => {
  assert.equal(QA_PIXEL_CLEAR_LAND, 21824);
  assert.equal(qaPixelIsClear(21824), true);
  assert.equal(qaPixelIsClear(QA_PIXEL_CLOUD), false);
  assert.equal(qaPixelIsClear(QA_PIXEL_SHADOW), false);
  assert.equal(qaPixelIsClear(1), false);
  assert.equal(qaPixelIsClear(QA_PIXEL_CLEAR_LAND | QA_PIXEL_BITS.SNOW), false);
  assert.equal(qaPixelIsClear(QA_PIXEL_CLEAR_LAND | QA_PIXEL_BITS.WATER), true);
  assert.equal(qaPixelConfidence(QA_PIXEL_CLOUD, 'cloud'), 'high');
  assert.equal(qaPixelConfidence(QA_PIXEL_CLEAR_LAND, 'cloud'), 'low');
  assert.equal(qaPixelConfidence(QA_PIXEL_SHADOW, 'cloud_shadow'), 'high');
});

test('ids and blob addresses follow the Planetary Computer layout', () => {
  assert.equal(landsatItemId('LC09', 89, 90, '2024-04-17'), 'LC09_L2SP_089090_20240417_02_T1');
  assert.equal(
    landsatAssetHref('LC09', 89, 90, '2024-04-17', '2024-04-18', 'red'),
    'https://landsateuwest.blob.core.windows.net/landsat-c2/level-2/standard/oli-tirs/2024/089/090/LC09_L2SP_089090_20240417_20240418_02_T1/LC09_L2SP_089090_20240417_20240418_02_T1_SR_B4.TIF',
  );
  assert.ok(landsatAssetHref('LE07', 1, 2, '2016-01-01', '2016-01-20', 'red').endsWith('_SR_B3.TIF'));
  assert.ok(landsatAssetHref('LC08', 1, 2, '2016-01-01', '2016-01-20', 'qa_pixel').endsWith('_QA_PIXEL.TIF'));
});

test('parses a landsat-c2-l2 item with raster:bands', () => {
  const s = parseLandsatItem({
    id: 'LC09_L2SP_089090_20240417_02_T1',
    properties: { datetime: '2024-04-17T23:50:00Z', 'proj:epsg': 32655, 'landsat:wrs_path': '089', 'landsat:wrs_row': '090', 'eo:cloud_cover': 12 },
    assets: {
      red: { href: 'https://x/SR_B4.TIF', 'raster:bands': [{ scale: 2.75e-5, offset: -0.2, nodata: 0 }] },
      qa_pixel: { href: 'https://x/QA_PIXEL.TIF', 'raster:bands': [{ nodata: 1 }] },
    },
  });
  assert.equal(s.tile, '089090');
  assert.equal(s.assets.red?.encoding.offset, -0.2);
  assert.equal(s.assets.qa_pixel?.encoding.nodata, 1);
});
