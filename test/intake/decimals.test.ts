import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimalsOf, needsSixDecimals, onSixDecimalGrid, writtenDecimals } from '../../src/intake/decimals.ts';

test('counts the decimals a number prints with, exponent form included', () => {
  assert.deepEqual([1.5, 6.70046, -1.600123, 1.5e-7, 12].map(decimalsOf), [1, 5, 6, 8, 0]);
});

test('tells a number needing six decimals or more without printing it', () => {
  assert.deepEqual([6.70046, 179.99999, -0.1, 6.700456, 1e-6, 6.604895591499172].map(needsSixDecimals), [false, false, false, true, true, true]);
});

test('counts decimals as written, trailing zeros and a decimal comma included', () => {
  assert.deepEqual(['6.500000', '-1,25', ' 12 ', '6.7e-3'].map(writtenDecimals), [6, 2, 0, 1]);
});

test('places coordinates on the 6-decimal grid the EU system cuts to', () => {
  assert.equal(onSixDecimalGrid(-1.5991231), onSixDecimalGrid(-1.599123));
  assert.notEqual(onSixDecimalGrid(-1.5991236), onSixDecimalGrid(-1.599123));
});
