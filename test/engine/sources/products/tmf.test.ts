import { test } from 'node:test';
import assert from 'node:assert/strict';
import { annualChangeDataset, isPlantationSubtype, tmfCovers, tmfHref, tmfTile } from '../../../../src/engine/sources/products/tmf/codes.ts';
import { createTmfAdapter } from '../../../../src/engine/sources/products/tmf/reader.ts';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpClient } from '../../../../src/engine/sources/http-client.ts';
import { startArchiveServer } from '../../../support/archive-server.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { readWindow, readWindows } from '../../../support/read-windows.ts';
import { demoWorld, gdalPixel, mirrored, onDisk, windowPixel } from '../../../support/demo-world.ts';

const centre = (name: string) => DEMO_SITES.find((s) => s.name === name)!.centre;
const around = ([lon, lat]: [number, number], d = 0.002): [number, number, number, number] => [lon - d, lat - d, lon + d, lat + d];

test('TMF tiles are tagged by their north-west corner and fetched by dataset', () => {
  assert.deepEqual(tmfTile(-75, -5), { lat: 'N0', lon: 'W80', id: 'N0_W80' });
  assert.deepEqual(tmfTile(40.5, 5), { lat: 'N10', lon: 'E40', id: 'N10_E40' });
  assert.deepEqual(tmfTile(20.2, -15), { lat: 'S10', lon: 'E20', id: 'S10_E20' });
  assert.equal(tmfHref(annualChangeDataset(2020), tmfTile(-75, -5)),
    'https://ies-ows.jrc.ec.europa.eu/iforce/tmf_v1/download.py?type=tile&dataset=AnnualChange_2020&lat=N0&lon=W80');
  assert.throws(() => annualChangeDataset(1989));
  assert.equal(tmfCovers(31), false);
  assert.deepEqual([80, 81, 86, 87].map(isPlantationSubtype), [false, true, true, false]);
});

test('reads the moist-forest record of a demo plot: class, deforestation year, and outside coverage', async () => {
  const { root } = await demoWorld();
  const tmf = createTmfAdapter({ where: onDisk(root), cacheDir: join(root, '..', 'unused-tmf-cache') });
  const [lon, lat] = centre('kh-kampong-cham-record');
  const read = await tmf.windows(around([lon, lat]), ['AnnualChange_2020', 'AnnualChange_2005', 'DeforestationYear']);
  assert.ok(read.checked);
  if (!read.checked) return;
  const [y2020, y2005, deforested] = await readWindows([read.layers.AnnualChange_2020.request, read.layers.AnnualChange_2005.request, read.layers.DeforestationYear.request]);
  assert.equal(windowPixel(y2020, lon, lat)[0], 3);
  assert.equal(windowPixel(y2005, lon, lat)[0], 1);
  assert.equal(windowPixel(deforested, lon, lat)[0], 2008);
  assert.deepEqual(await tmf.windows([10, 40, 10.01, 40.01], ['DeforestationYear']), { checked: false, available: false, reason: 'outside_coverage', tile: 'N50_E10' });
  const none = await tmf.windows([-40.01, -5.01, -40, -5], ['DeforestationYear']);
  assert.equal(none.checked, false);
  assert.equal(!none.checked && none.reason, 'no_tile');
});

test('downloads a whole tile once from a host without ranges and reads it from the disk cache', async () => {
  const { root } = await demoWorld();
  const cacheDir = await mkdtemp(join(tmpdir(), 'tmf-cache-'));
  const server = await startArchiveServer({ root, faults: { ignoreRange: { match: 'tmf_v1' } } });
  const http = createHttpClient({ retries: 0 });
  try {
    const tmf = createTmfAdapter({ where: { root: server.url, synthetic: true }, http, cacheDir });
    const [lon, lat] = centre('ci-tai-cleared-2022');
    const [a, b] = await Promise.all([tmf.windows(around([lon, lat]), ['DeforestationYear']), tmf.windows(around([lon, lat]), ['DeforestationYear'])]);
    assert.ok(a.checked && b.checked);
    if (!a.checked) return;
    assert.equal(windowPixel(await readWindow(a.layers.DeforestationYear.request), lon, lat)[0], 2022);
    const asked = server.requests().filter((r) => r.path.includes('DeforestationYear'));
    assert.equal(asked.length, 1, 'two plots asking at once made one download');
    assert.equal(asked[0].range, null);
    const again = await tmf.windows(around([lon, lat]), ['DeforestationYear']);
    assert.ok(again.checked);
    if (!again.checked) return;
    assert.equal(windowPixel(await readWindow(again.layers.DeforestationYear.request), lon, lat)[0], 2022);
    assert.equal(server.requests().filter((r) => r.path.includes('DeforestationYear')).length, 1, 'read again from disk');
    assert.ok((await readdir(join(cacheDir, 'tmf'), { recursive: true })).some((f) => f.endsWith('DeforestationYear_N10_W10.tif')));
  } finally {
    http.close();
    await server.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
});
