import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';
import { type ByteSource, openByteSource } from '../../../src/engine/sources/byte-source.ts';
import { openCog } from '../../../src/engine/sources/cog.ts';
import { isSourceError } from '../../../src/engine/sources/errors.ts';
import { createHttpClient } from '../../../src/engine/sources/http-client.ts';
import { startArchiveServer } from '../../support/archive-server.ts';
import { RangeCache } from '../../../src/engine/sources/range-cache.ts';
import { writeCog } from '../../../src/demo/tiff-writer.ts';
import { pattern, tempDir, writeGdalCog } from './gdal-fixtures.ts';
import { requestForBox } from '../../../src/engine/sources/raster-request.ts';
import { physical, readCogWindow, readWindow } from '../../support/read-windows.ts';

const W = 600;
const H = 520; // neither a multiple of the 256-pixel tiles, so edge tiles are padded
const dn = (x: number, y: number) => 1000 + ((x * 37 + y * 91) % 9000);

test('decodes a uint16 DEFLATE/predictor-2 UTM COG with GDAL scale, offset and nodata to reflectance', async () => {
  using dir = tempDir();
  const data = pattern((n) => new Uint16Array(n), W, H, (x, y) => (x === 5 && y === 7 ? 0 : dn(x, y)));
  const path = writeGdalCog(join(dir.path, 'b04.tif'), {
    width: W, height: H, bands: [data], epsg: 32633, geoTransform: [399960, 10, 0, 5600040, 0, -10],
    nodata: 0, scale: 0.0001, offset: -0.1, predictor: 'STANDARD',
  });
  const cog = await openCog(openByteSource(path));
  assert.equal(cog.dtype, 'uint16');
  assert.equal(cog.epsg, 32633);
  assert.equal(cog.predictor, 2);
  assert.equal(cog.compression, 8);
  assert.deepEqual([cog.width, cog.height, cog.tileWidth, cog.tileHeight], [W, H, 256, 256]);
  assert.deepEqual(cog.geoTransform, [399960, 10, 0, 5600040, 0, -10]);
  assert.equal(cog.nodata, 0);
  assert.equal(cog.scale, 0.0001);
  assert.equal(cog.offset, -0.1);

  // A window across four tiles, two of them padded edge tiles.
  const win = await readCogWindow(cog, { x0: 250, y0: 3, width: 340, height: 510 });
  for (const [x, y] of [[250, 3], [255, 255], [256, 256], [589, 512], [300, 100]]) {
    assert.equal(win.raw[(y - 3) * 340 + (x - 250)], dn(x, y), `pixel ${x},${y}`);
  }
  const phys = physical(win);
  const i = (400 - 3) * 340 + (500 - 250);
  assert.ok(Math.abs(phys[i] - (dn(500, 400) * 0.0001 - 0.1)) < 1e-6);
  assert.deepEqual(win.geoTransform, [399960 + 250 * 10, 10, 0, 5600040 - 3 * 10, 0, -10]);

  const corner = await readCogWindow(cog, { x0: 0, y0: 0, width: 10, height: 10 });
  assert.ok(Number.isNaN(physical(corner)[7 * 10 + 5]), 'nodata reads as NaN');
  assert.equal(corner.raw[7 * 10 + 5], 0);
});

test('decodes int16 with a negative nodata and no predictor', async () => {
  using dir = tempDir();
  const v = (x: number, y: number) => ((x * 131 + y * 17) % 4000) - 2000;
  const data = pattern((n) => new Int16Array(n), W, H, (x, y) => (y === 300 ? -9999 : v(x, y)));
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'dem.tif'), {
    width: W, height: H, bands: [data], epsg: 4326, geoTransform: [9, 0.001, 0, 1, 0, -0.001], nodata: -9999,
  })));
  assert.equal(cog.dtype, 'int16');
  assert.equal(cog.epsg, 4326);
  assert.equal(cog.nodata, -9999);
  const win = await readCogWindow(cog, { x0: 100, y0: 290, width: 300, height: 20 });
  assert.equal(win.raw[5 * 300 + 7], v(107, 295));
  assert.equal(win.raw[10 * 300 + 7], -9999);
  const phys = physical(win);
  assert.ok(Number.isNaN(phys[10 * 300 + 7]));
  assert.equal(phys[11 * 300 + 7], v(107, 301));
});

test('decodes float32 with the floating-point predictor exactly', async () => {
  using dir = tempDir();
  const f = (x: number, y: number) => Math.fround(Math.sin(x / 17) * 300 + y * 0.125 - 40.5);
  const data = pattern((n) => new Float32Array(n), W, H, f);
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'f32.tif'), {
    width: W, height: H, bands: [data], epsg: 4326, geoTransform: [100, 0.0001, 0, 2, 0, -0.0001], predictor: 'FLOATING_POINT',
  })));
  assert.equal(cog.predictor, 3);
  const win = await readCogWindow(cog, { x0: 0, y0: 0, width: W, height: H });
  assert.deepEqual(win.raw, data);
});

test('decodes float64 with the floating-point predictor', async () => {
  using dir = tempDir();
  const f = (x: number, y: number) => Math.cos(x * y) * 1e6 + x / 3;
  const data = pattern((n) => new Float64Array(n), 300, 280, f);
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'f64.tif'), {
    width: 300, height: 280, bands: [data], epsg: 4326, geoTransform: [100, 0.0001, 0, 2, 0, -0.0001], predictor: 'FLOATING_POINT',
  })));
  assert.equal(cog.dtype, 'float64');
  const win = await readCogWindow(cog, { x0: 10, y0: 20, width: 280, height: 250 });
  assert.equal(win.raw[100 * 280 + 50], f(60, 120));
});

test('decodes uint8 LZW with predictor 2 (the TMF encoding)', async () => {
  using dir = tempDir();
  const c = (x: number, y: number) => ((x >> 4) + (y >> 3)) % 7;
  const data = pattern((n) => new Uint8Array(n), W, H, c);
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'tmf.tif'), {
    width: W, height: H, bands: [data], epsg: 4326, geoTransform: [-80, 0.00025, 0, 10, 0, -0.00025], compress: 'LZW', predictor: 'STANDARD',
  })));
  assert.equal(cog.compression, 5);
  const win = await readCogWindow(cog, { x0: 0, y0: 0, width: W, height: H });
  assert.deepEqual(win.raw, data);
});

test('reads one band or all bands of a planar-separate float32 file', async () => {
  using dir = tempDir();
  const band = (b: number) => pattern((n) => new Float32Array(n), 300, 300, (x, y) => b * 1000 + x + y / 1000);
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'buildings.tif'), {
    width: 300, height: 300, bands: [band(0), band(1), band(2)], epsg: 32648, geoTransform: [600000, 0.5, 0, 100000, 0, -0.5],
    predictor: 'FLOATING_POINT', planarSeparate: true, blockSize: 128,
  })));
  assert.equal(cog.samplesPerPixel, 3);
  assert.equal(cog.planar, true);
  const one = { x0: 120, y0: 130, width: 20, height: 10 };
  assert.equal(cog.tilesFor({ ...one, band: 2 }).length, 2, 'one band needs only its own plane');
  const b2 = await readCogWindow(cog, { ...one, band: 2 });
  assert.equal(b2.samplesPerPixel, 1);
  assert.equal(b2.raw[3 * 20 + 11], Math.fround(2000 + 131 + 133 / 1000));
  const all = await readCogWindow(cog, one);
  assert.equal(all.samplesPerPixel, 3);
  assert.equal(all.raw[(3 * 20 + 11) * 3 + 1], Math.fround(1000 + 131 + 133 / 1000));
});

test('a sparse tile of a pixel-interleaved two-band file reads as nodata in both bands', async () => {
  using dir = tempDir();
  const band = (b: number) => pattern((n) => new Uint16Array(n), 512, 512, (x, y) => (x < 256 && y < 256 ? 9 : b * 10_000 + x + y));
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'sparse.tif'), {
    width: 512, height: 512, bands: [band(1), band(2)], epsg: 4326, geoTransform: [0, 1, 0, 0, 0, -1], nodata: 9, sparse: true,
  })));
  assert.equal(cog.planar, false);
  assert.equal(cog.tilesFor({ x0: 0, y0: 0, width: 1, height: 1 })[0].length, 0, 'GDAL left the nodata tile out');
  const win = await readCogWindow(cog, { x0: 250, y0: 250, width: 10, height: 10 });
  assert.deepEqual([win.raw[0], win.raw[1]], [9, 9]);
  const i = (9 * 10 + 9) * 2; // pixel 259,259
  assert.deepEqual([win.raw[i], win.raw[i + 1]], [10_000 + 518, 20_000 + 518]);
});

test('reads a striped GeoTIFF whose last strip is short', async () => {
  using dir = tempDir();
  const data = pattern((n) => new Uint16Array(n), 333, 101, (x, y) => x * 100 + y);
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'strips.tif'), {
    width: 333, height: 101, bands: [data], epsg: 4326, geoTransform: [0, 1, 0, 0, 0, -1], predictor: 'STANDARD', stripRows: 16,
  })));
  assert.equal(cog.tileWidth, 333);
  const win = await readCogWindow(cog, { x0: 0, y0: 0, width: 333, height: 101 });
  assert.deepEqual(win.raw, data);
});

test('places a WGS84 box on a UTM raster by reprojecting its edges', async () => {
  using dir = tempDir();
  // 20 m pixels in zone 33N at 50°N, 2.5° east of the central meridian.
  const gt: [number, number, number, number, number, number] = [600000, 20, 0, 5560000, 0, -20];
  const data = pattern((n) => new Uint16Array(n), 500, 500, (x, y) => x + 1000 * (y % 50));
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'utm.tif'), {
    width: 500, height: 500, bands: [data], epsg: 32633, geoTransform: gt, predictor: 'STANDARD',
  })));
  // The target: pixels 100..160 × 200..240, i.e. this UTM rectangle.
  const rect = [gt[0] + 100 * 20, gt[3] - 240 * 20, gt[0] + 160 * 20, gt[3] - 200 * 20];
  const toLonLat = proj4('+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs', 'EPSG:4326');
  const corners = [[rect[0], rect[1]], [rect[0], rect[3]], [rect[2], rect[1]], [rect[2], rect[3]]].map((c) => toLonLat.forward(c));
  const lons = corners.map((c) => c[0]);
  const lats = corners.map((c) => c[1]);
  const bbox: [number, number, number, number] = [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];

  const req = requestForBox(cog, bbox);
  const win = { ...req.window, ...(await readWindow(req)) };
  assert.ok(win.x0 <= 100 && win.y0 <= 200, `window starts at ${win.x0},${win.y0}`);
  assert.ok(win.x0 + win.width >= 160 && win.y0 + win.height >= 240, 'window covers the rectangle');
  // The lon/lat box of a rotated rectangle is a little larger, but only by the grid convergence.
  assert.ok(win.x0 >= 97 && win.y0 >= 197 && win.x0 + win.width <= 163 && win.y0 + win.height <= 243, JSON.stringify(win));
  assert.equal(win.epsg, 32633);
  assert.equal(win.raw[(210 - win.y0) * win.width + (130 - win.x0)], 130 + 1000 * (210 % 50));
});

test('places a WGS84 box on a WGS84 raster pixel for pixel and clips it to the raster', async () => {
  using dir = tempDir();
  const data = pattern((n) => new Uint8Array(n), 400, 400, (x, y) => (x + y) % 256);
  const cog = await openCog(openByteSource(writeGdalCog(join(dir.path, 'geo.tif'), {
    width: 400, height: 400, bands: [data], epsg: 4326, geoTransform: [10, 0.01, 0, 5, 0, -0.01],
  })));
  assert.deepEqual(cog.windowFor([10.5, 3.0, 11.0, 3.5], 'EPSG:4326'), { x0: 50, y0: 150, width: 50, height: 50 });
  assert.deepEqual(cog.windowFor([13.9, 0.5, 20, 1.05], 'EPSG:4326'), { x0: 390, y0: 395, width: 10, height: 5 });
  assert.throws(() => cog.windowFor([20, 20, 21, 21], 'EPSG:4326'), (e) => isSourceError(e, 'window_outside'));
});

test('a file cut short inside a tile is an error, never zeros', async () => {
  using dir = tempDir();
  const data = pattern((n) => new Uint16Array(n), 512, 512, (x, y) => (x * 7919 + y * 104729) % 65521);
  const path = writeGdalCog(join(dir.path, 'whole.tif'), { width: 512, height: 512, bands: [data], epsg: 4326, geoTransform: [0, 1, 0, 0, 0, -1] });
  const bytes = readFileSync(path);
  const cut = join(dir.path, 'cut.tif');
  writeFileSync(cut, bytes.subarray(0, bytes.length - 1000));
  const cog = await openCog(openByteSource(cut));
  await assert.rejects(readCogWindow(cog, { x0: 0, y0: 0, width: 512, height: 512 }), (e) => isSourceError(e, 'truncated'));
});

test('refuses a file that is not a TIFF with invalid_tiff', async () => {
  using dir = tempDir();
  const path = join(dir.path, 'not.tif');
  writeFileSync(path, 'this is not a tiff at all, just some text long enough to be read');
  await assert.rejects(openCog(openByteSource(path)), (e) => isSourceError(e, 'invalid_tiff'));
});

/** A small COG's bytes: classic little-endian TIFF, 300×200 uint16 in 256-pixel tiles, as the demo writer makes it. */
async function smallCog(dir: string): Promise<Buffer> {
  const path = join(dir, 'small.tif');
  await writeCog(path, { width: 300, height: 200, dtype: 'uint16', data: new Uint16Array(300 * 200).fill(7), epsg: 4326, geoTransform: [0, 0.001, 0, 0, 0, -0.001] });
  return readFileSync(path);
}

/** The byte at which a tag's entry sits in the first directory. */
function entryOf(tiff: Buffer, tag: number): number {
  const ifd = tiff.readUInt32LE(4);
  for (let i = 0; i < tiff.readUInt16LE(ifd); i++) if (tiff.readUInt16LE(ifd + 2 + i * 12) === tag) return ifd + 2 + i * 12;
  throw new Error(`no tag ${tag}`);
}

/** Opens patched bytes through a source that notes the length of every read asked of it. */
async function openPatched(dir: string, tiff: Buffer) {
  const path = join(dir, 'patched.tif');
  writeFileSync(path, tiff);
  const file = openByteSource(path);
  const asked: number[] = [];
  const src: ByteSource = { id: file.id, name: file.name, get size() { return file.size; }, read: (o, n, s) => (asked.push(n), file.read(o, n, s)), readAll: (s) => file.readAll(s) };
  return { open: openCog(src), asked };
}

const LIBRARY_WORDS = /DataView|outside the bounds|RangeError|TypeError|geotiff|undefined/i;

test('refuses at open a header that declares an absurd raster, tile, sample count or tile length, naming what is wrong', async () => {
  using dir = tempDir();
  const cases: Array<[string, (t: Buffer) => void, RegExp]> = [
    ['a raster 4e9 pixels wide', (t) => t.writeUInt32LE(4_000_000_000, entryOf(t, 256) + 8), /declares a 4000000000×200 raster, over the 1000000 pixels a side/],
    ['tiles of 65536 × 65536', (t) => (t.writeUInt32LE(65_536, entryOf(t, 322) + 8), t.writeUInt32LE(65_536, entryOf(t, 323) + 8)), /declares 65536×65536 tiles, over the 16777216 pixels a tile/],
    ['60,000 samples a pixel', (t) => t.writeUInt16LE(60_000, entryOf(t, 277) + 8), /declares 60000 samples a pixel, over the 16/],
    ['a tile of 4 GB compressed', (t) => t.writeUInt32LE(0xfffffff0, t.readUInt32LE(entryOf(t, 325) + 8)), /tile 0 declares 4294967280 bytes, for a tile of 131072 bytes decoded/],
  ];
  for (const [what, patch, message] of cases) {
    const tiff = await smallCog(dir.path);
    patch(tiff);
    const { open } = await openPatched(dir.path, tiff);
    await assert.rejects(open, (e) => isSourceError(e, 'invalid_tiff') && message.test(e.message) && !LIBRARY_WORDS.test(e.message), what);
  }
});

test('refuses a tag declaring a billion values before the parser allocates them: no read is asked past the file', async () => {
  using dir = tempDir();
  const tiff = await smallCog(dir.path);
  tiff.writeUInt32LE(1_000_000_000, entryOf(tiff, 324) + 4);
  const { open, asked } = await openPatched(dir.path, tiff);
  const cutShort = `the header is cut short: tag 324 declares 1,000,000,000 values (4,000,000,000 bytes) at byte 208, past the end of the file (${tiff.length.toLocaleString('en')} bytes)`;
  await assert.rejects(open, (e) => isSourceError(e, 'invalid_tiff') && e.message.endsWith(cutShort));
  assert.ok(Math.max(...asked) <= tiff.length, `asked for ${Math.max(...asked)} bytes`);
});

test('a header cut short, or lacking what the parser needs, is refused in words that name no library internals', async () => {
  using dir = tempDir();
  const tiff = await smallCog(dir.path);
  const cuts: Array<[number, RegExp]> = [
    [5, /the header is cut short: the file holds 5 bytes, a TIFF header 8 at least/],
    [8, /the header is cut short: its first image directory, at byte 8, lies past the end of the file \(8 bytes\)/],
    [100, /the header is cut short: its first image directory declares 16 entries, which run past the end of the file \(100 bytes\)/],
    [230, /the header is cut short: tag 33550 declares 3 values \(24 bytes\) at byte 224, past the end of the file \(230 bytes\)/],
  ];
  for (const [length, message] of cuts) {
    const { open } = await openPatched(dir.path, tiff.subarray(0, length));
    await assert.rejects(open, (e) => isSourceError(e, 'invalid_tiff') && message.test(e.message) && !LIBRARY_WORDS.test(e.message), `cut at ${length}`);
  }
  // No TileOffsets tag (its id changed to one nobody reads): geotiff.js fails on it with a TypeError of its own.
  const untiled = Buffer.from(tiff);
  untiled.writeUInt16LE(65_000, entryOf(untiled, 324));
  const { open } = await openPatched(dir.path, untiled);
  await assert.rejects(open, (e) => isSourceError(e, 'invalid_tiff') && /: not a readable TIFF \(its header is damaged\)$/.test(e.message) && e.cause instanceof TypeError);
});

test('reads the same pixels over HTTP through the range cache as from the file', async () => {
  using dir = tempDir();
  // Noise, so each tile is far larger than a header block and travels as its own range.
  const data = pattern((n) => new Uint16Array(n), W, H, (x, y) => Math.imul((x * 73856093) ^ (y * 19349663), 2654435761) >>> 16);
  writeGdalCog(join(dir.path, 'b08.tif'), { width: W, height: H, bands: [data], epsg: 32633, geoTransform: [0, 10, 0, 0, 0, -10], predictor: 'STANDARD' });
  const server = await startArchiveServer({ root: dir.path });
  const http = createHttpClient();
  try {
    const remote = await openCog(openByteSource(`${server.url}/b08.tif`, { http, cache: new RangeCache({ maxBytes: 8 << 20 }) }));
    const headerRequests = server.requests().length;
    assert.ok(headerRequests <= 2, `opening took ${headerRequests} requests`);
    const local = await openCog(openByteSource(join(dir.path, 'b08.tif')));
    const win = { x0: 100, y0: 200, width: 400, height: 300 };
    assert.deepEqual((await readCogWindow(remote, win)).raw, (await readCogWindow(local, win)).raw);
    assert.equal(server.requests().length - headerRequests, remote.tilesFor(win).length, 'one request a tile');
  } finally {
    http.close();
    await server.close();
  }
});

test('reads a COG made by the service\'s own writer, with its scale, offset and SYNTHETIC mark', async () => {
  using dir = tempDir();
  const data = pattern((n) => new Int16Array(n), 300, 260, (x, y) => x - y * 3);
  const path = join(dir.path, 'demo.tif');
  await writeCog(path, { width: 300, height: 260, dtype: 'int16', data, epsg: 32748, geoTransform: [500000, 25, 0, 9000000, 0, -25], nodata: -32768, scale: 0.5, offset: 2, tileSize: 256, predictor: 2 });
  const cog = await openCog(openByteSource(path));
  assert.equal(cog.epsg, 32748);
  assert.equal(cog.metadata.SYNTHETIC, 'demo');
  const win = await readCogWindow(cog, { x0: 250, y0: 250, width: 50, height: 10 });
  assert.equal(win.raw[3 * 50 + 4], 254 - 253 * 3);
  assert.equal(physical(win)[3 * 50 + 4], (254 - 253 * 3) * 0.5 + 2);
});
