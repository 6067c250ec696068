import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { transformer } from '../../../../src/engine/sources/reproject.ts';
import { readWindows } from '../../../support/read-windows.ts';
import { demoWorld, gdalPixel, mirrored, onDisk, windowPixel } from '../../../support/demo-world.ts';
import { QA_PIXEL_BITS, QA_PIXEL_CLEAR_LAND, QA_PIXEL_CLOUD, QA_PIXEL_SHADOW, landsatAssetHref, landsatDn, landsatItemId, landsatReflectance, parseLandsatItem, qaPixelConfidence } from '../../../../src/engine/sources/products/landsat/codes.ts';
import { createLandsatAdapter } from '../../../../src/engine/sources/products/landsat/reader.ts';
import { qaPixelClearLookup } from '../../../../src/engine/kernels/scene-stats.ts';
import { operatingPoints as op } from '../../../../src/engine/operating-points.ts';

test('SR is DN × 2.75e-05 − 0.2 with nodata 0', () => {
  assert.ok(Math.abs(landsatReflectance(10000) - 0.075) < 1e-12);
  assert.ok(Number.isNaN(landsatReflectance(0)));
  assert.ok(Math.abs(landsatReflectance(landsatDn(0.0421)) - 0.0421) < 2e-5);
});

// Clear as the plot task reads QA_PIXEL: the operating points' required and rejected bits.
const clearWords = qaPixelClearLookup(op.scenes.landsatQaRequiredBits, op.scenes.landsatQaRejectedBits);
const qaPixelIsClear = (v: number) => clearWords[v] === 1;

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

const kalbar = DEMO_SITES.find((s) => s.name === 'id-kalbar-rubber')!.centre;

test('finds a demo site\'s Landsat scenes and reads SR and QA_PIXEL at a known pixel', async () => {
  const { root } = await demoWorld();
  const landsat = createLandsatAdapter({ where: onDisk(root) });
  const [lon, lat] = kalbar;
  const box: [number, number, number, number] = [lon - 0.001, lat - 0.001, lon + 0.001, lat + 0.001];
  const scenes = await landsat.search({ bbox: box, start: '2016-01-01', end: '2020-12-31', maxCloudCover: 5 });
  assert.ok(scenes.length > 5);
  const scene = scenes[0];
  const read = await landsat.sceneWindows(scene, box, ['red', 'nir08', 'qa_pixel']);
  const [redPixels, , qaPixels] = await readWindows([read.red.request, read.nir08.request, read.qa_pixel.request]);
  const [x, y] = transformer('EPSG:4326', scene.epsg)(lon, lat);
  const qa = windowPixel(qaPixels, x, y)[0];
  assert.equal(qaPixelIsClear(qa), true);
  const red = windowPixel(redPixels, x, y)[0];
  assert.deepEqual([red], gdalPixel(mirrored(root, scene.assets.red!.href), lon, lat));
  const enc = read.red.encoding;
  assert.ok(Math.abs(red * enc.scale + enc.offset - landsatReflectance(red)) < 1e-12);
  assert.ok(landsatReflectance(red) > 0 && landsatReflectance(red) < 0.15, 'rubber is dark in red');
  assert.equal(read.red.provenance.synthetic, true);
});
