import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fromArrayBuffer } from 'geotiff';
import { openByteSource } from '../../src/engine/sources/byte-source.ts';
import { openCog } from '../../src/engine/sources/cog.ts';
import { encodeCog, writeCog, TiffWriteError, type CogRaster, type CogTypedArray } from '../../src/demo/tiff-writer.ts';
import { readCogWindow } from '../support/read-windows.ts';

// Debian's python3-gdal lives beside the system interpreter, not any other python3 on PATH.
const PYTHON = '/usr/bin/python3';

function ramp<T extends CogTypedArray>(arr: T, f: (i: number) => number): T {
  for (let i = 0; i < arr.length; i++) arr[i] = f(i);
  return arr;
}

function sha(a: CogTypedArray): string {
  return createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');
}

const cases: Array<{ name: string; r: CogRaster }> = [
  {
    name: 'uint16 UTM with predictor 2, edge tiles, nodata, scale and offset',
    r: {
      width: 300, height: 270, dtype: 'uint16', tileSize: 256, predictor: 2, epsg: 32647,
      geoTransform: [600000, 10, 0, 1000020, 0, -10],
      data: ramp(new Uint16Array(300 * 270), (i) => (i * 37) % 65535), nodata: 0, scale: 0.0001, offset: -0.1,
      description: 'B04',
    },
  },
  {
    name: 'float32 geographic with a negative nodata',
    r: {
      width: 40, height: 33, dtype: 'float32', epsg: 4326, geoTransform: [9, 0.0003, 0, 1, 0, -0.0003],
      data: ramp(new Float32Array(40 * 33), (i) => Math.sin(i) * 100.25), nodata: -9999,
    },
  },
  {
    name: 'int16 southern UTM',
    r: {
      width: 64, height: 20, dtype: 'int16', predictor: 2, epsg: 32723, geoTransform: [500000, 30, 0, 7800000, 0, -30],
      data: ramp(new Int16Array(64 * 20), (i) => (i % 2 ? -1 : 1) * i * 13),
    },
  },
  {
    name: 'three uint8 bands pixel-interleaved in 512 tiles',
    r: {
      width: 520, height: 10, dtype: 'uint8', tileSize: 512, epsg: 4326, geoTransform: [100, 0.0001, 0, 10, 0, -0.0001],
      data: [0, 1, 2].map((b) => ramp(new Uint8Array(520 * 10), (i) => (i + b * 80) % 256)), nodata: 255,
    },
  },
  {
    name: 'float64 projected',
    r: {
      width: 17, height: 9, dtype: 'float64', epsg: 32630, geoTransform: [0, 20, 0, 0, 0, -20],
      data: ramp(new Float64Array(17 * 9), (i) => i / 3),
    },
  },
  {
    name: 'int32 with predictor 2',
    r: {
      width: 30, height: 30, dtype: 'int32', predictor: 2, epsg: 32650, geoTransform: [0, 1, 0, 0, 0, -1],
      data: ramp(new Int32Array(900), (i) => -2_000_000_000 + i * 4_000_000),
    },
  },
  {
    name: 'uint8 BigTIFF in 256² LZW tiles, as JRC TMF is written',
    r: {
      width: 600, height: 300, dtype: 'uint8', compression: 'lzw', bigTiff: true, epsg: 4326, geoTransform: [10, 0.00025, 0, 0, 0, -0.00025],
      data: ramp(new Uint8Array(600 * 300), (i) => (i % 600 < 200 ? 1 : (i * 7) % 251)), nodata: 0,
    },
  },
  {
    name: 'three float32 bands with the floating-point predictor, as Open Buildings is written',
    r: {
      width: 70, height: 40, dtype: 'float32', predictor: 3, tileSize: 64, epsg: 32648, geoTransform: [500000, 0.5, 0, 200000, 0, -0.5],
      data: [0, 1, 2].map((b) => ramp(new Float32Array(70 * 40), (i) => (b + 1) * Math.cos(i / 9) * 12.5)), nodata: -99,
    },
  },
  {
    name: 'uint32 plain',
    r: {
      width: 12, height: 12, dtype: 'uint32', epsg: 4326, geoTransform: [0, 1, 0, 0, 0, -1],
      data: ramp(new Uint32Array(144), (i) => 4_000_000_000 + i),
    },
  },
];

test('geotiff.js reads back exact pixels, georeferencing, nodata and scale/offset', async () => {
  for (const { name, r } of cases) {
    const bytes = encodeCog(r);
    const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const img = await tiff.getImage();
    assert.equal(img.getWidth(), r.width, name);
    assert.equal(img.getHeight(), r.height, name);
    assert.equal(img.isTiled, true, name);
    assert.equal(img.getTileWidth(), r.tileSize ?? 256, name);
    const bands = Array.isArray(r.data) ? r.data : [r.data!];
    const read = await img.readRasters({ interleave: false });
    bands.forEach((b, i) => assert.deepEqual(Array.from(read[i] as ArrayLike<number>), Array.from(b), `${name} band ${i}`));
    assert.deepEqual(img.getOrigin().slice(0, 2), [r.geoTransform[0], r.geoTransform[3]], name);
    assert.deepEqual(img.getResolution().slice(0, 2), [r.geoTransform[1], r.geoTransform[5]], name);
    const keys = img.getGeoKeys() as Record<string, number>;
    assert.equal(r.epsg === 4326 ? keys.GeographicTypeGeoKey : keys.ProjectedCSTypeGeoKey, r.epsg, name);
    assert.equal(img.getGDALNoData(), r.nodata ?? null, name);
    const md = (await img.getGDALMetadata(0)) as Record<string, string> | null;
    if (r.scale !== undefined) assert.equal(Number(md?.SCALE), r.scale, name);
    if (r.offset !== undefined) assert.equal(Number(md?.OFFSET), r.offset, name);
    const dataset = (await img.getGDALMetadata()) as Record<string, string>;
    assert.equal(dataset.SYNTHETIC, 'demo', name);
  }
});

test('GDAL reads back the same pixels, georeferencing, nodata, scale/offset and sees a valid COG', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tiff-writer-'));
  try {
    const files = await Promise.all(cases.map(async ({ r }, i) => {
      const path = join(dir, `c${i}.tif`);
      await writeCog(path, r);
      return path;
    }));
    const script = `
import sys, json, hashlib
from osgeo import gdal
from osgeo_utils.samples.validate_cloud_optimized_geotiff import validate
gdal.UseExceptions()
out = []
for p in sys.argv[1:]:
    ds = gdal.Open(p)
    bands = []
    for b in range(1, ds.RasterCount + 1):
        band = ds.GetRasterBand(b)
        arr = band.ReadAsArray()
        bands.append({'sha': hashlib.sha256(arr.astype(arr.dtype.newbyteorder('<')).tobytes()).hexdigest(),
                      'nodata': band.GetNoDataValue(), 'scale': band.GetScale(), 'offset': band.GetOffset(),
                      'dtype': gdal.GetDataTypeName(band.DataType), 'block': band.GetBlockSize()})
    warnings, errors, _ = validate(p, full_check=True)
    out.append({'gt': ds.GetGeoTransform(), 'epsg': int(ds.GetSpatialRef().GetAuthorityCode(None)),
                'size': [ds.RasterXSize, ds.RasterYSize], 'bands': bands, 'meta': ds.GetMetadata(),
                'compression': ds.GetMetadata('IMAGE_STRUCTURE').get('COMPRESSION'), 'cog_errors': errors})
print(json.dumps(out))
`;
    const got = JSON.parse(execFileSync(PYTHON, ['-c', script, ...files], { encoding: 'utf8' }));
    cases.forEach(({ name, r }, i) => {
      const g = got[i];
      const bands = Array.isArray(r.data) ? r.data : [r.data!];
      assert.deepEqual(g.size, [r.width, r.height], name);
      assert.deepEqual(g.gt, r.geoTransform, name);
      assert.equal(g.epsg, r.epsg, name);
      assert.equal(g.compression, r.compression === 'lzw' ? 'LZW' : 'DEFLATE', name);
      assert.deepEqual(g.cog_errors, [], name);
      assert.equal(g.meta.SYNTHETIC, 'demo', name);
      bands.forEach((b, k) => {
        assert.equal(g.bands[k].sha, sha(b), `${name} band ${k}`);
        assert.equal(g.bands[k].nodata, r.nodata ?? null, name);
        assert.equal(g.bands[k].scale, r.scale ?? null, name);
        assert.equal(g.bands[k].offset, r.offset ?? null, name);
        assert.deepEqual(g.bands[k].block, [r.tileSize ?? 256, r.tileSize ?? 256], name);
      });
    });
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', files[0]], { encoding: 'utf8' }));
    assert.equal(info.bands[0].noDataValue, 0);
    assert.equal(info.bands[0].scale, 0.0001);
    assert.equal(info.bands[0].offset, -0.1);
    assert.equal(info.metadata[''].SYNTHETIC, 'demo');
    assert.match(info.coordinateSystem.wkt, /UTM zone 47N/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the same raster always encodes to the same bytes', async () => {
  const a = encodeCog(cases[0].r);
  const b = encodeCog(cases[0].r);
  assert.deepEqual(a, b);
  const dir = await mkdtemp(join(tmpdir(), 'tiff-writer-'));
  try {
    await writeCog(join(dir, 'x.tif'), cases[0].r);
    assert.deepEqual(new Uint8Array(await readFile(join(dir, 'x.tif'))), a);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('puts the IFD before the tiles so the head of the file describes it', () => {
  const bytes = encodeCog(cases[0].r);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  assert.equal(view.getUint32(4, true), 8);
  const n = view.getUint16(8, true);
  let firstTile = Infinity;
  for (let i = 0; i < n; i++) {
    const at = 10 + i * 12;
    if (view.getUint16(at, true) === 324) {
      const count = view.getUint32(at + 4, true);
      const where = view.getUint32(at + 8, true);
      for (let k = 0; k < count; k++) firstTile = Math.min(firstTile, view.getUint32(where + k * 4, true));
    }
  }
  assert.ok(firstTile > 10 + n * 12);
  assert.ok(firstTile < 4096);
});

test('refuses rasters it cannot write faithfully', () => {
  const base = cases[1].r;
  assert.throws(() => encodeCog({ ...base, predictor: 2 }), (e: unknown) => e instanceof TiffWriteError && e.code === 'predictor_unsupported');
  assert.throws(() => encodeCog({ ...base, geoTransform: [0, 1, 0.1, 0, 0, -1] }), (e: unknown) => e instanceof TiffWriteError && e.code === 'rotated_transform');
  assert.throws(() => encodeCog({ ...base, data: new Float32Array(3) }), (e: unknown) => e instanceof TiffWriteError && e.code === 'bad_raster');
  assert.throws(() => encodeCog({ ...base, data: new Uint16Array(40 * 33) }), (e: unknown) => e instanceof TiffWriteError && e.code === 'bad_raster');
});

test('writes blocks on a large extent with untouched tiles sparse, read back as nodata by GDAL and our COG reader', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tiff-writer-'));
  try {
    const block = (w: number, h: number, v: number) => ({ width: w, height: h, data: ramp(new Uint8Array(w * h), (i) => (v + i) % 200) });
    const a = { x: 10, y: 20, ...block(30, 25, 1) };
    const b = { x: 5000, y: 3000, ...block(300, 40, 7) }; // straddles tile edges
    const r: CogRaster = {
      width: 6000, height: 4000, dtype: 'uint8', epsg: 4326, geoTransform: [0, 0.00025, 0, 10, 0, -0.00025], nodata: 255, blocks: [a, b],
    };
    const bytes = encodeCog(r);
    assert.ok(bytes.length < 20_000, `a sparse file stays small (${bytes.length} bytes)`);
    const path = join(dir, 'sparse.tif');
    await writeCog(path, r);
    const script = `
import sys, json
from osgeo import gdal
gdal.UseExceptions()
ds = gdal.Open(sys.argv[1])
band = ds.GetRasterBand(1)
a = band.ReadAsArray(10, 20, 30, 25)
b = band.ReadAsArray(5000, 3000, 300, 40)
empty = band.ReadAsArray(2000, 2000, 50, 50)
edge = band.ReadAsArray(8, 20, 4, 1)
print(json.dumps({'a': a.flatten().tolist(), 'b': b.flatten().tolist(), 'empty': sorted(set(empty.flatten().tolist())), 'edge': edge.flatten().tolist()}))
`;
    const got = JSON.parse(execFileSync(PYTHON, ['-c', script, path], { encoding: 'utf8' }));
    assert.deepEqual(got.a, Array.from(a.data));
    assert.deepEqual(got.b, Array.from(b.data));
    assert.deepEqual(got.empty, [255]);
    assert.deepEqual(got.edge, [255, 255, a.data[0], a.data[1]]);

    const cog = await openCog(openByteSource(path));
    const win = await readCogWindow(cog, { x0: 5000, y0: 3000, width: 300, height: 40 });
    assert.deepEqual(Array.from(win.raw), Array.from(b.data));
    const hole = await readCogWindow(cog, { x0: 2000, y0: 2000, width: 4, height: 4 });
    assert.deepEqual(Array.from(hole.raw), new Array(16).fill(255));
    assert.equal(cog.metadata.SYNTHETIC, 'demo');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
