import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TileFileCache } from '../../src/reading-service/tile-file-cache.ts';

const bytes = (n: number, v: number) => new Uint8Array(n).fill(v);
const held = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith('.png'));

test('the tile cache keeps rendered tiles within its bound in bytes, the least recently used out first, across a restart', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tile-cache-'));
  try {
    const cache = new TileFileCache(dir, 2500);
    await cache.put('a', bytes(1000, 1));
    await cache.put('b', bytes(1000, 2));
    // File times tell the order after a restart; a few milliseconds apart, they differ.
    await sleep(20);
    // Reading a makes b the least recently used.
    assert.deepEqual([...(await cache.get('a'))!], [...bytes(1000, 1)]);
    await sleep(20);
    await cache.put('c', bytes(1000, 3));
    assert.equal(await cache.get('b'), null);
    assert.equal((await cache.get('c'))![0], 3);
    assert.equal(cache.bytes, 2000);
    assert.equal(held(dir).length, 2);
    // A tile larger than the whole bound is not kept.
    await cache.put('huge', bytes(3000, 4));
    assert.equal(await cache.get('huge'), null);

    const again = new TileFileCache(dir, 1500);
    assert.equal((await again.get('c'))?.[0], 3, 'the most recently used survives a restart under a smaller bound');
    assert.equal(again.bytes, 1000);
    assert.equal(held(dir).length, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
