import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DecodedTiles, shipRasters } from '../../../src/engine/plan/raster-shipment.ts';
import { openByteSource } from '../../../src/engine/sources/byte-source.ts';
import { openCog } from '../../../src/engine/sources/cog.ts';
import { mosaicForBox } from '../../../src/engine/sources/raster-request.ts';
import { assembleRasters } from '../../../src/engine/worker/raster-window.ts';
import { tempDir, writeGdalCog } from '../sources/gdal-fixtures.ts';

/** The product's own stated nodata, as an adapter gives it where a file declares none. */
const PRODUCT_NODATA = 255;

test('a tile GDAL stored empty in a file that declares no nodata reads as the product\'s nodata, not as the class 0 stands for', async () => {
  using dir = tempDir('sparse-');
  // 512² of uint8 in 256² tiles: the left half holds class 1, the right half 0, which SPARSE_OK leaves unwritten.
  const side = 512;
  const band = new Uint8Array(side * side);
  for (let y = 0; y < side; y++) for (let x = 0; x < 256; x++) band[y * side + x] = 1;
  const path = writeGdalCog(join(dir.path, 'map.tif'), { width: side, height: side, bands: [band], epsg: 4326, geoTransform: [10, 0.0001, 0, 1, 0, -0.0001], sparse: true });
  const cog = await openCog(openByteSource(path));
  assert.equal(cog.nodata, null, 'the file declares no nodata');
  const { request } = mosaicForBox([{ status: 'fulfilled', value: cog }], [10.02, 0.97, 10.03, 0.98], () => PRODUCT_NODATA);
  const shipment = await shipRasters([request], new DecodedTiles());
  assert.ok(shipment.tiles.some((t) => t.slot === null && t.fill === PRODUCT_NODATA), 'the empty tile travels as a fill of the product nodata');
  const raster = assembleRasters(shipment.rasters, shipment.tiles).get(request.key)!;
  const values = new Set(raster.raw as Uint8Array);
  assert.deepEqual([...values].sort((a, b) => a - b), [1, PRODUCT_NODATA]);
});
