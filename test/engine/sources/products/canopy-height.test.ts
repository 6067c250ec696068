import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canopyHeightHref, canopyHeightMetres, canopyHeightTile } from '../../../../src/engine/sources/products/canopy-height/codes.ts';
import { createCanopyHeightAdapter } from '../../../../src/engine/sources/products/canopy-height/reader.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { readWindow, readWindows } from '../../../support/read-windows.ts';
import { demoWorld, gdalPixel, mirrored, onDisk, windowPixel } from '../../../support/demo-world.ts';

const centre = (name: string) => DEMO_SITES.find((s) => s.name === name)!.centre;
const around = ([lon, lat]: [number, number], d = 0.002): [number, number, number, number] => [lon - d, lat - d, lon + d, lat + d];

test('ETH canopy tiles are named by their 3° south-west corner; 255 is no data', () => {
  assert.equal(canopyHeightTile(10.2, 1.4), 'N00E009');
  assert.equal(canopyHeightTile(-74.5, -2.1), 'S03W075');
  assert.ok(canopyHeightHref('N00E009', 'Map').endsWith('download?path=%2F3deg_cogs&files=ETH_GlobalCanopyHeight_10m_2020_N00E009_Map.tif'));
  assert.ok(Number.isNaN(canopyHeightMetres(255)));
  assert.equal(canopyHeightMetres(23), 23);
});

test('reads canopy height at a demo plot in metres, and the masked plot as no data', async () => {
  const { root } = await demoWorld();
  const eth = createCanopyHeightAdapter({ where: onDisk(root) });
  const [lon, lat] = centre('th-surat-thani-rubber');
  const { Map: height, Map_SD: sd } = (await eth.windows(around([lon, lat]), ['Map', 'Map_SD'])).layers;
  const [heights, sds] = await readWindows([height.request, sd.request]);
  const v = windowPixel(heights, lon, lat)[0];
  assert.deepEqual([v], gdalPixel(mirrored(root, canopyHeightHref(canopyHeightTile(lon, lat), 'Map')), lon, lat));
  assert.ok(v >= 9 && v <= 21, `rubber near 15 m, got ${v}`);
  assert.ok(windowPixel(sds, lon, lat)[0] > 0);
  assert.equal(height.encoding.nodata, 255);
  const [glon, glat] = centre('gh-dust-no-structure');
  const masked = (await eth.windows(around([glon, glat]), ['Map'])).layers.Map;
  assert.equal(windowPixel(await readWindow(masked.request), glon, glat)[0], masked.encoding.nodata);
  assert.equal(height.provenance.synthetic, true);
});
