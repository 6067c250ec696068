import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { decimalsOf, needsSixDecimals, onSixDecimalGrid, writtenCoordinateDecimals, writtenDecimals } from '../../src/intake/decimals.ts';
import { parseGeoJson } from '../../src/intake/geojson.ts';
import { validatePlots } from '../../src/intake/validate.ts';

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

test('reads the decimals written in each GeoJSON geometry\'s coordinates, not those of other members or altitude', () => {
  const text = JSON.stringify({ type: 'FeatureCollection', features: [
    { type: 'Feature', properties: { coordinates: [1.123456789], 'a"b': 'x' }, geometry: { type: 'Point', coordinates: ['LON', 'LAT', 'ALT'] } },
    { type: 'Feature', geometry: { coordinates: [[['X3', 2.1]]], type: 'Polygon' }, properties: null },
  ] }).replace('"LON"', '7.203200').replace('"LAT"', '-1.50').replace('"ALT"', '100.1234567').replace('"X3"', '15e-4');
  assert.deepEqual([...writtenCoordinateDecimals(text)], [['features/0', 6], ['features/1', 4]]);
  assert.deepEqual([...writtenCoordinateDecimals('{"type":"Feature","geometry":{"type":"Point","coordinates":[7.20,-1.5]}}')], [['geometry', 2]]);
  assert.deepEqual([...writtenCoordinateDecimals('{"type":"Point","coordinates":[7.2,-1.5123]}')], [['root', 4]]);
});

test('judges precision on the coordinates as written: 6.700000 has six decimals though the number prints 6.7', () => {
  const square = (d: number) => [[-1.6, 6.7], [-1.599, 6.7], [-1.599, 6.701], [-1.6, 6.701], [-1.6, 6.7]].map(([x, y]) => `[${x.toFixed(d)},${y.toFixed(d)}]`).join(',');
  const file = (d: number) => Buffer.from(`{"type":"Feature","properties":{"ref":"A"},"geometry":{"type":"Polygon","coordinates":[[${square(d)}]]}}`);
  const codes = (d: number) => validatePlots(parseGeoJson(file(d)), { country: 'GH' }).plots[0].findings.map((f) => f.code);
  assert.deepEqual(codes(6), []);
  assert.deepEqual(codes(4), ['low_precision']);
  assert.match(validatePlots(parseGeoJson(file(4)), { country: 'GH' }).plots[0].findings[0].message, /at most 4\.$/);
});
