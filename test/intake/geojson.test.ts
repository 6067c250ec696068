import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { parseGeoJson } from '../../src/intake/geojson.ts';
import { DEFAULT_CAPS, MAX_PLOTS } from '../../src/intake/limits.ts';

const bytes = (x: unknown) => Buffer.from(typeof x === 'string' ? x : JSON.stringify(x));
const polygon = { type: 'Polygon', coordinates: [[[-1.5, 6.5], [-1.49, 6.5], [-1.49, 6.51], [-1.5, 6.5]]] };

function refusal(input: Uint8Array): { code: string; message: string } {
  try {
    parseGeoJson(input);
  } catch (error) {
    return error as { code: string; message: string };
  }
  assert.fail('the file was read');
}

test('reads a FeatureCollection, one plot per feature with its properties', () => {
  const parsed = parseGeoJson(
    bytes({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { ref: 'a' }, geometry: polygon },
        { type: 'Feature', properties: null, geometry: { type: 'Point', coordinates: [-1.5, 6.5] } },
      ],
    }),
  );
  assert.equal(parsed.format, 'geojson');
  assert.deepEqual(
    parsed.plots.map((p) => [p.index, p.properties, (p.geometry as { type: string }).type]),
    [
      [0, { ref: 'a' }, 'Polygon'],
      [1, {}, 'Point'],
    ],
  );
});

test('reads a single Feature and a bare geometry as one plot each', () => {
  assert.equal(parseGeoJson(bytes({ type: 'Feature', properties: { ref: 'x' }, geometry: polygon })).plots[0].properties.ref, 'x');
  assert.deepEqual(parseGeoJson(bytes(polygon)).plots[0].geometry, polygon);
});

test('keeps a feature without geometry as a plot, and lists an item that is no feature in row_errors', () => {
  const parsed = parseGeoJson(bytes({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {} }, 42] }));
  assert.equal(parsed.plots.length, 1);
  assert.equal(parsed.plots[0].geometry, null);
  assert.deepEqual(parsed.row_errors.map((e) => [e.index, e.code]), [[1, 'not_a_feature']]);
});

test('refuses broken JSON with bad_json naming where it breaks', () => {
  const error = refusal(bytes('{"type": "FeatureCollection", "features": [ {"type": "Feature"'));
  assert.equal(error.code, 'bad_json');
  assert.match(error.message, /JSON/);
});

test('refuses JSON that is not GeoJSON with bad_geojson', () => {
  assert.equal(refusal(bytes({ plots: [] })).code, 'bad_geojson');
  assert.equal(refusal(bytes([1, 2])).code, 'bad_geojson');
  assert.equal(refusal(bytes({ type: 'FeatureCollection' })).code, 'bad_geojson');
});

test('refuses a blank file with empty_file and Latin-1 bytes with bad_encoding', () => {
  assert.equal(refusal(bytes('  \n ')).code, 'empty_file');
  const latin1 = Buffer.from('{"type":"Feature","properties":{"producer":"Coopérative"},"geometry":null}', 'latin1');
  assert.equal(refusal(latin1).code, 'bad_encoding');
});

test('reads a UTF-8 file with a byte order mark', () => {
  const parsed = parseGeoJson(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes(polygon)]));
  assert.equal(parsed.plots.length, 1);
});

test('converts coordinates under a legacy crs member to WGS84 and notes it', () => {
  // EPSG:3857 x = R * lon in radians: 1 degree east is 111319.49 m.
  const parsed = parseGeoJson(
    bytes({ type: 'Point', coordinates: [111319.49079327357, 0], crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::3857' } } }),
  );
  const [lon, lat] = (parsed.plots[0].geometry as { coordinates: number[] }).coordinates;
  assert.ok(Math.abs(lon - 1) < 1e-9 && Math.abs(lat) < 1e-9);
  assert.equal(parsed.notes.length, 1);
});

test('takes CRS84 and EPSG:4326 crs members as they are', () => {
  for (const name of ['urn:ogc:def:crs:OGC:1.3:CRS84', 'EPSG:4326']) {
    const parsed = parseGeoJson(bytes({ ...polygon, crs: { type: 'name', properties: { name } } }));
    assert.deepEqual((parsed.plots[0].geometry as typeof polygon).coordinates, polygon.coordinates);
    assert.deepEqual(parsed.notes, []);
  }
});

test('refuses a crs it cannot convert with unsupported_crs', () => {
  const error = refusal(bytes({ ...polygon, crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::99999' } } }));
  assert.equal(error.code, 'unsupported_crs');
});

test('refuses a geocentric crs (+proj=geocent), neither geographic nor projected, with unsupported_crs', () => {
  const error = refusal(bytes({ ...polygon, crs: { type: 'name', properties: { name: '+proj=geocent +datum=WGS84 +units=m +no_defs' } } }));
  assert.equal(error.code, 'unsupported_crs');
  assert.match(error.message, /geocentric .*neither geographic nor projected.*EPSG:4326/s);
});

test(`refuses more than ${MAX_PLOTS} features with too_many_plots`, () => {
  const feature = '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-1.5,6.5]}}';
  const text = `{"type":"FeatureCollection","features":[${Array(MAX_PLOTS + 1).fill(feature).join(',')}]}`;
  assert.equal(refusal(bytes(text)).code, 'too_many_plots');
});

test('refuses a file whose features together hold more vertices than MAX_VERTICES_PER_FILE, counted as they are read', () => {
  const file = bytes({ type: 'FeatureCollection', features: [0, 1, 2].map(() => ({ type: 'Feature', properties: {}, geometry: polygon })) });
  assert.equal(parseGeoJson(file, { ...DEFAULT_CAPS, verticesPerFile: 12 }).plots.length, 3);
  try {
    parseGeoJson(file, { ...DEFAULT_CAPS, verticesPerFile: 11 });
    assert.fail('the file was read');
  } catch (error) {
    assert.equal((error as { code: string }).code, 'too_many_vertices');
    assert.match((error as Error).message, /11 \(MAX_VERTICES_PER_FILE\)/);
  }
});

test('lists the first 100 items that are no feature and counts the rest', () => {
  const parsed = parseGeoJson(bytes({ type: 'FeatureCollection', features: [...Array.from({ length: 250 }, () => 7), { type: 'Feature', properties: {}, geometry: polygon }] }));
  assert.equal(parsed.plots.length, 1);
  assert.equal(parsed.row_errors.length, 100);
  assert.equal(parsed.row_errors_omitted, 150);
  assert.equal(parsed.row_errors[99].index, 99);
});
