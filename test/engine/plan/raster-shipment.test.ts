import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { assembleRasters, slotByteLength, slotIsReady } from '../../../src/engine/worker/raster-window.ts';
import { decodedByteLength } from '../../../src/engine/worker/tile-decode.ts';
import { DecodedTiles, decodedBytes, decodedBytesBound, shipRasters } from '../../../src/engine/plan/raster-shipment.ts';
import { mosaicForBox, rasterRequest } from '../../../src/engine/sources/raster-request.ts';
import { isSourceError } from '../../../src/engine/sources/errors.ts';
import { readWindow } from '../../support/read-windows.ts';
import { type ByteSource, openByteSource } from '../../../src/engine/sources/byte-source.ts';
import { openCog } from '../../../src/engine/sources/cog.ts';
import { writeCog } from '../../../src/demo/tiff-writer.ts';

/** The memory a slot of one of the fixture's 256² uint16 tiles takes. */
const SLOT_BYTES = slotByteLength({ compression: 8, predictor: 2, dtype: 'uint16', width: 256, height: 256 });

const SIDE = 512;
const value = (x: number, y: number) => 1 + ((x * 7 + y * 13) % 4000);

/** A 512×512 uint16 COG of four 256-pixel tiles, read through a source that counts tile-sized reads. */
async function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'pce-ship-'));
  const path = join(dir, 'b.tif');
  const data = new Uint16Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) data[y * SIDE + x] = value(x, y);
  await writeCog(path, { width: SIDE, height: SIDE, dtype: 'uint16', data, tileSize: 256, epsg: 32633, geoTransform: [500000, 10, 0, 1000000, 0, -10], nodata: 0 });
  const raw = openByteSource(path);
  let tileReads = 0;
  const counted: ByteSource = {
    id: raw.id,
    name: raw.name,
    get size() {
      return raw.size;
    },
    read(offset, length, signal) {
      if (length > 4096) tileReads++;
      return raw.read(offset, length, signal);
    },
    readAll: (signal) => raw.readAll(signal),
  };
  const cog = await openCog(counted);
  return { cog, reads: () => tileReads, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a tile two windows touch travels once; once decoded, it travels as its slot alone', async () => {
  using f = await fixture();
  const decoded = new DecodedTiles();
  const a = rasterRequest(f.cog, { x0: 200, y0: 200, width: 100, height: 20 });
  const b = rasterRequest(f.cog, { x0: 240, y0: 210, width: 10, height: 10 });
  const first = await shipRasters([a, b], decoded);
  assert.equal(first.tiles.length, 2);
  assert.equal(f.reads(), 2);
  assert.deepEqual(first.rasters.map((r) => r.tiles), [[0, 1], [0]]);
  const rasters = assembleRasters(first.rasters, first.tiles);
  assert.equal(rasters.get(b.key)!.raw[0], value(240, 210));
  assert.equal(rasters.get(a.key)!.raw[99], value(299, 200));
  assert.ok(first.tiles.every((t) => slotIsReady(t.slot!)));

  const again = await shipRasters([b], decoded);
  assert.equal(again.fetchedBytes, 0);
  assert.equal(again.tiles[0].bytes, null);
  assert.equal(again.tiles[0].slot, first.tiles[0].slot);
  assert.equal(f.reads(), 2);
  // Two tiles made, then one asked for again: the cache counts one hit beside two misses.
  assert.deepEqual(decoded.stats(), { hits: 1, misses: 2, reused: 0 });
});

test('the coarse count of decoded bytes never falls below the tiles counted one by one', async () => {
  using f = await fixture();
  const tile = decodedByteLength({ compression: 8, predictor: 2, dtype: 'uint16', width: 256, height: 256 });
  const inOne = rasterRequest(f.cog, { x0: 10, y0: 10, width: 100, height: 100 });
  const acrossTwo = rasterRequest(f.cog, { x0: 200, y0: 10, width: 100, height: 100 });
  const acrossFour = rasterRequest(f.cog, { x0: 250, y0: 250, width: 10, height: 10 });
  assert.deepEqual([decodedBytes([inOne]), decodedBytesBound([inOne])], [tile, tile]);
  assert.deepEqual([decodedBytes([acrossTwo]), decodedBytesBound([acrossTwo])], [2 * tile, 2 * tile]);
  assert.deepEqual([decodedBytes([acrossFour]), decodedBytesBound([acrossFour])], [4 * tile, 4 * tile]);
  // Shared tiles are counted once by one, once a window by the other: an upper bound.
  assert.deepEqual([decodedBytes([inOne, acrossTwo, acrossFour]), decodedBytesBound([inOne, acrossTwo, acrossFour])], [4 * tile, 7 * tile]);
});

test('at the bound, a new tile decodes into the least recently used kept slot; one asked for again while kept is taken back whole', async () => {
  using f = await fixture();
  const tileBytes = SLOT_BYTES;
  const decoded = new DecodedTiles({ maxBytes: 2 * tileBytes });
  const corner = (x0: number, y0: number) => rasterRequest(f.cog, { x0, y0, width: 8, height: 8 });
  const read = async (x: number, y: number) => {
    const s = await shipRasters([corner(x, y)], decoded);
    const raw = assembleRasters(s.rasters, s.tiles).get(corner(x, y).key)!.raw;
    decoded.release(s, true);
    assert.ok(decoded.bytes + decoded.heldBytes <= decoded.boundBytes);
    return { s, raw };
  };
  const first = await read(0, 0);
  const second = await read(300, 0);
  const reads = f.reads();
  const again = await read(0, 0);
  assert.equal(again.s.fetchedBytes, 0, 'kept: taken back, not fetched');
  assert.equal(again.s.tiles[0].slot, first.s.tiles[0].slot);
  assert.equal(f.reads(), reads);
  // (300, 0) is now the least recently used: the third tile is decoded into its memory.
  const third = await read(0, 300);
  assert.equal(third.s.tiles[0].slot, second.s.tiles[0].slot, 'the second tile\'s memory is lent to the third');
  assert.equal(third.raw[0], value(0, 300), 'lent empty, so its tile is decoded afresh');
  assert.equal(decoded.bytes, 2 * tileBytes, 'no fresh memory at the bound');
  const lent = await read(300, 0);
  assert.ok(lent.s.fetchedBytes > 0, 'its slot was lent: read and decoded anew');
  assert.equal(lent.raw[7], value(307, 0));
  assert.deepEqual(decoded.stats(), { hits: 1, misses: 4, reused: 2 });
});

test('a box across four files of one grid reads as one mosaic, the missing file as fill', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pce-mosaic-'));
  try {
    // 1° files of 0.01° pixels; each pixel holds its column and row on the common grid (origin 10°E, 2°N).
    const at = (gx: number, gy: number) => 1 + gx + 200 * gy;
    const file = (west: number, north: number) => join(dir, `${west}_${north}.tif`);
    for (const [west, north] of [[10, 2], [11, 2], [10, 1]]) {
      const data = new Uint16Array(100 * 100);
      for (let y = 0; y < 100; y++) for (let x = 0; x < 100; x++) data[y * 100 + x] = at((west - 10) * 100 + x, (2 - north) * 100 + y);
      await writeCog(file(west, north), { width: 100, height: 100, dtype: 'uint16', data, tileSize: 32, epsg: 4326, geoTransform: [west, 0.01, 0, north, 0, -0.01], nodata: 0 });
    }
    const box: [number, number, number, number] = [10.95, 0.95, 11.05, 1.05];
    const opened = await Promise.allSettled([[10, 2], [11, 2], [10, 1], [11, 1]].map(([w, n]) => openCog(openByteSource(file(w, n)))));
    const { request, missing } = mosaicForBox(opened, box, () => 9);
    assert.deepEqual(missing, [3], 'the south-east file is not in the archive');
    assert.equal(request.parts?.length, 3);
    const r = await readWindow(request);
    assert.deepEqual([r.width, r.height], [10, 10]);
    r.geoTransform.forEach((v, i) => assert.ok(Math.abs(v - [10.95, 0.01, 0, 1.05, 0, -0.01][i]) < 1e-9, `geoTransform ${r.geoTransform}`));
    const px = (lon: number, lat: number) => r.raw[Math.floor((1.05 - lat) / 0.01) * 10 + Math.floor((lon - 10.95) / 0.01)];
    const global = (lon: number, lat: number) => at(Math.floor((lon - 10) / 0.01), Math.floor((2 - lat) / 0.01));
    for (const [lon, lat] of [[10.955, 1.045], [11.045, 1.045], [10.955, 0.955], [10.995, 1.005], [11.005, 1.005], [10.995, 0.995]]) {
      assert.equal(px(lon, lat), global(lon, lat), `pixel at ${lon}, ${lat}`);
    }
    assert.equal(px(11.005, 0.995), 9);
    assert.equal(px(11.045, 0.955), 9);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a mosaic whose every file is missing is refused with the first file\'s cause', async () => {
  const opened = await Promise.allSettled(['a.tif', 'b.tif'].map((f) => openCog(openByteSource(join(tmpdir(), `pce-none-${process.pid}`, f)))));
  assert.throws(() => mosaicForBox(opened, [0, 0, 1, 1], () => 0), (e: unknown) => isSourceError(e, 'not_found'));
});

test('a slot is not lent while an unfinished shipment holds it, nor ever after its task failed', async () => {
  using f = await fixture();
  const decoded = new DecodedTiles({ maxBytes: SLOT_BYTES });
  const corner = (x0: number, y0: number) => rasterRequest(f.cog, { x0, y0, width: 8, height: 8 });
  const held = await shipRasters([corner(0, 0)], decoded);
  const failed = await shipRasters([corner(300, 0)], decoded);
  assert.equal(decoded.bytes, 0, 'held by unfinished shipments: none kept');
  assert.equal(decoded.boundBytes, 2 * SLOT_BYTES, 'the bound follows what the plots in flight hold');
  decoded.release(failed, false);
  assert.equal(decoded.heldBytes + decoded.bytes, SLOT_BYTES, 'after its task failed: left to the collector');
  const third = await shipRasters([corner(0, 300)], decoded);
  assert.notEqual(third.tiles[0].slot!, failed.tiles[0].slot!, 'the failed task\'s slot is not lent');
  decoded.release(held, true);
  assert.equal(decoded.bytes, SLOT_BYTES, 'let go by its last shipment: kept');
  decoded.release(third, true);
  assert.equal(decoded.bytes, 2 * SLOT_BYTES);
});

test('reading many tiles one shipment at a time makes no more slots than the bound holds', async () => {
  using f = await fixture();
  const tileBytes = SLOT_BYTES;
  const decoded = new DecodedTiles({ maxBytes: 2 * tileBytes });
  const made = new Set<SharedArrayBuffer>();
  for (let k = 0; k < 40; k++) {
    // Four tiles round and round: each read lends the memory of one a later read needs again.
    const s = await shipRasters([rasterRequest(f.cog, { x0: (k % 2) * 300, y0: (Math.floor(k / 2) % 2) * 300, width: 8, height: 8 })], decoded);
    assembleRasters(s.rasters, s.tiles);
    decoded.release(s, true);
    made.add(s.tiles[0].slot!);
    assert.ok(decoded.bytes + decoded.heldBytes <= decoded.boundBytes);
  }
  assert.equal(made.size, 2, `${made.size} slots made for 40 reads of four tiles`);
  assert.equal(decoded.stats().reused, 38);
});

test('a shipment larger than the bound sets it: the next one as large decodes into its slots', async () => {
  using f = await fixture();
  using g = await fixture();
  const tileBytes = SLOT_BYTES;
  // No bound of its own: what the plots in flight held is kept for the next.
  const decoded = new DecodedTiles({ maxBytes: 0 });
  const whole = (cog: typeof f.cog) => rasterRequest(cog, { x0: 0, y0: 0, width: SIDE, height: SIDE });
  const first = await shipRasters([whole(f.cog)], decoded);
  assembleRasters(first.rasters, first.tiles);
  decoded.release(first, true);
  assert.equal(decoded.boundBytes, 4 * tileBytes);
  assert.equal(decoded.bytes, 4 * tileBytes);
  // Another file's four tiles.
  const second = await shipRasters([whole(g.cog)], decoded);
  assert.deepEqual(new Set(second.tiles.map((t) => t.slot!)), new Set(first.tiles.map((t) => t.slot!)), 'no new memory for the second');
  assert.equal(assembleRasters(second.rasters, second.tiles).get(whole(g.cog).key)!.raw[SIDE * 300 + 300], value(300, 300));
  assert.deepEqual(decoded.stats(), { hits: 0, misses: 8, reused: 4 });
});

test('a tile larger than any kept slot lets the oldest go rather than grow past the bound', async () => {
  using f = await fixture();
  const dir = mkdtempSync(join(tmpdir(), 'pce-ship-'));
  try {
    // The same grid in float32: tiles twice the size of the fixture's.
    const wide = join(dir, 'w.tif');
    await writeCog(wide, { width: SIDE, height: SIDE, dtype: 'float32', data: new Float32Array(SIDE * SIDE).fill(2.5), tileSize: 256, epsg: 32633, geoTransform: [500000, 10, 0, 1000000, 0, -10], nodata: 0 });
    const big = rasterRequest(await openCog(openByteSource(wide)), { x0: 0, y0: 0, width: 8, height: 8 });
    const decoded = new DecodedTiles({ maxBytes: 4 * SLOT_BYTES });
    for (const [x, y] of [[0, 0], [300, 0], [0, 300], [300, 300]]) decoded.release(await shipRasters([rasterRequest(f.cog, { x0: x, y0: y, width: 8, height: 8 })], decoded), true);
    assert.equal(decoded.bytes, 4 * SLOT_BYTES);
    const s = await shipRasters([big], decoded);
    assert.equal(assembleRasters(s.rasters, s.tiles).get(big.key)!.raw[0], 2.5);
    assert.ok(s.tiles[0].slot!.byteLength > SLOT_BYTES);
    assert.ok(decoded.bytes + decoded.heldBytes <= decoded.boundBytes, `${decoded.bytes + decoded.heldBytes} bytes held within ${decoded.boundBytes}`);
    assert.equal(decoded.bytes, 2 * SLOT_BYTES, 'the two oldest let go');
    assert.equal(decoded.stats().reused, 0, 'no kept slot was large enough to lend');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a tile a shipment holds goes to the next shipment needing it, decoded once, whatever is kept', async () => {
  using f = await fixture();
  const decoded = new DecodedTiles({ maxBytes: SLOT_BYTES });
  const corner = (x0: number, y0: number) => rasterRequest(f.cog, { x0, y0, width: 8, height: 8 });
  const first = await shipRasters([corner(0, 0)], decoded);
  assembleRasters(first.rasters, first.tiles);
  // A neighbour's tile is let go and kept while the first shipment is unfinished.
  const other = await shipRasters([corner(300, 0)], decoded);
  decoded.release(other, true);
  assert.equal(decoded.bytes, decoded.maxBytes);
  const again = await shipRasters([corner(0, 0)], decoded);
  assert.equal(again.tiles[0].slot, first.tiles[0].slot);
  assert.equal(again.tiles[0].bytes, null);
  assert.equal(again.fetchedBytes, 0);
  assert.equal(f.reads(), 2);
  assert.deepEqual(decoded.stats(), { hits: 1, misses: 2, reused: 0 });
  assert.equal(assembleRasters(again.rasters, again.tiles).get(corner(0, 0).key)!.raw[0], value(0, 0));
  for (const s of [first, again]) decoded.release(s, true);
  assert.ok(decoded.bytes + decoded.heldBytes <= decoded.boundBytes);
  // Once the tiles let go after it have taken its memory, it is read and decoded anew.
  for (const [x, y] of [[300, 300], [300, 0]]) decoded.release(await shipRasters([corner(x, y)], decoded), true);
  const later = await shipRasters([corner(0, 0)], decoded);
  assert.notEqual(later.tiles[0].bytes, null);
});

test('a tile whose task failed is not handed to a later shipment once the cache has dropped it', async () => {
  using f = await fixture();
  const decoded = new DecodedTiles({ maxBytes: SLOT_BYTES });
  const corner = (x0: number, y0: number) => rasterRequest(f.cog, { x0, y0, width: 8, height: 8 });
  const failed = await shipRasters([corner(0, 0)], decoded);
  const sharing = await shipRasters([corner(0, 0)], decoded);
  assert.equal(sharing.tiles[0].slot, failed.tiles[0].slot);
  await shipRasters([corner(300, 0)], decoded);
  decoded.release(failed, false);
  const after = await shipRasters([corner(0, 0)], decoded);
  assert.notEqual(after.tiles[0].slot, failed.tiles[0].slot, 'a thread may still be writing the failed task\'s slot');
  assert.notEqual(after.tiles[0].bytes, null);
});

test('a tile only a dropped, unfinished shipment held is not kept: the collector takes its slot', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  using f = await fixture();
  const decoded = new DecodedTiles({ maxBytes: SLOT_BYTES });
  const corner = rasterRequest(f.cog, { x0: 0, y0: 0, width: 8, height: 8 });
  // Shipped for a plot whose read was called off: never sent to a task, never released.
  const dropped = new WeakRef((await shipRasters([corner], decoded)).tiles[0].slot!);
  await new Promise((r) => setImmediate(r));
  gc();
  assert.equal(dropped.deref(), undefined, 'nothing else holds the slot');
  const later = await shipRasters([corner], decoded);
  assert.notEqual(later.tiles[0].bytes, null, 'read and decoded afresh');
  assert.deepEqual(decoded.stats(), { hits: 0, misses: 2, reused: 0 });
});

test('while a reader looks ahead, the slot lent at the bound is one of the place it needs again last, not the least recently used', async () => {
  using f = await fixture();
  const decoded = new DecodedTiles({ maxBytes: 2 * SLOT_BYTES });
  const corner = (x0: number, y0: number) => rasterRequest(f.cog, { x0, y0, width: 8, height: 8 });
  const read = async (x: number, y: number) => {
    const s = await shipRasters([corner(x, y)], decoded);
    decoded.release(s, true);
    return s.tiles[0].slot;
  };
  // The file's west column of tiles starts on 15° E (its zone's central meridian): the reader needs it never again, the column east of it next.
  const asked: number[] = [];
  const stop = decoded.lookAhead((place) => {
    asked.push(place[0]);
    return place[0] < 15.01 ? Infinity : 1;
  });
  const west = await read(0, 0);
  const east = await read(300, 0);
  await read(0, 0);
  // Least recently used is the east tile; the west one is lent, as no plot ahead needs it.
  assert.equal(await read(0, 300), west);
  assert.ok(asked.some((w) => w < 15.01) && asked.some((w) => w > 15.01), 'asked about both places');
  assert.equal(await read(300, 0), east, 'the east tile was kept');
  stop();
  // Nobody looks ahead: least recently used again. The west column's (0, 300) tile is older than (300, 0).
  assert.equal(await read(300, 300), west);
});
