import fc from 'fast-check';
import { zipSync } from 'fflate';
import { type ShapefileRecord, writeShapefile } from '../fixtures/shapefile.ts';

/**
 * Generators of malformed plot files for the intake fuzz suite: each starts from a file the service
 * accepts and breaks it the ways files in the field are broken (cut short, nested wrongly, numbers
 * out of range or spelled as words, other encodings, zip containers gone wrong), so most cases
 * reach deep into a parser instead of failing at its first byte.
 */

export interface MalformedFile {
  name: string;
  bytes: Uint8Array;
}

const SQUARE: Array<[number, number]> = [[-1.6, 6.7], [-1.599, 6.7], [-1.599, 6.701], [-1.6, 6.701], [-1.6, 6.7]];

/** Numbers a writer gets wrong: huge, tiny, negative zero, non-finite, spelled out, over-precise. */
const oddNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(1e308, -1e308, 5e-324, -0, 0, 180.0000001, -90.5, 1e21, 2 ** 53 + 1),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '', ' ', '1e400', '0x1F', '1,5', '٣', 'null'),
  fc.double(),
  fc.integer(),
  fc.constant(null),
);

const oddText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('=cmd|/c calc', '\u0000', '\ufeff', '\ud800', 'é'.normalize('NFD'), '"', "'", '\r\n', '<![CDATA[', '&amp;'),
);

/** One coordinate pair, well formed or not. */
const oddPosition: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })),
  fc.tuple(oddNumber, oddNumber),
  fc.array(oddNumber, { maxLength: 5 }),
  oddNumber,
);

/** A geometry that is wrong in its type, nesting, ring closure or numbers. */
const oddGeometry: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ type: fc.constant('Polygon'), coordinates: fc.constant([SQUARE]) }),
  fc.record({ type: fc.constantFrom('Polygon', 'MultiPolygon', 'Point', 'LineString', 'GeometryCollection', 'polygon', 'Circle', ''), coordinates: fc.array(fc.array(oddPosition, { maxLength: 6 }), { maxLength: 3 }) }),
  fc.record({ type: fc.constant('Point'), coordinates: oddPosition }),
  fc.record({ type: fc.constant('MultiPolygon'), coordinates: fc.constant([SQUARE]) }), // one level too shallow
  fc.record({ type: fc.constant('Polygon'), coordinates: fc.constant([[SQUARE]]) }), // one level too deep
  fc.record({ type: fc.constant('Polygon'), coordinates: fc.constant([SQUARE.slice(0, 3)]) }),
  fc.record({ type: fc.constant('GeometryCollection'), geometries: fc.array(fc.record({ type: fc.constant('Point'), coordinates: oddPosition }), { maxLength: 3 }) }),
  fc.constantFrom(null, 7, 'Polygon', [], {}),
);

const oddProperties: fc.Arbitrary<unknown> = fc.oneof(
  fc.dictionary(fc.constantFrom('ProducerName', 'ProducerCountry', 'ProductionPlace', 'Area', 'external_ref', 'commodity', 'country', 'plot_id'), fc.oneof(oddText, oddNumber, fc.constant({ nested: [1, 2] })), { maxKeys: 6 }),
  fc.constantFrom(null, [], 'properties', 3),
);

const oddFeature: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ type: fc.constant('Feature'), properties: oddProperties, geometry: oddGeometry }),
  fc.record({ type: fc.constantFrom('feature', 'Feature', 'FeatureCollection'), geometry: oddGeometry }),
  oddGeometry,
);

/** Turns a whole file's text into bytes of another encoding, or breaks the encoding itself. */
const encoding: fc.Arbitrary<(text: string) => Uint8Array> = fc.constantFrom(
  (t: string) => Buffer.from(t, 'utf8'),
  (t: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t, 'utf8')]),
  (t: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')]),
  (t: string) => Buffer.from(t, 'latin1'),
  (t: string) => Buffer.concat([Buffer.from(t.slice(0, t.length >> 1), 'utf8'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]), Buffer.from(t.slice(t.length >> 1), 'utf8')]),
);

/** Damage applied to the finished bytes: cut short, a run of bytes overwritten, or none. */
const damage: fc.Arbitrary<(bytes: Uint8Array) => Uint8Array> = fc.oneof(
  fc.constant((b: Uint8Array) => b),
  fc.double({ min: 0, max: 1, noNaN: true }).map((f) => (b: Uint8Array) => b.subarray(0, Math.floor(b.length * f))),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([f, junk]) => (b: Uint8Array) => {
    const out = Uint8Array.from(b);
    out.set(junk.subarray(0, Math.max(0, out.length - Math.floor(out.length * f))), Math.floor(out.length * f));
    return out;
  }),
);

const finish = (name: string, text: fc.Arbitrary<string>) =>
  fc.tuple(text, encoding, damage).map(([t, encode, harm]): MalformedFile => ({ name, bytes: harm(encode(t)) }));

export const malformedGeoJson: fc.Arbitrary<MalformedFile> = finish(
  'plots.geojson',
  fc.oneof(
    fc.array(oddFeature, { maxLength: 6 }).map((features) => JSON.stringify({ type: 'FeatureCollection', features })),
    fc.array(oddFeature, { maxLength: 4 }).map((features) => JSON.stringify({ type: 'FeatureCollection', features: { 0: features } })),
    oddFeature.map((f) => JSON.stringify(f)),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.array(oddFeature, { maxLength: 3 }).map((features) => JSON.stringify({ type: 'FeatureCollection', features }).replaceAll('},{', '},,{')),
    fc.nat({ max: 400 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth >> 1)),
  ),
);

const CSV_COLUMNS = ['lon', 'lat', 'longitude', 'latitude', 'external_ref', 'producer_name', 'country', 'commodity', 'area_ha', 'wkt', 'geometry'];

const csvCell: fc.Arbitrary<string> = fc.oneof(
  oddNumber.map(String),
  oddText,
  fc.constantFrom('POLYGON((', 'POLYGON((-1.6 6.7, -1.599 6.7, -1.6 6.7))', '{"type":"Point"}', '"unclosed', 'a""b', '"a"b"'),
);

export const malformedCsv: fc.Arbitrary<MalformedFile> = finish(
  'plots.csv',
  fc.tuple(
    fc.shuffledSubarray(CSV_COLUMNS, { minLength: 0, maxLength: 6 }),
    fc.constantFrom(',', ';', '\t', '|'),
    fc.array(fc.array(csvCell, { maxLength: 8 }), { maxLength: 12 }),
    fc.constantFrom('\n', '\r\n', '\r'),
  ).map(([header, sep, rows, eol]) => [header.join(sep), ...rows.map((r) => r.join(sep))].join(eol)),
);

const kmlCoordinates: fc.Arbitrary<string> = fc.oneof(
  fc.constant(SQUARE.map(([x, y]) => `${x},${y},0`).join(' ')),
  fc.array(fc.tuple(oddNumber, oddNumber), { maxLength: 8 }).map((ps) => ps.map(([x, y]) => `${String(x)},${String(y)}`).join(' ')),
  oddText,
);

const kmlPlacemark: fc.Arbitrary<string> = fc.tuple(oddText, kmlCoordinates, fc.constantFrom('Polygon', 'Point', 'LineString', 'MultiGeometry', 'Polygonx')).map(([name, coords, type]) =>
  type === 'Point'
    ? `<Placemark><name>${name}</name><Point><coordinates>${coords}</coordinates></Point></Placemark>`
    : `<Placemark><name>${name}</name><${type}><outerBoundaryIs><LinearRing><coordinates>${coords}</coordinates></LinearRing></outerBoundaryIs></${type}></Placemark>`,
);

export const malformedKml: fc.Arbitrary<MalformedFile> = finish(
  'plots.kml',
  fc.oneof(
    fc.array(kmlPlacemark, { maxLength: 5 }).map((ps) => `<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${ps.join('')}</Document></kml>`),
    fc.array(kmlPlacemark, { maxLength: 3 }).map((ps) => `<kml><Folder><Document>${ps.join('')}</Folder></kml>`),
    fc.nat({ max: 6 }).map((n) => `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY a "${'x'.repeat(64)}">${Array.from({ length: n }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i ? i : ''};`.repeat(10)}">`).join('')}]><kml><Document><Placemark><name>&a${n || ''};</name></Placemark></Document></kml>`),
    oddText.map((t) => `<kml>${t}`),
  ),
);

const shapeRecords: fc.Arbitrary<ShapefileRecord[]> = fc.array(
  fc.oneof(
    fc.constant<ShapefileRecord>({ shape: { rings: [SQUARE] }, properties: { ref: 'A' } }),
    fc.constant<ShapefileRecord>({ shape: null, properties: { ref: 'B' } }),
    fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true })).map(([x, y]): ShapefileRecord => ({ shape: { point: [x, y] }, properties: { ref: 'C' } })),
    fc.array(fc.tuple(fc.double(), fc.double()), { maxLength: 5 }).map((ring): ShapefileRecord => ({ shape: { rings: [ring] }, properties: { ref: 'D', area: 1e300 } })),
  ),
  { maxLength: 4 },
);

/** A zipped shapefile whose members are damaged, missing, renamed, doubled or nested. */
export const malformedShapefileZip: fc.Arbitrary<MalformedFile> = fc
  .tuple(
    shapeRecords,
    fc.record({ shp: damage, shx: damage, dbf: damage }),
    fc.subarray(['shp', 'shx', 'dbf', 'prj'], { minLength: 0 }),
    fc.constantFrom('plots', '../plots', 'dir/plots', 'PLOTS', 'a'.repeat(300), 'pl\u0000ots'),
    fc.array(fc.tuple(fc.constantFrom('extra.shp', 'x.dbf', '__MACOSX/._plots.shp', 'readme.txt'), fc.uint8Array({ maxLength: 64 })), { maxLength: 2 }),
    damage,
  )
  .map(([records, harm, members, base, extras, zipHarm]): MalformedFile => {
    let files: { shp: Buffer; shx: Buffer; dbf: Buffer };
    try {
      files = writeShapefile(records);
    } catch {
      files = { shp: Buffer.alloc(0), shx: Buffer.alloc(0), dbf: Buffer.alloc(0) };
    }
    const entries: Record<string, Uint8Array> = {};
    for (const m of members) {
      entries[`${base}.${m}`] = m === 'prj' ? Buffer.from('GEOGCS["WGS 84",DATUM["WGS_1984"]]') : harm[m as 'shp' | 'shx' | 'dbf'](files[m as 'shp' | 'shx' | 'dbf']);
    }
    for (const [name, data] of extras) entries[name] = data;
    return { name: 'plots.zip', bytes: zipHarm(zipSync(entries)) };
  });

/** Every format, in proportion: the suite's cases. */
export const malformedFile: fc.Arbitrary<MalformedFile> = fc.oneof(malformedGeoJson, malformedCsv, malformedKml, malformedShapefileZip);
