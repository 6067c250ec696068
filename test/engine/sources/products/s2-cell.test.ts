import { test } from 'node:test';
import assert from 'node:assert/strict';
import { s2CellToken } from '../../../../src/engine/sources/products/s2-cell.ts';

test('S2 cell tokens follow the S2 library (faces, and Manhattan under 89c25)', () => {
  assert.equal(s2CellToken(0, 0, 0), '1');
  assert.equal(s2CellToken(90, 0, 0), '3');
  assert.equal(s2CellToken(0, -90, 0), 'b');
  assert.equal(s2CellToken(-73.9855, 40.758, 8), '89c25');
});
