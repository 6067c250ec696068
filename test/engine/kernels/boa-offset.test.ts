import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boaOffset } from '../../../src/engine/kernels/boa-offset.ts';

const RULE = { offsetDn: 1000, minPixels: 100, inPixelsUnder: 0.005, removedFrom: 0.05 };

/** `n` DNs, `below` of them under the offset, the rest above it, and `missing` no-data pixels. */
function band(n: number, below: number, missing = 0, nodata = 0): Uint16Array {
  const a = new Uint16Array(n + missing).fill(nodata);
  for (let i = 0; i < n; i++) a[i] = i < below ? 400 : 1300;
  return a;
}

test('almost no DN under the offset: the offset is still in the pixels', () => {
  assert.equal(boaOffset({ dn: band(1000, 4), nodata: 0, ...RULE }), 'offset_in_pixels');
});

test('a clear share under the offset: it was removed', () => {
  assert.equal(boaOffset({ dn: band(1000, 50), nodata: 0, ...RULE }), 'offset_removed');
});

test('between the two shares, or with too few valid pixels, the check stays undecided', () => {
  assert.equal(boaOffset({ dn: band(1000, 20), nodata: 0, ...RULE }), 'undecided');
  assert.equal(boaOffset({ dn: band(99, 50, 5000), nodata: 0, ...RULE }), 'undecided');
});

test('no-data pixels count neither as valid nor as below, whether the no-data value is below the offset or above it', () => {
  // 900 no-data zeros would make 90% of the band "below" if they were counted.
  assert.equal(boaOffset({ dn: band(1000, 4, 900), nodata: 0, ...RULE }), 'offset_in_pixels');
  assert.equal(boaOffset({ dn: band(1000, 60, 5000, 65535), nodata: 65535, ...RULE }), 'offset_removed');
});
