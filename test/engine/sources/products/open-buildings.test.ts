import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { buildSiteModel } from '../../../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../../../src/demo/world.ts';
import { toLonLat } from '../../../../src/demo/geometry.ts';
import { gsToHttps, manifestListingUrl, manifestNamesForYear, parseManifest, tilesTouching } from '../../../../src/engine/sources/products/open-buildings/codes.ts';
import { createOpenBuildingsAdapter } from '../../../../src/engine/sources/products/open-buildings/reader.ts';
import { transformer } from '../../../../src/engine/sources/reproject.ts';
import { readCogWindow, readWindow } from '../../../support/read-windows.ts';
import { CELL_SUMS, gatherCellSums, judgeCells } from '../../../../src/engine/kernels/building-cells.ts';
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

/** The adapter over the demo world, and a demo farmhouse: where it stands and a box of `half` degrees each side of it. */
async function farmhouse(half: number) {
  const { root } = await demoWorld();
  const ob = createOpenBuildingsAdapter({ where: onDisk(root) });
  const spec = DEMO_SITES.find((s) => s.name === 'th-surat-thani-rubber')!;
  const house = spec.buildings![0];
  const [lon, lat] = toLonLat(buildSiteModel(spec, DEMO_SEED).frame, house.x, house.y);
  const box: [number, number, number, number] = [lon - half, lat - half, lon + half, lat + half];
  return { ob, house, lon, lat, box };
}

test('reads building presence and height of a demo farmhouse in the years it stands', async () => {
  const { ob, house, lon, lat, box } = await farmhouse(0.0005);
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

test('read as 2 m cells, a window holds its tiles\' pixels gathered once a tile, the sums its pixels give', async () => {
  const { ob, box } = await farmhouse(0.0015);
  const [asCells, asPixels] = await Promise.all([ob.windows(box, 2020, undefined, 2), ob.windows(box, 2020)]);
  assert.ok(asCells.coverage && asPixels.coverage);
  if (!asCells.coverage || !asPixels.coverage) return;
  assert.deepEqual([asCells.cells, asPixels.cells], [true, false]);
  const cellsRequest = asCells.layers.bands.request;
  const cog = asPixels.layers.bands.request.cog;
  // The cells' ground in the file's pixels: four a cell side, from the file's first pixel.
  const cw = cellsRequest.window;
  const x0 = cw.x0 * 4;
  const y0 = cw.y0 * 4;
  const window = { x0, y0, width: Math.min(cw.width * 4, cog.width - x0), height: Math.min(cw.height * 4, cog.height - y0) };
  const [cells, pixels] = await Promise.all([readWindow(cellsRequest), readCogWindow(cog, window)]);
  assert.deepEqual([cells.width, cells.height, cells.samplesPerPixel], [cw.width, cw.height, CELL_SUMS]);
  assert.deepEqual(cells.geoTransform, [cog.geoTransform[0] + x0 * cog.geoTransform[1], cog.geoTransform[1] * 4, 0, cog.geoTransform[3] + y0 * cog.geoTransform[5], 0, cog.geoTransform[5] * 4]);
  const bands = { count: 0, height: 1, presence: 2 };
  const gathered = gatherCellSums({ raw: pixels.raw, stride: window.width, width: window.width, height: window.height, samplesPerPixel: 3, bands, nodata: cog.nodata, factor: 4 });
  assert.deepEqual([...cells.raw], [...gathered.sums]);
  // The farmhouse stands in some cells, built up there; the demo file holds data in every cell.
  const judged = judgeCells(cells.raw, cells.width, cells.height, 0.4);
  assert.ok(judged.built.some((b) => b === 1));
  assert.ok(judged.valid.every((v) => v === 1));
});
