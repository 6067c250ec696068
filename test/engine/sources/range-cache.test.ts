import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openByteSource } from '../../../src/engine/sources/byte-source.ts';
import { openCog } from '../../../src/engine/sources/cog.ts';
import { createHttpClient } from '../../../src/engine/sources/http-client.ts';
import { startArchiveServer } from '../../support/archive-server.ts';
import { RangeCache } from '../../../src/engine/sources/range-cache.ts';
import { pattern, tempDir, writeGdalCog } from './gdal-fixtures.ts';
import { readCogWindow } from '../../support/read-windows.ts';

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

test('never holds more bytes than its bound, evicting the least recently used', () => {
  const cache = new RangeCache({ maxBytes: 10_000 });
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 500; i++) {
    cache.set(`k${Math.floor(random() * 60)}`, bytes(1 + Math.floor(random() * 3000)));
    assert.ok(cache.bytes <= 10_000, `after ${i} inserts: ${cache.bytes} bytes held`);
  }
  cache.clear();
  cache.set('a', bytes(4000));
  cache.set('b', bytes(4000));
  assert.ok(cache.peek('a'));
  void cache.get('a', async () => bytes(1)); // a use makes `a` the most recent
  cache.set('c', bytes(4000));
  assert.equal(cache.peek('b'), undefined, 'the least recently used went first');
  assert.ok(cache.peek('a') && cache.peek('c'));
  cache.set('huge', bytes(10_001));
  assert.equal(cache.peek('huge'), undefined, 'an entry over the bound is not kept');
  assert.equal(cache.bytes, 8000);
});

test('tells of each entry pushed out to stay within the bound, not of one replaced or deleted', () => {
  const evicted: string[] = [];
  const cache = new RangeCache({ maxBytes: 10_000, onEvict: (key) => evicted.push(key) });
  cache.set('a', bytes(4000));
  cache.set('a', bytes(4000));
  cache.set('b', bytes(4000));
  cache.delete('b');
  cache.set('c', bytes(4000));
  assert.deepEqual(evicted, []);
  cache.set('d', bytes(4000));
  assert.deepEqual(evicted, ['a']);
  cache.set('e', bytes(9000));
  assert.deepEqual(evicted, ['a', 'c', 'd']);
});

test('coalesces concurrent loads of one key and does not remember failures', async () => {
  const cache = new RangeCache({ maxBytes: 1 << 20 });
  let loads = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const load = async () => {
    loads++;
    await gate;
    return bytes(10, 9);
  };
  const both = Promise.all([cache.get('t', load), cache.get('t', load)]);
  release();
  const [a, b] = await both;
  assert.equal(loads, 1);
  assert.equal(a, b);
  assert.deepEqual(cache.stats(), { hits: 0, misses: 1, coalesced: 1, evictions: 0 });

  let attempts = 0;
  const failing = async () => {
    attempts++;
    throw new Error('mirror down');
  };
  await assert.rejects(cache.get('f', failing), /mirror down/);
  await assert.rejects(cache.get('f', failing), /mirror down/);
  assert.equal(attempts, 2);
});

test('a reader that aborts leaves; the load stops only when no reader is left', async () => {
  const cache = new RangeCache({ maxBytes: 1 << 20 });
  let loadSignal!: AbortSignal;
  let release!: (v: Uint8Array) => void;
  const load = (signal: AbortSignal) => {
    loadSignal = signal;
    return new Promise<Uint8Array>((ok, fail) => {
      release = ok;
      signal.addEventListener('abort', () => fail(signal.reason));
    });
  };
  const first = new AbortController();
  const second = new AbortController();
  const p1 = cache.get('k', load, first.signal);
  const p2 = cache.get('k', load, second.signal);
  first.abort(new Error('first reader gone'));
  await assert.rejects(p1, /first reader gone/);
  assert.equal(loadSignal.aborted, false, 'the second reader still waits');
  second.abort(new Error('second reader gone'));
  await assert.rejects(p2, /second reader gone/);
  assert.equal(loadSignal.aborted, true);

  // The next reader starts a fresh load.
  const p3 = cache.get('k', load);
  release(bytes(3));
  assert.equal((await p3).length, 3);
});

test('two concurrent reads of one tile make exactly one request', async () => {
  using dir = tempDir();
  const data = pattern((n) => new Uint16Array(n), 1024, 1024, (x, y) => (x * 13 + y * 7) % 50000);
  writeGdalCog(join(dir.path, 'b04.tif'), { width: 1024, height: 1024, bands: [data], epsg: 32633, geoTransform: [0, 10, 0, 0, 0, -10], blockSize: 512 });
  const server = await startArchiveServer({ root: dir.path, latencyMs: 20 });
  const http = createHttpClient();
  const cache = new RangeCache({ maxBytes: 16 << 20 });
  try {
    const cog = await openCog(openByteSource(`${server.url}/b04.tif`, { http, cache }));
    const opened = server.requests().length;
    const [tile] = cog.tilesFor({ x0: 600, y0: 600, width: 10, height: 10 });
    const [a, b] = await Promise.all([cog.readTileBytes(tile), cog.readTileBytes(tile)]);
    assert.deepEqual(a, b);
    const tileRequests = server.requests().slice(opened);
    assert.deepEqual(tileRequests.map((r) => r.range), [`bytes=${tile.offset}-${tile.offset + tile.length - 1}`]);

    // Two whole windows over the same tiles: the second is served from the cache.
    const w1 = await readCogWindow(cog, { x0: 500, y0: 500, width: 40, height: 40 });
    const afterFirst = server.requests().length;
    const w2 = await readCogWindow(cog, { x0: 500, y0: 500, width: 40, height: 40 });
    assert.equal(server.requests().length, afterFirst);
    assert.deepEqual(w1.raw, w2.raw);
    assert.equal(w1.raw[0], (500 * 13 + 500 * 7) % 50000);
  } finally {
    http.close();
    await server.close();
  }
});

test('small header reads share one block request', async () => {
  using dir = tempDir();
  const file = new Uint8Array(200_000);
  for (let i = 0; i < file.length; i++) file[i] = i & 0xff;
  writeFileSync(join(dir.path, 'h.bin'), file);
  const server = await startArchiveServer({ root: dir.path });
  const http = createHttpClient();
  try {
    const src = openByteSource(`${server.url}/h.bin`, { http, cache: new RangeCache({ maxBytes: 1 << 20 }) });
    const reads = await Promise.all([src.read(0, 1024), src.read(8, 400), src.read(30_000, 16), src.read(65_530, 12)]);
    assert.deepEqual(Array.from(reads[1].subarray(0, 3)), [8, 9, 10]);
    assert.deepEqual(Array.from(reads[3]), Array.from(file.subarray(65_530, 65_542)), 'a read across a block boundary joins two blocks');
    assert.deepEqual(server.requests().map((r) => r.range), ['bytes=0-65535', 'bytes=65536-131071']);
  } finally {
    http.close();
    await server.close();
  }
});

test('refuses a bound that is not a byte count', () => {
  assert.throws(() => new RangeCache({ maxBytes: -1 }), /"maxBytes"/);
});
