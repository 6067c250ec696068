import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mgrsSquare, utmEpsg } from '../../../../src/engine/sources/products/mgrs.ts';

test('UTM zones and MGRS squares match known Sentinel-2 tiles', () => {
  assert.equal(utmEpsg(99.2, 9.0), 32647);
  assert.equal(utmEpsg(-49.4, -20.6), 32722);
  assert.equal(mgrsSquare(-77.0353, 38.8895).code, '18SUJ'); // Washington Monument, 18SUJ 23483 06479
  assert.equal(mgrsSquare(48.0, 18.5).code.slice(0, 3), '39Q');
});
