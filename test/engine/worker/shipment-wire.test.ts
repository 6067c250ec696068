import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { DecodedTiles, shipRasters } from '../../../src/engine/plan/raster-shipment.ts';
import { mosaicForBox, rasterRequest } from '../../../src/engine/sources/raster-request.ts';
import { openByteSource } from '../../../src/engine/sources/byte-source.ts';
import { openCog } from '../../../src/engine/sources/cog.ts';
import { assembleRasters } from '../../../src/engine/worker/raster-window.ts';
import { assembleShipment, packShipment, type RasterShipment, unpackShipment } from '../../../src/engine/worker/shipment-wire.ts';
import { writeCog } from '../../../src/demo/tiff-writer.ts';
import { buildingCellsOf } from '../../../src/engine/sources/products/open-buildings/cells.ts';
import { transformBbox } from '../../../src/engine/sources/reproject.ts';

/** What a thread receives: the message's structured clone, through a real port. */
async function sent(wire: RasterShipment): Promise<RasterShipment> {
  const { port1, port2 } = new MessageChannel();
  const got = new Promise<RasterShipment>((resolve) => port2.once('message', resolve));
  port1.postMessage(wire);
  try {
    return await got;
  } finally {
    port1.close();
  }
}

test('a shipment crosses to a thread as the same tiles and windows: mosaic edges, fill, a band of an interleaved file, slots shared', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pce-wire-'));
  try {
    const file = (west: number, north: number) => join(dir, `${west}_${north}.tif`);
    // Three of four 1° files of 100² pixels in 32-pixel tiles (edge tiles padded past the file), one missing.
    for (const [west, north] of [[10, 2], [11, 2], [10, 1]]) {
      const data = new Uint16Array(100 * 100).map((_, i) => 1 + ((i * 7 + west * 3 + north) % 5000));
      await writeCog(file(west, north), { width: 100, height: 100, dtype: 'uint16', data, tileSize: 32, epsg: 4326, geoTransform: [west, 0.01, 0, north, 0, -0.01], nodata: 0 });
    }
    const rgb = join(dir, 'rgb.tif');
    const channel = (c: number) => new Uint8Array(64 * 64).map((_, i) => (i * (c + 3)) % 251);
    await writeCog(rgb, { width: 64, height: 64, dtype: 'uint8', data: [channel(0), channel(1), channel(2)], tileSize: 32, epsg: 32633, geoTransform: [500000, 10, 0, 1000000, 0, -10] });
    const opened = await Promise.allSettled([[10, 2], [11, 2], [10, 1], [11, 1]].map(([w, n]) => openCog(openByteSource(file(w, n)))));
    const { request: mosaic } = mosaicForBox(opened, [10.95, 0.95, 11.05, 1.05], () => 9);
    const band = rasterRequest(await openCog(openByteSource(rgb)), { x0: 20, y0: 20, width: 30, height: 30 }, 1);
    const shipment = await shipRasters([mosaic, band], new DecodedTiles());
    assert.ok(shipment.tiles.some((t) => t.inFile !== undefined), 'an edge tile placed beside another file');
    assert.ok(shipment.tiles.some((t) => t.slot === null && t.fill === 9), 'the missing file\'s sparse tile');

    const wire = await sent(packShipment(shipment));
    const back = unpackShipment(wire);
    assert.deepEqual(back, { tiles: shipment.tiles, rasters: shipment.rasters });
    // The slots are the same memory on both sides, not copies.
    const k = shipment.tiles.findIndex((t) => t.slot !== null);
    new Uint8Array(shipment.tiles[k].slot!)[0] = 77;
    assert.equal(new Uint8Array(back.tiles[k].slot!)[0], 77);
    new Uint8Array(shipment.tiles[k].slot!)[0] = 0;

    const across = assembleShipment(wire);
    const here = assembleRasters(shipment.rasters, shipment.tiles);
    for (const key of [mosaic.key, band.key]) assert.deepEqual(across.get(key), here.get(key), key);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('building cells cross to a thread with each tile\'s own spec: an edge tile\'s cells are not an inner tile\'s', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pce-wire-cells-'));
  try {
    const file = (k: number) => join(dir, `b${k}.tif`);
    // Two files of 100² pixels of three float bands side by side, in 32-pixel tiles: 4-pixel cells, the last tile 4 pixels wide in its file.
    for (const k of [0, 1]) {
      const band = (b: number) => new Float32Array(100 * 100).map((_, i) => ((i * (b + 5) + k) % 97) / 97);
      await writeCog(file(k), { width: 100, height: 100, dtype: 'float32', data: [band(0), band(1), band(2)], tileSize: 32, epsg: 32647, geoTransform: [500000 + k * 50, 0.5, 0, 1000000, 0, -0.5], nodata: -99 });
    }
    const views = await Promise.all([0, 1].map(async (k) => buildingCellsOf(await openCog(openByteSource(file(k))), 4)!));
    const box = transformBbox([500030, 999970, 500070, 999990], 32647, 'EPSG:4326');
    const { request } = mosaicForBox(views.map((value) => ({ status: 'fulfilled' as const, value })), box, () => 0);
    assert.equal(request.parts?.length, 2);
    const shipment = await shipRasters([request], new DecodedTiles());
    const specs = new Set(shipment.tiles.map((t) => JSON.stringify(t.spec.cells?.inFile)));
    assert.ok(specs.has(JSON.stringify({ width: 4, height: 32 })) && specs.has(JSON.stringify({ width: 32, height: 32 })), [...specs].join(' '));
    const wire = await sent(packShipment(shipment));
    assert.deepEqual(unpackShipment(wire), { tiles: shipment.tiles, rasters: shipment.rasters });
    assert.deepEqual(assembleShipment(wire).get(request.key), assembleRasters(shipment.rasters, shipment.tiles).get(request.key));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
