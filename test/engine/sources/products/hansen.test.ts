import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hansenHref, hansenTile, lossYear } from '../../../../src/engine/sources/products/hansen/codes.ts';
import { createHansenAdapter } from '../../../../src/engine/sources/products/hansen/reader.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { readWindows } from '../../../support/read-windows.ts';
import { demoWorld, gdalPixel, mirrored, onDisk, windowPixel } from '../../../support/demo-world.ts';

const centre = (name: string) => DEMO_SITES.find((s) => s.name === name)!.centre;
const around = ([lon, lat]: [number, number], d = 0.002): [number, number, number, number] => [lon - d, lat - d, lon + d, lat + d];

test('Hansen tiles are named by their upper-left corner, zero-padded; lossyear counts from 2000', () => {
  assert.equal(hansenTile(100.5, 5), '10N_100E');
  assert.equal(hansenTile(-65, -5), '00N_070W');
  assert.equal(hansenTile(-49.4, -20.6), '20S_050W');
  assert.equal(hansenHref('lossyear', '10N_100E'),
    'https://storage.googleapis.com/earthenginepartners-hansen/GFC-2025-v1.13/Hansen_GFC-2025-v1.13_lossyear_10N_100E.tif');
  assert.deepEqual([0, 1, 21, 25, 26].map(lossYear), [null, 2001, 2021, 2025, null]);
});

test('reads a demo plot cleared in 2022 as lossyear 22 over high tree cover in 2000', async () => {
  const { root } = await demoWorld();
  const hansen = createHansenAdapter({ where: onDisk(root) });
  const [lon, lat] = centre('ci-tai-cleared-2022');
  const read = (await hansen.windows(around([lon, lat]), ['lossyear', 'treecover2000', 'datamask'])).layers;
  const [lossyear, treecover2000, datamask] = await readWindows([read.lossyear.request, read.treecover2000.request, read.datamask.request]);
  const loss = windowPixel(lossyear, lon, lat)[0];
  assert.deepEqual([loss], gdalPixel(mirrored(root, hansenHref('lossyear', hansenTile(lon, lat))), lon, lat));
  assert.equal(lossYear(loss), 2022);
  assert.ok(windowPixel(treecover2000, lon, lat)[0] >= 90);
  assert.equal(windowPixel(datamask, lon, lat)[0], 1);
  assert.equal(read.lossyear.provenance.version, 'GFC-2025-v1.13');
});
