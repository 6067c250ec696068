// The lock one generator holds while others wait: it is what lets the demo archive's install and
// the test worlds be asked for by several processes at once.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { STALE_LOCK_MS, underGenerationLock } from '../../src/demo/generation-lock.ts';

const dir = await mkdtemp(join(tmpdir(), 'generation-lock-'));
after(() => rm(dir, { recursive: true, force: true }));

function world(name: string, generations: { n: number }) {
  const out = join(dir, name);
  return {
    ready: () => readFile(out, 'utf8').catch(() => null),
    generate: async () => {
      generations.n++;
      await sleep(300);
      await writeFile(out, `${name} #${generations.n}`);
      return `${name} #${generations.n}`;
    },
    waitMs: 60_000,
    timedOut: () => new Error('timed out'),
  };
}

test('callers asking at once wait for one generation and all get what it wrote', async () => {
  const generations = { n: 0 };
  const lock = join(dir, 'a.generating');
  const results = await Promise.all(Array.from({ length: 4 }, () => underGenerationLock(lock, world('a', generations))));
  assert.equal(generations.n, 1);
  assert.deepEqual(results, Array(4).fill('a #1'));
  await assert.rejects(readFile(lock), { code: 'ENOENT' }, 'the lock is removed when the holder is done');
});

test('a lock its holder left untouched is taken over; a touched one is waited on until the caller gives up', async () => {
  const generations = { n: 0 };
  const lock = join(dir, 'b.generating');
  await writeFile(lock, '');
  const longAgo = new Date(Date.now() - STALE_LOCK_MS - 60_000);
  await utimes(lock, longAgo, longAgo);
  assert.equal(await underGenerationLock(lock, world('b', generations)), 'b #1');

  const live = join(dir, 'c.generating');
  await writeFile(live, '');
  await assert.rejects(underGenerationLock(live, { ...world('c', generations), waitMs: 600 }), /timed out/);
  assert.equal(generations.n, 1, 'nothing was generated under a live holder');
});

test('a failed generation lets go of the lock, and the next caller generates', async () => {
  const lock = join(dir, 'd.generating');
  const failing = { ...world('d', { n: 0 }), generate: () => Promise.reject(new Error('disk full')) };
  await assert.rejects(underGenerationLock(lock, failing), /disk full/);
  const generations = { n: 0 };
  assert.equal(await underGenerationLock(lock, world('d', generations)), 'd #1');
});
