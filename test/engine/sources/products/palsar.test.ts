import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSourceError } from '../../../../src/engine/sources/errors.ts';
import { createHttpClient } from '../../../../src/engine/sources/http-client.ts';
import { startArchiveServer } from '../../../support/archive-server.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { readWindow, readWindows } from '../../../support/read-windows.ts';
import { demoWorld, gdalPixel, mirrored, onDisk, windowPixel } from '../../../support/demo-world.ts';
import { DEAFRICA_MIRROR, PC_MIRROR, dnFromGamma0Db, gamma0Db, palsarNodata, palsarTile1, palsarTile5, palsarTileBounds, palsarYearExists } from '../../../../src/engine/sources/products/palsar/codes.ts';
import { PalsarUnavailableError, createPalsarAdapter } from '../../../../src/engine/sources/products/palsar/reader.ts';

test('γ⁰ dB is 10·log10(DN²) − 83', () => {
  assert.ok(Math.abs(gamma0Db(1000, 1) - (60 - 83)) < 1e-12);
  assert.ok(Math.abs(gamma0Db(5000, 1) - (10 * Math.log10(5000 * 5000) - 83)) < 1e-12);
  assert.ok(Number.isNaN(gamma0Db(0, 0)));
  assert.ok(Number.isNaN(gamma0Db(1, 1)));
});

test('a DN written for a backscatter reads back within the DN rounding', () => {
  for (const db of [-25, -18.3, -12.1, -7.5]) assert.ok(Math.abs(gamma0Db(dnFromGamma0Db(db), 1) - db) < 0.01);
});

test('nodata is 0 before 2017 and 1 from 2017 on, 0 for the mask', () => {
  assert.equal(palsarNodata(2016, 'HV'), 0);
  assert.equal(palsarNodata(2017, 'HV'), 1);
  assert.equal(palsarNodata(2020, 'mask'), 0);
});

test('mosaic years skip 2011–2014', () => {
  assert.deepEqual([2009, 2010, 2011, 2014, 2015, 2020].map(palsarYearExists), [true, true, false, false, true, true]);
});

test('tiles are named by their north-west corner and filed under the 5° tile', () => {
  assert.equal(palsarTile1(9.5, 1.5), 'N02E009');
  assert.equal(palsarTile1(72.3, -0.4), 'N00E072');
  assert.equal(palsarTile5(72.3, -0.4), 'N00E070');
  assert.equal(palsarTile1(-49.4, -20.6), 'S20W050');
  assert.deepEqual(palsarTileBounds('N00E072', 1), [72, -1, 73, 0]);
  assert.deepEqual(palsarTileBounds('N10W010', 5), [-10, 5, -5, 10]);
});

test('the two mirrors lay files out as their hosts do; only one covers Africa', () => {
  assert.equal(PC_MIRROR.href(72.3, -0.4, 2021, 'HV'), 'https://pceo.blob.core.windows.net/palsar/v200/alos_palsar_mosaic/2021/N00E070/N00E072_21_sl_HV_F02DAR.tif');
  assert.equal(DEAFRICA_MIRROR.href(-7.5, 6.0, 2019, 'HH'), 'https://deafrica-input-datasets.s3.af-south-1.amazonaws.com/alos_palsar_mosaic/2019/N10W010/N10W010_19_sl_HH_F02DAR.tif');
  assert.equal(DEAFRICA_MIRROR.href(-7.5, 6.0, 2009, 'HH').endsWith('N10W010_09_sl_HH.tif'), true);
  assert.equal(DEAFRICA_MIRROR.covers(-7.5, 6.0), true);
  assert.equal(DEAFRICA_MIRROR.covers(99.2, 9.0), false);
});

const centre = (name: string) => DEMO_SITES.find((s) => s.name === name)!.centre;
const around = ([lon, lat]: [number, number], d = 0.004): [number, number, number, number] => [lon - d, lat - d, lon + d, lat + d];

test('reads a demo mosaic from the first mirror and decodes DN to γ⁰ dB', async () => {
  const { root } = await demoWorld();
  const [lon, lat] = centre('ci-tai-cleared-2022');
  const read = await createPalsarAdapter({ where: onDisk(root) }).windows(around([lon, lat]), 2020);
  assert.equal(read.mirror, 'planetary-computer');
  assert.deepEqual(read.failedOver, []);
  assert.equal(read.nodata, 1);
  const [hv, mask] = await readWindows([read.layers.HV.request, read.layers.mask.request]);
  const dn = windowPixel(hv, lon, lat)[0];
  assert.deepEqual([dn], gdalPixel(mirrored(root, PC_MIRROR.href(lon, lat, 2020, 'HV')), lon, lat));
  const db = gamma0Db(dn, read.nodata);
  assert.ok(Math.abs(db - (20 * Math.log10(dn) - 83)) < 1e-12);
  assert.ok(db > -16 && db < -7, `forest HV near −11.5 dB, got ${db}`);
  assert.equal(windowPixel(mask, lon, lat)[0], 255);
  assert.equal(read.provenance.synthetic, true);
});

test('fails over to the second mirror when the first is down, names the mirror that served, and names every cause when both are down', async () => {
  const { root } = await demoWorld();
  const server = await startArchiveServer({ root, faults: { down: ['/pceo.blob.core.windows.net/'] } });
  const http = createHttpClient({ retries: 0 });
  try {
    const palsar = createPalsarAdapter({ where: { root: server.url, synthetic: true }, http });
    const [lon, lat] = centre('ci-tai-cleared-2022');
    const read = await palsar.windows(around([lon, lat]), 2019);
    assert.equal(read.mirror, 'deafrica');
    assert.equal(read.failedOver[0].mirror, 'planetary-computer');
    assert.deepEqual(windowPixel(await readWindow(read.layers.HV.request), lon, lat), gdalPixel(mirrored(root, DEAFRICA_MIRROR.href(lon, lat, 2019, 'HV')), lon, lat));
    // Outside Africa the second mirror holds nothing, so the read fails with both causes named.
    const [klon, klat] = centre('id-kalbar-rubber');
    await assert.rejects(palsar.windows(around([klon, klat]), 2019), (e: unknown) => e instanceof PalsarUnavailableError && e.causes.length === 1);
    // Both mirrors down over Africa (a year whose files were not opened yet): unavailable, with each mirror's cause.
    server.setFaults({ down: ['/pceo.blob.core.windows.net/', '/deafrica-input-datasets.s3.af-south-1.amazonaws.com/'] });
    await assert.rejects(palsar.windows(around([lon, lat]), 2020), (e: unknown) =>
      e instanceof PalsarUnavailableError && e.causes.map((c) => c.mirror).join() === 'planetary-computer,deafrica' && e.causes.every((c) => isSourceError(c.error, 'http_status')));
    server.setFaults({});
    assert.equal((await palsar.windows(around([klon, klat]), 2019)).mirror, 'planetary-computer');
  } finally {
    http.close();
    await server.close();
  }
});

test('refuses a year with no mosaic', async () => {
  await assert.rejects(createPalsarAdapter({ where: {} }).windows([0, 0, 0.1, 0.1], 2012), PalsarUnavailableError);
});
