import assert from 'node:assert/strict';
import { test } from 'node:test';
import { farthestNextUseDecodes, lruDecodes } from '../../bench/eviction-reference.ts';

const tiles = (keys: string, bytes = 1) => [...keys].map((key) => ({ key, bytes }));

test('least recently used: a cycle one tile longer than the cache decodes every request', () => {
  assert.equal(lruDecodes(tiles('ABCABC'), 2), 6);
  assert.equal(lruDecodes(tiles('ABCABC'), 3), 3);
});

test('farthest next use lets go of the tile asked for again last, and of a tile never asked again first', () => {
  // A, B, C decoded; C lets B go (next at 4, A's at 3); A hit; B decoded, letting A go (never again); C hit.
  assert.equal(farthestNextUseDecodes(tiles('ABCABC'), 2), 4);
  assert.equal(farthestNextUseDecodes(tiles('ABCABC'), 3), 3);
  // Never worse than least recently used over the same requests.
  const asked = tiles('ABCDABEABCDEAACBDE');
  for (const capacity of [1, 2, 3, 4, 5]) assert.ok(farthestNextUseDecodes(asked, capacity) <= lruDecodes(asked, capacity));
});

test('a large tile lets go of as many small ones as it needs room for', () => {
  const asked = [...tiles('AB', 1), { key: 'L', bytes: 2 }, ...tiles('AB', 1)];
  assert.equal(lruDecodes(asked, 2), 5);
  assert.equal(farthestNextUseDecodes(asked, 2), 5);
  assert.equal(farthestNextUseDecodes(asked, 4), 3);
});
