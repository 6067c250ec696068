import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import {
  assembleRaster, assembleRasters, maskFor, newTileSlot, readySlot, readyTiles, resampleNearest, ringFor, type ShippedRaster, type ShippedTile, slotIsReady, WindowBuffer, type WorkerRaster,
} from '../../../src/engine/worker/raster-window.ts';
import type { TileSpec } from '../../../src/engine/worker/tile-decode.ts';

const SPEC: TileSpec = { compression: 8, predictor: 1, dtype: 'uint16', width: 4, height: 4 };

/** A 4×4 uint16 tile whose pixel (c, r) holds base + r·4 + c, DEFLATE-compressed. */
function tile(base: number, x0: number, y0: number): ShippedTile {
  const px = Uint16Array.from({ length: 16 }, (_, i) => base + i);
  const bytes = new Uint8Array(deflateSync(Buffer.from(px.buffer)));
  return { spec: SPEC, x0, y0, plane: 0, slot: newTileSlot(SPEC), bytes, fill: 0 };
}

const raster = (over: Partial<ShippedRaster>): ShippedRaster => ({
  key: 'k', x0: 0, y0: 0, width: 4, height: 4, dtype: 'uint16', samplesPerPixel: 1, planar: false, tiles: [],
  geoTransform: [0, 1, 0, 0, 0, -1], epsg: 32633, nodata: 9999, scale: 1, offset: 0, ...over,
});

test('a window across two tiles and a sparse one is cut from the decoded tiles, the sparse part read as nodata', () => {
  const tiles = [tile(100, 0, 0), tile(200, 4, 0), { spec: SPEC, x0: 0, y0: 4, plane: 0, slot: null, bytes: null, fill: 9999 }];
  const w = assembleRaster(raster({ x0: 2, y0: 2, width: 4, height: 3, tiles: [0, 1, 2] }), tiles, readyTiles(tiles));
  assert.equal(w.width, 4);
  assert.deepEqual(Array.from(w.raw), [
    110, 111, 208, 209,
    114, 115, 212, 213,
    9999, 9999, 0, 0,
  ]);
  assert.ok(tiles.slice(0, 2).every((t) => slotIsReady(t.slot!)));
});

test('a window across two tiles holds their samples exactly, for every sample type (negative, fractional, NaN and 8-byte ones)', () => {
  const kinds = [
    ['uint8', Uint8Array, (i: number) => i % 256],
    ['uint16', Uint16Array, (i: number) => 40000 + i],
    ['int16', Int16Array, (i: number) => -20000 + i],
    ['uint32', Uint32Array, (i: number) => 4e9 + i],
    ['int32', Int32Array, (i: number) => -2e9 + i],
    ['float32', Float32Array, (i: number) => (i % 7 === 0 ? NaN : -1.5 + i / 4)],
    ['float64', Float64Array, (i: number) => (i % 7 === 0 ? NaN : -1e300 + i / 3)],
  ] as const;
  for (const [dtype, Array_, value] of kinds) {
    const spec: TileSpec = { compression: 8, predictor: 1, dtype, width: 64, height: 2 };
    const made = (base: number, x0: number): ShippedTile => {
      const px = new Array_(128);
      for (let i = 0; i < 128; i++) px[i] = value(base + i);
      return { spec, x0, y0: 0, plane: 0, slot: newTileSlot(spec), bytes: new Uint8Array(deflateSync(Buffer.from(px.buffer))), fill: 0 };
    };
    const tiles = [made(0, 0), made(1000, 64)];
    const w = assembleRaster(raster({ dtype, x0: 50, y0: 0, width: 30, height: 2, tiles: [0, 1] }), tiles, readyTiles(tiles), new ArrayBuffer(1024), 8);
    // The value as the sample type holds it (float32 rounds).
    const expected = (x: number, y: number) => {
      const one = new Array_(1);
      one[0] = value(x < 64 ? y * 64 + x : 1000 + y * 64 + x - 64);
      return one[0];
    };
    for (let y = 0; y < 2; y++) for (let x = 0; x < 30; x++) assert.ok(Object.is(w.raw[y * 30 + x], expected(50 + x, y)), `${dtype} pixel ${50 + x},${y}: ${w.raw[y * 30 + x]}`);
  }
});

test('a ready slot is read as it is, without its bytes', () => {
  const t = tile(1, 0, 0);
  readyTiles([t]);
  const again = { ...t, bytes: null };
  assert.equal(readyTiles([again])[0]![5], 6);
});

test('an undecoded slot without bytes is an error, and the slot stays empty for a later decode', () => {
  const t = { ...tile(1, 0, 0), bytes: null };
  assert.throws(() => readyTiles([t]), /undecoded without its bytes/);
  assert.equal(slotIsReady(t.slot!), false);
  let decoded = 0;
  readySlot(t.slot!, () => decoded++);
  assert.equal(decoded, 1);
});

test("windows cut into a thread's window buffer read as windows of their own, and the next shipment reuses it", () => {
  const tiles = [tile(100, 0, 0), tile(200, 4, 0), { spec: SPEC, x0: 0, y0: 4, plane: 0, slot: null, bytes: null, fill: 9999 }];
  const rasters = [raster({ key: 'a', x0: 2, y0: 2, width: 4, height: 3, tiles: [0, 1, 2] }), raster({ key: 'b', x0: 1, y0: 0, width: 3, height: 1, tiles: [0] })];
  const own = assembleRasters(rasters, tiles);
  const into = new WindowBuffer();
  const first = assembleRasters(rasters, tiles, into);
  for (const key of ['a', 'b']) assert.deepEqual(Array.from(first.get(key)!.raw), Array.from(own.get(key)!.raw));
  assert.equal(first.get('a')!.raw.buffer, first.get('b')!.raw.buffer);
  // Memory the last shipment wrote is zeroed before a window is cut into it, as fresh memory is.
  first.get('a')!.raw.fill(7);
  const again = assembleRasters([rasters[1], rasters[0]], tiles, into);
  assert.equal(again.get('a')!.raw.buffer, first.get('a')!.raw.buffer);
  for (const key of ['a', 'b']) assert.deepEqual(Array.from(again.get(key)!.raw), Array.from(own.get(key)!.raw));
  // A shipment past what a thread keeps gets memory of its own.
  const big = raster({ key: 'big', width: 8192, height: 4097, tiles: [0] });
  assert.ok(8192 * 4097 * 2 > WindowBuffer.KEPT_BYTES);
  assert.notEqual(assembleRasters([big], tiles, into).get('big')!.raw.buffer, first.get('a')!.raw.buffer);
  assert.equal(assembleRasters(rasters, tiles, into).get('a')!.raw.buffer, first.get('a')!.raw.buffer);
});

test('one band is picked out of interleaved tiles', () => {
  const spec: TileSpec = { compression: 1, predictor: 1, dtype: 'uint8', width: 2, height: 1, samplesPerPixel: 3 };
  const t: ShippedTile = { spec, x0: 0, y0: 0, plane: 0, slot: newTileSlot(spec), bytes: Uint8Array.of(1, 2, 3, 4, 5, 6), fill: 0 };
  const w = assembleRaster(raster({ width: 2, height: 1, band: 1, dtype: 'uint8', samplesPerPixel: 3, tiles: [0] }), [t], readyTiles([t]));
  assert.deepEqual(Array.from(w.raw), [2, 5]);
});

const grid = (over: Partial<WorkerRaster>): WorkerRaster => ({
  raw: new Uint8Array(0), width: 10, height: 10, samplesPerPixel: 1, geoTransform: [0, 0.001, 0, 0.01, 0, -0.001], epsg: 4326, nodata: null, scale: 1, offset: 0, ...over,
});

test('a footprint takes the pixels whose centre lies inside it', () => {
  // A square from 0.0021 to 0.0059 degrees east and north: centres 0.0025 to 0.0055 fall inside.
  const ring = [[0.0021, 0.0021], [0.0059, 0.0021], [0.0059, 0.0059], [0.0021, 0.0059], [0.0021, 0.0021]];
  const m = maskFor(grid({}), { type: 'Polygon', coordinates: [ring] });
  assert.equal(m.count, 16);
  // Row 4 (latitude 0.0055 at its centre) holds columns 2 to 5.
  assert.deepEqual(Array.from(m.inside.subarray(40, 50)), [0, 0, 1, 1, 1, 1, 0, 0, 0, 0]);
});

test('the ring is measured in metres from the plot, cut out of it', () => {
  const g = grid({ width: 40, height: 40, geoTransform: [0, 0.0001, 0, 0.004, 0, -0.0001] });
  const plot = maskFor(g, { type: 'Polygon', coordinates: [[[0.0018, 0.0018], [0.0022, 0.0018], [0.0022, 0.0022], [0.0018, 0.0022], [0.0018, 0.0018]]] });
  // The plot spans columns and rows 18 to 21; a pixel is about 11 m tall, so 55 m reaches four pixels out, not six.
  const ring = ringFor(plot, g, 0, 55);
  for (let i = 0; i < plot.inside.length; i++) assert.ok(!(plot.inside[i] && ring.inside[i]));
  const row = 20 * 40;
  assert.equal(ring.inside[row + 21 + 4], 1);
  assert.equal(ring.inside[row + 21 + 6], 0);
});

test('a coarse band is brought onto the fine grid, nearest neighbour, nodata outside it', () => {
  const fine = grid({ width: 4, height: 2, geoTransform: [0, 10, 0, 20, 0, -10], epsg: 32633 });
  const coarse = grid({ raw: Uint8Array.of(1, 2, 3, 4), width: 2, height: 2, geoTransform: [10, 20, 0, 20, 0, -20], epsg: 32633, nodata: 0 });
  assert.deepEqual(Array.from(resampleNearest(fine, coarse)), [0, 1, 1, 2, 0, 1, 1, 2]);
});

test('onto a grid twice and three times as fine, offset and reaching past the source, every cell is the source cell under its centre', () => {
  const coarse = grid({ raw: Uint16Array.from({ length: 7 * 5 }, (_, i) => 100 + i), width: 7, height: 5, geoTransform: [1000, 20, 0, 2000, 0, -20], epsg: 32633, nodata: 9 });
  for (const [px, ox, oy] of [[10, 995, 2025], [20 / 3, 1003, 2011]] as const) {
    const fine = grid({ width: 25, height: 19, geoTransform: [ox, px, 0, oy, 0, -px], epsg: 32633 });
    const out = resampleNearest(fine, coarse);
    for (let r = 0; r < fine.height; r++) {
      for (let c = 0; c < fine.width; c++) {
        // The centre of the fine cell, and the coarse cell it falls in.
        const x = ox + (c + 0.5) * px, y = oy - (r + 0.5) * px;
        const sc = Math.floor((x - 1000) / 20), sr = Math.floor((2000 - y) / 20);
        const want = sc >= 0 && sc < 7 && sr >= 0 && sr < 5 ? 100 + sr * 7 + sc : 9;
        assert.equal(out[r * fine.width + c], want, `cell ${c},${r} at ${px} m`);
      }
    }
  }
});

test('a tile another thread is decoding is waited for after the tiles no thread has claimed are decoded', async () => {
  const { Worker } = await import('node:worker_threads');
  const busy = tile(1, 0, 0);
  const free = tile(100, 4, 0);
  // The other thread claims `busy`, then holds it until `free` is ready (or 5 s pass), then finishes it.
  const other = new Worker(`
    const { workerData, parentPort } = require('node:worker_threads');
    const busy = new Int32Array(workerData.busy, workerData.busy.byteLength - 4, 1);
    const free = new Int32Array(workerData.free, workerData.free.byteLength - 4, 1);
    Atomics.store(busy, 0, 1);
    parentPort.postMessage('claimed');
    const until = Date.now() + 5000;
    while (Atomics.load(free, 0) !== 2 && Date.now() < until) Atomics.wait(free, 0, Atomics.load(free, 0), 20);
    const freeFirst = Atomics.load(free, 0) === 2;
    Atomics.store(busy, 0, 2);
    Atomics.notify(busy, 0);
    parentPort.postMessage(freeFirst);
  `, { eval: true, workerData: { busy: busy.slot, free: free.slot } });
  const answers: unknown[] = [];
  const done = new Promise<void>((resolve) => other.on('message', (m) => answers.push(m) === 2 && resolve()));
  await new Promise((resolve) => other.once('message', resolve));
  readyTiles([busy, free]);
  await done;
  await other.terminate();
  assert.equal(answers[1], true, 'the unclaimed tile was decoded before waiting on the claimed one');
  assert.ok(slotIsReady(busy.slot!) && slotIsReady(free.slot!));
});
