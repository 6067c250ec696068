import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demColumns, demHref, demTile } from '../../../../src/engine/sources/products/copernicus-dem/codes.ts';
import { createDemAdapter } from '../../../../src/engine/sources/products/copernicus-dem/reader.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { readWindow } from '../../../support/read-windows.ts';
import { demoWorld, gdalPixel, mirrored, onDisk, windowPixel } from '../../../support/demo-world.ts';

const centre = (name: string) => DEMO_SITES.find((s) => s.name === name)!.centre;
const around = ([lon, lat]: [number, number], d = 0.002): [number, number, number, number] => [lon - d, lat - d, lon + d, lat + d];

test('Copernicus DEM tiles are named by their lower-left corner; columns thin toward the poles', () => {
  assert.equal(demTile(-79.5, 0.5), 'Copernicus_DSM_COG_10_N00_00_W080_00_DEM');
  assert.equal(demTile(-179.5, -89.5), 'Copernicus_DSM_COG_10_S90_00_W180_00_DEM');
  assert.equal(demHref('Copernicus_DSM_COG_10_N00_00_W080_00_DEM'),
    'https://copernicus-dem-30m.s3.amazonaws.com/Copernicus_DSM_COG_10_N00_00_W080_00_DEM/Copernicus_DSM_COG_10_N00_00_W080_00_DEM.tif');
  assert.deepEqual([demColumns(5.5), demColumns(49.5), demColumns(50.5), demColumns(-50.5), demColumns(-89.5)], [3600, 3600, 2400, 2400, 360]);
});

test('reads heights of a demo tile with the pixel size in metres, and no tile as null', async () => {
  const { root } = await demoWorld();
  const dem = createDemAdapter({ where: onDisk(root) });
  const [lon, lat] = centre('kh-kampong-cham-record');
  const read = (await dem.windows(around([lon, lat])))!;
  const h = windowPixel(await readWindow(read.layers.heights.request), lon, lat)[0];
  assert.deepEqual([h], gdalPixel(mirrored(root, demHref(demTile(lon, lat))), lon, lat));
  assert.ok(Math.abs(h - 80) < 5, `about 80 m, got ${h}`);
  assert.ok(Math.abs(read.pixelHeightM - 30.87) < 0.2 && read.pixelWidthM > 29 && read.pixelWidthM < 31);
  assert.equal(await dem.windows([-30.01, 0.01, -30.0, 0.02]), null);
});
