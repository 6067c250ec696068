import { test } from 'node:test';
import assert from 'node:assert/strict';

test('runs on Node 24', () => {
  assert.equal(Number(process.versions.node.split('.')[0]), 24);
});
