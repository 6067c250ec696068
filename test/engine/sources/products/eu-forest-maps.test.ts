import { test } from 'node:test';
import assert from 'node:assert/strict';
import { euForestTile, gfc2020Href, gft2020Href } from '../../../../src/engine/sources/products/eu-forest-maps/codes.ts';
import { createEuForestMapsAdapter } from '../../../../src/engine/sources/products/eu-forest-maps/reader.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { readWindows } from '../../../support/read-windows.ts';
import { demoWorld, gdalPixel, mirrored, onDisk, windowPixel } from '../../../support/demo-world.ts';

const centre = (name: string) => DEMO_SITES.find((s) => s.name === name)!.centre;
const around = ([lon, lat]: [number, number], d = 0.002): [number, number, number, number] => [lon - d, lat - d, lon + d, lat + d];

test('GFC2020/GFT2020 tiles are tagged by their north-west corner without padding', () => {
  assert.equal(euForestTile(-5.75, 6.95), 'N10_W10');
  assert.equal(euForestTile(0.5, -0.5), 'N0_E0');
  assert.equal(euForestTile(25, -12), 'S10_E20');
  assert.equal(gfc2020Href('N10_W10'), 'https://jeodpp.jrc.ec.europa.eu/ftp/jrc-opendata/FOREST/GFC2020/LATEST/tiles/JRC_GFC2020_V3_N10_W10.tif');
  assert.equal(gft2020Href('S30_E140'), 'https://jeodpp.jrc.ec.europa.eu/ftp/jrc-opendata/FOREST/GFT2020/LATEST/tiles/JRC_GFT2020_V1_S30_E140.tif');
});

test('reads both 2020 maps over a demo plot; 0 stays a value (not forest), never missing', async () => {
  const { root } = await demoWorld();
  const maps = createEuForestMapsAdapter({ where: onDisk(root) });
  const [lon, lat] = centre('kh-kampong-cham-record');
  const { gfc2020, gft2020 } = (await maps.windows(around([lon, lat], 0.003))).layers;
  assert.equal(gfc2020.encoding.nodata, null);
  const [cover, types2020] = await readWindows([gfc2020.request, gft2020.request]);
  const values = new Set(Array.from(cover.raw));
  assert.deepEqual([...values].sort(), [0, 1]);
  const types = new Set(Array.from(types2020.raw));
  assert.ok(types.has(1) && types.has(10), 'naturally regenerating on the plot, primary around it');
  assert.deepEqual([windowPixel(cover, lon, lat)[0]], gdalPixel(mirrored(root, gfc2020Href(euForestTile(lon, lat))), lon, lat));
});
