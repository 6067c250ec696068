// The demo world's files have their real products' layouts (data-products.md), stay sparse, and
// cost the engine only the tiles a plot's window touches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openByteSource, type ByteSource } from '../../src/engine/sources/byte-source.ts';
import { type Cog, openCog } from '../../src/engine/sources/cog.ts';
import { DecodedTiles, shipRasters } from '../../src/engine/plan/raster-shipment.ts';
import { requestForBox } from '../../src/engine/sources/raster-request.ts';
import { assembleRasters } from '../../src/engine/worker/raster-window.ts';
import { transformer } from '../../src/engine/sources/reproject.ts';
import { mgrsSquare } from '../../src/engine/sources/products/mgrs.ts';
import { annualChangeDataset, tmfHref, tmfTile } from '../../src/engine/sources/products/tmf/codes.ts';
import { PC_MIRROR } from '../../src/engine/sources/products/palsar/codes.ts';
import { CANOPY_HEIGHT_NODATA, canopyHeightHref, canopyHeightTile } from '../../src/engine/sources/products/canopy-height/codes.ts';
import { createCanopyHeightAdapter } from '../../src/engine/sources/products/canopy-height/reader.ts';
import { createPalsarAdapter } from '../../src/engine/sources/products/palsar/reader.ts';
import { createTmfAdapter } from '../../src/engine/sources/products/tmf/reader.ts';
import { writeCanopyHeight, writePalsar, writeTmf } from '../../src/demo/maps.ts';
import { RasterFiles } from '../../src/demo/raster-files.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import { itemPath } from '../../src/demo/optical.ts';
import { demoWorld, mirrored, onDisk } from '../support/demo-world.ts';
import { readWindows } from '../support/read-windows.ts';

const SITE = 'th-surat-thani-rubber';

/** A COG read through a source that counts the bytes of tile-sized reads. */
async function counted(path: string): Promise<{ cog: Cog; tileBytes: () => number }> {
  const raw = openByteSource(path);
  let bytes = 0;
  const src: ByteSource = {
    id: raw.id,
    name: raw.name,
    get size() {
      return raw.size;
    },
    read(offset, length, signal) {
      return raw.read(offset, length, signal).then((b) => {
        if (offset > 0 && length < 1 << 22 && b.length === length) bytes += length;
        return b;
      });
    },
    readAll: (signal) => raw.readAll(signal),
  };
  const cog = await openCog(src);
  bytes = 0;
  return { cog, tileBytes: () => bytes };
}

function box(ring: number[][], padDeg = 0): [number, number, number, number] {
  const lons = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return [Math.min(...lons) - padDeg, Math.min(...lats) - padDeg, Math.max(...lons) + padDeg, Math.max(...lats) + padDeg];
}

test('Sentinel-2 bands are 10980² (20 m: 5490²) uint16 in 1024² DEFLATE tiles on their MGRS tile, written sparse', async () => {
  const { root, manifest } = await demoWorld();
  const record = manifest.sentinel2.find((r) => r.site === SITE)!;
  const item = JSON.parse(readFileSync(join(root, itemPath('https://earth-search.aws.element84.com/v1', 'sentinel-2-l2a', record.id)), 'utf8'));
  const red = await openCog(openByteSource(mirrored(root, item.assets.red.href)));
  const scl = await openCog(openByteSource(mirrored(root, item.assets.scl.href)));
  const spec = DEMO_SITES.find((s) => s.name === SITE)!;
  const [x, y] = transformer('EPSG:4326', red.epsg!)(...spec.centre);
  assert.deepEqual([red.width, red.height, red.tileWidth, red.tileHeight, red.dtype, red.nodata, red.compression, red.predictor], [10980, 10980, 1024, 1024, 'uint16', 0, 8, 2]);
  assert.deepEqual([scl.width, scl.height, scl.tileWidth, scl.dtype, scl.nodata], [5490, 5490, 1024, 'uint8', 0]);
  // The file's corner is 20 m west of its 100 km square's north-west corner, as 39QTA's proj:transform shows.
  assert.equal(red.geoTransform[0], Math.floor(x / 100_000) * 100_000 - 20);
  assert.equal(red.geoTransform[3], Math.floor(y / 100_000) * 100_000 + 100_000);
  assert.equal(item.properties['grid:code'], `MGRS-${mgrsSquare(...spec.centre).code}`);
  assert.deepEqual(item.assets.red['proj:shape'], [10980, 10980]);
  // Only the tiles under the site hold bytes; the other 117 or more are sparse.
  const all = red.tilesFor({ x0: 0, y0: 0, width: red.width, height: red.height });
  const written = all.filter((t) => t.length > 0);
  assert.equal(all.length, 121);
  assert.ok(written.length >= 1 && written.length <= 4, `${written.length} tiles written`);
});

test('a plot reads only the 1024² tiles its window touches, and a sparse tile reads as nodata, never as a value', async () => {
  const { root, manifest } = await demoWorld();
  const record = manifest.sentinel2.find((r) => r.site === SITE)!;
  const item = JSON.parse(readFileSync(join(root, itemPath('https://earth-search.aws.element84.com/v1', 'sentinel-2-l2a', record.id)), 'utf8'));
  const { cog, tileBytes } = await counted(mirrored(root, item.assets.red.href));
  const ring = buildSiteModel(DEMO_SITES.find((s) => s.name === SITE)!, DEMO_SEED).lonLatRing;
  const request = requestForBox(cog, box(ring, 0.0005));
  const touched = cog.tilesFor(request.window);
  const shipment = await shipRasters([request], new DecodedTiles());
  assert.equal(shipment.tiles.length, touched.length);
  assert.equal(tileBytes(), touched.reduce((n, t) => n + t.length, 0));
  assert.equal(shipment.fetchedBytes, tileBytes());
  const raster = assembleRasters(shipment.rasters, shipment.tiles).get(request.key)!;
  assert.ok(Array.from(raster.raw).every((v) => v > 0), 'the plot lies in written ground');
  // Ground kilometres away from every site lies in sparse tiles: nodata.
  const far = cog.tilesFor({ x0: 0, y0: 0, width: 1, height: 1 })[0];
  assert.equal(far.length, 0);
  const empty = await shipRasters([{ key: 'far', cog, window: { x0: 0, y0: 0, width: 8, height: 8 } }], new DecodedTiles());
  assert.equal(empty.fetchedBytes, 0);
  assert.deepEqual([...new Set(assembleRasters(empty.rasters, empty.tiles).get('far')!.raw)], [0]);
});

test('TMF is a 10° BigTIFF of 40000² in 256² LZW tiles; PALSAR 4500² per 1°; canopy height 36000² per 3°', async () => {
  const { root } = await demoWorld();
  const [lon, lat] = DEMO_SITES.find((s) => s.name === SITE)!.centre;
  const tmfPath = mirrored(root, tmfHref(annualChangeDataset(2020), tmfTile(lon, lat)));
  const head = readFileSync(tmfPath).subarray(0, 4);
  assert.deepEqual([...head], [0x49, 0x49, 43, 0], 'a little-endian BigTIFF');
  const tmf = await openCog(openByteSource(tmfPath));
  assert.deepEqual([tmf.width, tmf.height, tmf.tileWidth, tmf.compression, tmf.nodata], [40000, 40000, 256, 5, 0]);
  assert.deepEqual([tmf.geoTransform[0], tmf.geoTransform[3]], [Math.floor(lon / 10) * 10, Math.floor(lat / 10) * 10 + 10]);
  const palsar = await openCog(openByteSource(mirrored(root, PC_MIRROR.href(lon, lat, 2020, 'HV'))));
  assert.deepEqual([palsar.width, palsar.height, palsar.geoTransform[0], palsar.geoTransform[3]], [4500, 4500, Math.floor(lon), Math.floor(lat) + 1]);
  const height = await openCog(openByteSource(mirrored(root, canopyHeightHref(canopyHeightTile(lon, lat), 'Map'))));
  assert.deepEqual([height.width, height.height, height.nodata], [36000, 36000, 255]);
});

test('a site on the equator writes its ground into the tiles on both sides, and the engine reads it back as one mosaic', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'edge-site-'));
  try {
    // The Lopé forest's ground moved onto the equator: every product's tile edge at 0° runs through its plot.
    const spec = { ...DEMO_SITES.find((s) => s.name === 'ga-lope-evergreen-forest')!, name: 'equator-edge', centre: [13.2, 0] as [number, number] };
    const m = buildSiteModel(spec, DEMO_SEED);
    const files = new RasterFiles();
    writePalsar(m, DEMO_SEED, files);
    writeTmf(m, files);
    writeCanopyHeight(m, DEMO_SEED, files);
    files.writeAll(dir);
    const where = onDisk(dir);
    const plotBox = box(m.lonLatRing);
    assert.ok(plotBox[1] < 0 && plotBox[3] > 0, 'the plot straddles the equator');
    const palsar = await createPalsarAdapter({ where }).windows(box(m.lonLatRing, 0.002), 2020);
    assert.deepEqual(palsar.tiles.sort(), ['N00E013', 'N01E013']);
    const height = await createCanopyHeightAdapter({ where }).windows(plotBox, ['Map']);
    assert.deepEqual(height.tiles.sort(), ['N00E012', 'S03E012']);
    const tmf = await createTmfAdapter({ where, cacheDir: dir }).windows(plotBox, [annualChangeDataset(2020)]);
    assert.ok(tmf.available);
    assert.equal(tmf.tiles.length, 2);
    const [hv, h, record] = await readWindows([palsar.layers.HV.request, height.layers.Map.request, tmf.layers[annualChangeDataset(2020)].request]);
    // Read across the edge, no pixel of the plot's box is missing from either side.
    assert.ok(Array.from(hv.raw).every((v) => v !== palsar.nodata), 'radar read whole');
    assert.ok(Array.from(h.raw).every((v) => v !== CANOPY_HEIGHT_NODATA), 'canopy height read whole');
    assert.ok(Array.from(record.raw).every((v) => v !== 0), 'the moist-forest record read whole');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
