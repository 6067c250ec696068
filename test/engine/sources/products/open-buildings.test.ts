import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { buildSiteModel } from '../../../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../../../src/demo/world.ts';
import { toLonLat } from '../../../../src/demo/geometry.ts';
import { gsToHttps, manifestListingUrl, manifestNamesForYear, parseManifest, tilesTouching } from '../../../../src/engine/sources/products/open-buildings/codes.ts';
import { createOpenBuildingsAdapter } from '../../../../src/engine/sources/products/open-buildings/reader.ts';
import { transformer } from '../../../../src/engine/sources/reproject.ts';
import { readWindow } from '../../../support/read-windows.ts';
import { demoWorld, onDisk, windowPixel } from '../../../support/demo-world.ts';

test('manifest listing, names by year and tile extents follow the bucket layout', () => {
  assert.equal(manifestListingUrl('3b'), 'https://storage.googleapis.com/storage/v1/b/open-buildings-temporal-data/o?prefix=v1%2Fmanifests_merged_s2_level_2_float%2F3b_');
  assert.deepEqual(manifestNamesForYear({ items: [{ name: 'x/3b_a_2020_06_30.json' }, { name: 'x/3b_a_2016_06_30.json' }] }, 2020), ['x/3b_a_2020_06_30.json']);
  const tiles = parseManifest({
    uriPrefix: 'gs://open-buildings-temporal-data/',
    tilesets: [{ crs: 'EPSG:32647', sources: [{ uris: ['v1/geotiffs/t.tif'], affineTransform: { translateX: 100, translateY: 1000, scaleX: 0.5, scaleY: -0.5 }, dimensions: { width: 100, height: 40 } }] }],
  });
  assert.deepEqual(tiles, [{ href: 'https://storage.googleapis.com/open-buildings-temporal-data/v1/geotiffs/t.tif', epsg: 32647, bounds: [100, 980, 150, 1000] }]);
  assert.equal(tilesTouching(tiles, 32647, [140, 990, 160, 995]).length, 1);
  assert.equal(tilesTouching(tiles, 32647, [151, 990, 160, 995]).length, 0);
  assert.equal(gsToHttps('gs://b/k'), 'https://storage.googleapis.com/b/k');
});

test('reads building presence and height of a demo farmhouse in the years it stands', async () => {
  const { root } = await demoWorld();
  const ob = createOpenBuildingsAdapter({ where: onDisk(root) });
  const spec = DEMO_SITES.find((s) => s.name === 'th-surat-thani-rubber')!;
  const m = buildSiteModel(spec, DEMO_SEED);
  const house = spec.buildings![0];
  const [lon, lat] = toLonLat(m.frame, house.x, house.y);
  const box: [number, number, number, number] = [lon - 0.0005, lat - 0.0005, lon + 0.0005, lat + 0.0005];
  const y2020 = await ob.windows(box, 2020);
  assert.ok(y2020.coverage);
  if (!y2020.coverage) return;
  const [x, y] = transformer('EPSG:4326', y2020.epsg)(lon, lat);
  const [count, height, presence] = windowPixel(await readWindow(y2020.layers.bands.request), x, y);
  assert.ok(presence > 0.75 && Math.abs(height - house.heightM) < 2 && count > 0);
  const y2016 = await ob.windows(box, 2016);
  assert.ok(y2016.coverage);
  if (!y2016.coverage) return;
  assert.deepEqual(windowPixel(await readWindow(y2016.layers.bands.request), x, y), [0, 0, 0]);
  assert.equal((await ob.windows(box, 2012)).coverage, false);
});
