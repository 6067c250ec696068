import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { parseCsv } from '../../src/intake/csv.ts';
import { MAX_PLOTS } from '../../src/intake/limits.ts';

const csv = (text: string) => Buffer.from(text, 'utf8');
const coordinates = (p: { geometry: unknown }) => (p.geometry as { coordinates: number[] }).coordinates;

function refusal(input: Uint8Array): { code: string; message: string } {
  try {
    parseCsv(input);
  } catch (error) {
    return error as { code: string; message: string };
  }
  assert.fail('the file was read');
}

test('reads comma-separated points with their other columns as properties', () => {
  const parsed = parseCsv(csv('ref,lon,lat,commodity\nA,-1.512345,6.512345,cocoa\nB,-1.6,6.6,coffee\n'));
  assert.equal(parsed.format, 'csv');
  assert.deepEqual(parsed.plots.map((p) => [p.index, p.properties.ref, coordinates(p)]), [
    [0, 'A', [-1.512345, 6.512345]],
    [1, 'B', [-1.6, 6.6]],
  ]);
  assert.deepEqual(parsed.plots[0].properties, { ref: 'A', commodity: 'cocoa' });
  assert.deepEqual(parsed.plots.map((p) => p.writtenDecimals), [6, 1]);
});

test('sniffs semicolon with decimal commas, tab and pipe', () => {
  assert.deepEqual(coordinates(parseCsv(csv('ref;lat;lon\nA;6,5;-1,25\n')).plots[0]), [-1.25, 6.5]);
  assert.deepEqual(coordinates(parseCsv(csv('ref\tLongitude\tLatitude\nA\t-1.25\t6.5\n')).plots[0]), [-1.25, 6.5]);
  assert.deepEqual(coordinates(parseCsv(csv('ref|lon|lat\nA|-1.25|6.5\n')).plots[0]), [-1.25, 6.5]);
});

test('reads a UTF-8 byte order mark, CRLF lines and quoted fields holding the delimiter', () => {
  const parsed = parseCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), csv('"ref","lon","lat","producer"\r\n"A, north",-1.25,6.5,"Coop ""Éclair"""\r\n')]));
  assert.deepEqual(parsed.plots[0].properties, { ref: 'A, north', producer: 'Coop "Éclair"' });
});

test('lists ragged rows in row_errors with their line and keeps the rest', () => {
  const parsed = parseCsv(csv('ref,lon,lat\nA,-1.25,6.5\nB,-1.3\nC,-1.4,6.4,extra\nD,-1.5,6.3\n'));
  assert.deepEqual(parsed.plots.map((p) => p.properties.ref), ['A', 'D']);
  assert.deepEqual(parsed.row_errors.map((e) => [e.index, e.line, e.code]), [
    [1, 3, 'ragged_row'],
    [2, 4, 'ragged_row'],
  ]);
  assert.match(parsed.row_errors[0].message, /Line 3 has 2 fields; the header has 3/);
});

test('lists a row with broken quoting in row_errors rather than refusing the file', () => {
  const parsed = parseCsv(csv('ref,lon,lat\nA,-1.25,6.5\n"B,-1.3,6.4\n'));
  assert.deepEqual(parsed.plots.map((p) => p.properties.ref), ['A']);
  assert.equal(parsed.row_errors.length, 1);
  assert.equal(parsed.row_errors[0].code, 'ragged_row');
});

test('gives a row without coordinates no geometry and one with text for numbers NaN', () => {
  const parsed = parseCsv(csv('ref,lon,lat\nA,,\nB,east,6.5\n'));
  assert.equal(parsed.plots[0].geometry, null);
  assert.ok(Number.isNaN(coordinates(parsed.plots[1])[0]));
});

test('refuses a header without lon and lat with bad_csv', () => {
  const error = refusal(csv('ref,x_coord,y_coord\nA,1,2\n'));
  assert.equal(error.code, 'bad_csv');
  assert.match(error.message, /lon and a lat column/);
});

test('refuses invalid UTF-8 with bad_encoding and a blank file with empty_file', () => {
  assert.equal(refusal(Buffer.from('ref,lon,lat\nCoopérative,-1.2,6.5\n', 'latin1')).code, 'bad_encoding');
  assert.equal(refusal(csv('\n\n')).code, 'empty_file');
});

test('reads a header alone as a file of no plots', () => {
  assert.deepEqual(parseCsv(csv('lon,lat\n')).plots, []);
});

test('refuses more than the plot limit with too_many_plots', () => {
  const rows = ['lon,lat', ...Array(MAX_PLOTS + 1).fill('-1.5,6.5')];
  assert.equal(refusal(csv(rows.join('\n'))).code, 'too_many_plots');
});
