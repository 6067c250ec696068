import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BOA_OFFSET, SCL, aotFromDn, dnFromReflectance, earthSearchV1AssetHref, earthSearchV1ItemId, inferBoaOffset, parseS2Item, processingBaseline, reflectanceEncoding, reflectanceFromDn, settleReflectanceEncoding, type StacItemLike } from '../../../../src/engine/sources/products/sentinel-2/codes.ts';
import { createSentinel2Adapter } from '../../../../src/engine/sources/products/sentinel-2/reader.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { writeCog } from '../../../../src/demo/tiff-writer.ts';
import { mirrorPath } from '../../../../src/engine/sources/products/archive-url.ts';
import { readWindow, readWindows } from '../../../support/read-windows.ts';
import { demoWorld, gdalPixel, mirrored, onDisk, windowPixel } from '../../../support/demo-world.ts';
import { transformer } from '../../../../src/engine/sources/reproject.ts';
import { sclClearLookup } from '../../../../src/engine/kernels/scene-stats.ts';
import { operatingPoints as op } from '../../../../src/engine/operating-points.ts';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);

test('Earth Search v1 before baseline 04.00 carries no offset', () => {
  const enc = reflectanceEncoding('earth-search-v1', '02.14', { scale: 0.0001, offset: 0, nodata: 0 }, undefined);
  close(reflectanceFromDn(1234, enc), 0.1234);
  assert.equal(enc.verifyWithPixels, false);
});

test('Earth Search v1 with boa_offset_applied true ignores the stated −0.1 offset', () => {
  const enc = reflectanceEncoding('earth-search-v1', '05.09', { scale: 0.0001, offset: -0.1, nodata: 0 }, true);
  close(reflectanceFromDn(1234, enc), 0.1234);
  assert.equal(enc.declaredOffset, -0.1);
  assert.equal(enc.verifyWithPixels, true);
});

test('Earth Search v1 with boa_offset_applied false applies the −0.1 offset', () => {
  const enc = reflectanceEncoding('earth-search-v1', '04.00', { scale: 0.0001, offset: -0.1, nodata: 0 }, false);
  close(reflectanceFromDn(1234, enc), 0.0234);
});

test('Earth Search c1 follows raster:bands whatever a flag says', () => {
  const enc = reflectanceEncoding('earth-search-c1', '05.10', { scale: 0.0001, offset: -0.1, nodata: 0 }, true);
  close(reflectanceFromDn(2000, enc), 0.1);
  assert.equal(enc.verifyWithPixels, false);
});

test('Planetary Computer subtracts 1000 DN from baseline 04.00 on and nothing before', () => {
  close(reflectanceFromDn(1500, reflectanceEncoding('planetary-computer', '05.10', undefined, undefined)), 0.05);
  close(reflectanceFromDn(1500, reflectanceEncoding('planetary-computer', '03.01', undefined, undefined)), 0.15);
});

test('a missing processing baseline is read from the acquisition date', () => {
  assert.equal(processingBaseline({}, '2022-01-24T10:00:00Z'), '02.14');
  assert.equal(processingBaseline({}, '2022-01-25T10:00:00Z'), '04.00');
  assert.equal(processingBaseline({ 's2:processing_baseline': '05.09' }, '2018-01-01T00:00:00Z'), '05.09');
});

test('nodata DN 0 has no reflectance', () => {
  assert.ok(Number.isNaN(reflectanceFromDn(0, reflectanceEncoding('earth-search-c1', '05.10', { scale: 0.0001, offset: -0.1, nodata: 0 }, undefined))));
});

function vegetationBlue(withOffset: boolean, n = 1000): Uint16Array {
  const a = new Uint16Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.round((0.02 + (i % 50) * 0.001) * 10000) + (withOffset ? 1000 : 0);
  return a;
}

test('the pixel check finds the offset still in the pixels and overrules a wrong "applied" flag', () => {
  const dn = vegetationBlue(true);
  assert.equal(inferBoaOffset(dn), 'offset_in_pixels');
  const enc = reflectanceEncoding('earth-search-v1', '05.09', { scale: 0.0001, offset: -0.1, nodata: 0 }, true);
  const settled = settleReflectanceEncoding(enc, inferBoaOffset(dn));
  assert.equal(settled.flagOverruled, true);
  close(reflectanceFromDn(dn[0], settled), 0.02);
});

test('the pixel check finds the offset removed and overrules a wrong "not applied" flag', () => {
  const dn = vegetationBlue(false);
  assert.equal(inferBoaOffset(dn), 'offset_removed');
  const enc = reflectanceEncoding('earth-search-v1', '05.09', { scale: 0.0001, offset: -0.1, nodata: 0 }, false);
  const settled = settleReflectanceEncoding(enc, inferBoaOffset(dn));
  assert.equal(settled.flagOverruled, true);
  close(reflectanceFromDn(dn[0], settled), 0.02);
});

test('the pixel check keeps a right flag and stays undecided over too few pixels or bright ground', () => {
  const enc = reflectanceEncoding('earth-search-v1', '05.09', { scale: 0.0001, offset: -0.1, nodata: 0 }, true);
  assert.equal(settleReflectanceEncoding(enc, inferBoaOffset(vegetationBlue(false))).flagOverruled, false);
  assert.equal(inferBoaOffset(vegetationBlue(false, 50)), 'undecided');
  const bright = new Uint16Array(500).fill(1000).map((_, i) => (i < 10 ? 900 : 3000));
  assert.equal(inferBoaOffset(bright), 'undecided');
  assert.equal(inferBoaOffset(new Uint16Array(500)), 'undecided');
});

test('DN written for a reflectance reads back under the same encoding', () => {
  const enc = { scale: 0.0001, offset: BOA_OFFSET, nodata: 0 };
  close(reflectanceFromDn(dnFromReflectance(0.0312, enc), enc), 0.0312);
  assert.equal(dnFromReflectance(-0.5, enc), 1);
});

test('SCL clear classes are vegetation, bare soil and water; AOT is DN × 0.001', () => {
  // Clear as the plot task reads SCL: the operating points' classes.
  const clear = sclClearLookup(op.scenes.sclClearClasses);
  assert.deepEqual([...clear.keys()].filter((k) => clear[k] === 1), [SCL.VEGETATION, SCL.BARE_SOIL, SCL.WATER]);
  assert.deepEqual([SCL.VEGETATION, SCL.BARE_SOIL, SCL.WATER], [4, 5, 6]);
  close(aotFromDn(250), 0.25);
  assert.ok(Number.isNaN(aotFromDn(0)));
});

test('Earth Search v1 ids and COG addresses follow the real layout', () => {
  const id = earthSearchV1ItemId('sentinel-2a', '39QTA', '2023-06-28');
  assert.equal(id, 'S2A_39QTA_20230628_0_L2A');
  assert.equal(
    earthSearchV1AssetHref('39QTA', '2023-06-28', id, 'red'),
    'https://sentinel-cogs.s3.us-west-2.amazonaws.com/sentinel-s2-l2a-cogs/39/Q/TA/2023/6/S2A_39QTA_20230628_0_L2A/B04.tif',
  );
});

test('parses Earth Search and Planetary Computer item shapes', () => {
  const es: StacItemLike = {
    id: 'S2A_39QTA_20230628_0_L2A',
    properties: {
      datetime: '2023-06-28T07:06:53Z', 'eo:cloud_cover': 3.2, 'proj:epsg': 32639, 'grid:code': 'MGRS-39QTA',
      's2:processing_baseline': '05.09', 'earthsearch:boa_offset_applied': true, platform: 'sentinel-2a',
    },
    assets: {
      red: { href: 'https://x/B04.tif', 'raster:bands': [{ scale: 0.0001, offset: -0.1, nodata: 0 }] },
      scl: { href: 'https://x/SCL.tif', 'raster:bands': [{ nodata: 0 }] },
      aot: { href: 'https://x/AOT.tif', 'raster:bands': [{ scale: 0.001, offset: 0, nodata: 0 }] },
    },
  };
  const s = parseS2Item(es, 'earth-search-v1');
  assert.equal(s.tile, '39QTA');
  assert.equal(s.epsg, 32639);
  assert.equal(s.boaOffsetApplied, true);
  assert.equal(s.assets.red?.encoding.offset, 0);
  assert.equal(s.assets.aot?.encoding.scale, 0.001);
  const pc: StacItemLike = {
    id: 'S2B_MSIL2A_20240419T095549_R122_T47XML_20240419T123458',
    properties: { datetime: '2024-04-19T09:55:49Z', 'proj:epsg': 32647, 's2:mgrs_tile': '47XML', 's2:processing_baseline': '05.10' },
    assets: { B04: { href: 'https://blob/T47XML_20240419T095549_B04_10m.tif' }, SCL: { href: 'https://blob/SCL_20m.tif' } },
  };
  const p = parseS2Item(pc, 'planetary-computer');
  assert.equal(p.tile, '47XML');
  assert.equal(p.assets.red?.encoding.offset, -0.1);
  assert.equal(p.assets.scl?.href, 'https://blob/SCL_20m.tif');
  assert.throws(() => parseS2Item({ ...pc, properties: { datetime: '2024-01-01' } }, 'planetary-computer'), /proj:epsg/);
});




const site = DEMO_SITES.find((s) => s.name === 'id-kalbar-rubber')!;
const [lon, lat] = site.centre;
const box: [number, number, number, number] = [lon - 0.001, lat - 0.001, lon + 0.001, lat + 0.001];

test('finds a demo site\'s Earth Search scenes and reads a known pixel under each BOA case', async () => {
  const { root, manifest } = await demoWorld();
  const s2 = createSentinel2Adapter({ catalogue: 'earth-search-v1', where: onDisk(root) });
  const scenes = await s2.search({ bbox: box, start: '2016-01-01', end: '2025-12-31' });
  const records = manifest.sentinel2.filter((r) => r.site === site.name);
  assert.equal(scenes.length, records.length);
  const cases = {
    wrongFlagOffsetIn: records.find((r) => r.offsetInPixels && r.flag),
    wrongFlagOffsetOut: records.find((r) => !r.offsetInPixels && !r.flag && r.date >= '2022-01-25'),
    early: records.find((r) => r.date < '2021-01-01' && r.sky === 'clear'),
  };
  for (const [name, rec] of Object.entries(cases)) {
    assert.ok(rec, name);
    const scene = scenes.find((s) => s.id === rec.id)!;
    // The pixel check reads blue beside red, and the plot task settles the encoding as here.
    const stated = scene.assets.red!.reflectance!;
    const check = stated.verifyWithPixels && scene.assets.blue !== undefined;
    const read = await s2.sceneWindows(scene, box, check ? ['red', 'nir', 'scl', 'blue'] : ['red', 'nir', 'scl']);
    const [red, blue] = await readWindows([read.red.request, ...(check ? [read.blue.request] : [])]);
    const enc = settleReflectanceEncoding(stated, check ? inferBoaOffset(blue.raw, stated.nodata ?? 0) : 'undecided');
    const [x, y] = transformer('EPSG:4326', scene.epsg)(lon, lat);
    const raw = windowPixel(red, x, y)[0];
    const file = mirrored(root, scene.assets.red!.href);
    assert.deepEqual([raw], gdalPixel(file, lon, lat), `${name}: same DN as GDAL`);
    const expected = (raw - (rec.offsetInPixels ? 1000 : 0)) * 0.0001;
    assert.ok(Math.abs(raw * enc.scale + enc.offset - expected) < 1e-9, `${name}: reflectance with the offset settled`);
    assert.equal(enc.flagOverruled, name !== 'early', name);
    assert.equal(read.red.provenance.synthetic, true);
    assert.match(read.red.provenance.attribution, /Copernicus Sentinel data 20\d\d/);
  }
});

test('reads a Planetary Computer item: no raster:bands, 1000 DN subtracted from baseline 04.00', async () => {
  const dir = await mkdtemp(join(tmpdir(), 's2-pc-'));
  try {
    const href = 'https://sentinel2l2a01.blob.core.windows.net/sentinel2-l2/47/P/NS/2024/04/19/X.SAFE/GRANULE/G/IMG_DATA/R10m/T47PNS_20240419T033541_B04_10m.tif';
    const [x0, y0] = transformer('EPSG:4326', 32647)(99.13, 8.85);
    const ox = Math.floor(x0 / 10) * 10 - 100;
    const oy = Math.floor(y0 / 10) * 10 + 100;
    await writeCog(join(dir, mirrorPath(href)), { width: 20, height: 20, dtype: 'uint16', data: new Uint16Array(400).fill(1500), epsg: 32647, geoTransform: [ox, 10, 0, oy, 0, -10], nodata: 0 });
    const item = {
      type: 'Feature', stac_version: '1.0.0', id: 'S2A_MSIL2A_20240419T033541_R061_T47PNS_20240419T080000', collection: 'sentinel-2-l2a',
      geometry: { type: 'Polygon', coordinates: [[[99.12, 8.84], [99.14, 8.84], [99.14, 8.86], [99.12, 8.86], [99.12, 8.84]]] }, bbox: [99.12, 8.84, 99.14, 8.86],
      properties: { datetime: '2024-04-19T03:35:41Z', 'proj:epsg': 32647, 's2:mgrs_tile': '47PNS', 's2:processing_baseline': '05.10', 'eo:cloud_cover': 1 },
      assets: { B04: { href } },
    };
    const itemFile = join(dir, 'planetarycomputer.microsoft.com/api/stac/v1/collections/sentinel-2-l2a/items', `${item.id}.json`);
    await mkdir(join(itemFile, '..'), { recursive: true });
    await writeFile(itemFile, JSON.stringify(item));
    const s2 = createSentinel2Adapter({ catalogue: 'planetary-computer', where: { root: pathToFileURL(dir).href } });
    const [scene] = await s2.search({ bbox: [99.125, 8.845, 99.135, 8.855], start: '2024-01-01', end: '2024-12-31' });
    const { red } = await s2.sceneWindows(scene, [99.1299, 8.8499, 99.1301, 8.8501], ['red']);
    const window = await readWindow(red.request);
    const encoding = settleReflectanceEncoding(scene.assets.red!.reflectance!, 'undecided');
    assert.ok(Math.abs(window.raw[0] * encoding.scale + encoding.offset - 0.05) < 1e-12);
    assert.equal(red.provenance.synthetic, false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
