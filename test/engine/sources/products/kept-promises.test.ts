// The keeping behind the adapters' parsed headers, listings and manifests.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeptPromises } from '../../../../src/engine/sources/products/cog-opener.ts';

test('a kept promise is made once, the least recently used goes first past the bound, and a failure is not kept', async () => {
  const made: string[] = [];
  const kept = new KeptPromises<string>(2);
  const ask = (key: string, fail = false) => kept.get(key, () => (made.push(key), fail ? Promise.reject(new Error(key)) : Promise.resolve(key)));
  await ask('a');
  await ask('b');
  await ask('a');
  await ask('c');
  assert.deepEqual(made, ['a', 'b', 'c'], 'a was asked again, so b went when c came');
  await ask('a');
  await ask('b');
  assert.deepEqual(made, ['a', 'b', 'c', 'b']);
  await assert.rejects(ask('d', true));
  await new Promise((r) => setImmediate(r));
  assert.equal(await ask('d'), 'd');
  assert.deepEqual(made.slice(-2), ['d', 'd'], 'the failed one was made again');
});
