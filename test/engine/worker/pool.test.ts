import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPool, PoolError } from '../../../src/engine/worker/pool.ts';
import { newTileSlot, slotState, TILE_STATE } from '../../../src/engine/worker/raster-window.ts';
import * as Tasks from '../../fixtures/pool-tasks.ts';

type FixtureTasks = {
  rendezvous: { params: Parameters<typeof Tasks.rendezvous>[0]; result: number };
  decodeShared: { params: Parameters<typeof Tasks.decodeShared>[0]; result: number };
  echo: { params: unknown; result: unknown };
  niceness: { params: undefined; result: number };
};
const FIXTURE = new URL('../../fixtures/pool-tasks.ts', import.meta.url);

test('refuses options out of range, naming the option', () => {
  const bad: Array<[object, RegExp]> = [
    [{ size: 0 }, /"size \(POOL_SIZE\)" must be a whole number from 1/],
    [{ size: 1.5 }, /"size \(POOL_SIZE\)"/],
    [{ size: 2, minThreads: 3 }, /"minThreads" must be a whole number from 0 to 2/],
    [{ size: 2, maxQueue: -1 }, /"maxQueue"/],
    [{ size: 2, idleTimeoutMs: Number.NaN }, /"idleTimeoutMs"/],
    [{ size: 2, nice: 20 }, /"nice \(POOL_NICE\)" must be a whole number from 0 to 19/],
    [{ size: 2, nice: -1 }, /"nice \(POOL_NICE\)"/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => createPool({ filename: FIXTURE, ...(options as { size: number }) }), (err: unknown) => err instanceof PoolError && err.code === 'pool_option_invalid' && message.test(err.message));
  }
});

test('runs as many tasks at once as it has threads', async () => {
  const pool = createPool<FixtureTasks>({ size: 2, filename: FIXTURE });
  try {
    const counter = new SharedArrayBuffer(4);
    // Each task waits for the other: both finish only if both ran at the same time.
    const seen = await Promise.all([0, 1].map(() => pool.run('rendezvous', { counter, parties: 2 })));
    assert.deepEqual(seen, [2, 2]);
  } finally {
    await pool.close();
  }
});

test('pool threads are scheduled as told below the process\'s own threads, and as its own by default', async () => {
  const own = Tasks.niceness();
  for (const [nice, expected] of [[undefined, own], [0, own], [2, own + 2], [10, own + 10]] as const) {
    const pool = createPool<FixtureTasks>({ size: 1, filename: FIXTURE, ...(nice === undefined ? {} : { nice }) });
    try {
      assert.equal(await pool.run('niceness', undefined), Math.min(19, expected), `nice ${String(nice)}`);
    } finally {
      await pool.close();
    }
  }
  assert.equal(Tasks.niceness(), own, 'the calling thread keeps its priority');
});

test('a pool of one thread runs its tasks one after another', async () => {
  const pool = createPool<FixtureTasks>({ size: 1, filename: FIXTURE });
  try {
    const counter = new SharedArrayBuffer(4);
    // The first task cannot meet a second party while it holds the only thread; it gives up at its bound.
    const [first, second] = await Promise.all([pool.run('rendezvous', { counter, parties: 2, boundMs: 300 }), pool.run('rendezvous', { counter, parties: 2 })]);
    assert.equal(first, 1);
    assert.equal(second, 2);
  } finally {
    await pool.close();
  }
});

test('a tile slot shared by two threads is decoded once, and both read its pixels', async () => {
  const pool = createPool<FixtureTasks>({ size: 2, filename: FIXTURE });
  try {
    const slot = newTileSlot({ compression: 1, predictor: 1, dtype: 'uint8', width: 64, height: 64 });
    const decodes = new SharedArrayBuffer(4);
    const arrived = new SharedArrayBuffer(4);
    const read = await Promise.all([0, 1].map(() => pool.run('decodeShared', { arrived, parties: 2, slot, pixels: 64 * 64, decodes, value: 7 })));
    assert.deepEqual(read, [7, 7]);
    assert.equal(new Int32Array(decodes)[0], 1);
    assert.equal(Atomics.load(slotState(slot), 0), TILE_STATE.READY);
  } finally {
    await pool.close();
  }
});

test('a closed pool refuses tasks with pool_closed', async () => {
  const pool = createPool<FixtureTasks>({ size: 1, filename: FIXTURE });
  assert.deepEqual(await pool.run('echo', { a: 1 }), { a: 1 });
  await pool.close();
  await assert.rejects(pool.run('echo', 1), (err: unknown) => err instanceof PoolError && err.code === 'pool_closed');
});

test('a task beyond the running ones and a full queue is refused with pool_full, naming the pool', async () => {
  const pool = createPool<FixtureTasks>({ size: 1, maxQueue: 1, filename: FIXTURE, name: 'intake' });
  try {
    const counter = new SharedArrayBuffer(4);
    const running = pool.run('rendezvous', { counter, parties: 2, boundMs: 500 });
    const queued = pool.run('echo', 'waits');
    await assert.rejects(pool.run('echo', 'refused'), (err: unknown) => err instanceof PoolError && err.code === 'pool_full' && /the intake pool has 1 tasks waiting/.test(err.message));
    assert.equal(await queued, 'waits');
    await running;
  } finally {
    await pool.close();
  }
});
