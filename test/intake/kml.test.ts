import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { zipSync, strToU8 } from 'fflate';
import { parseKml } from '../../src/intake/kml.ts';
import { DEFAULT_CAPS } from '../../src/intake/limits.ts';
import { readPlotFile } from '../../src/intake/plot-file.ts';
import { validatePlots } from '../../src/intake/validate.ts';
import { plotFileRefusal } from '../support/plot-files.ts';

// Plots near Kumasi, Ghana, written as field apps and Google Earth write them: lon,lat,alt tuples.
const ring = (w: number, s: number, size: number, alt = ',0') =>
  [[w, s], [w + size, s], [w + size, s + size], [w, s + size], [w, s]].map(([x, y]) => `${x.toFixed(6)},${y.toFixed(6)}${alt}`).join(' ');

const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
<Document>
  <name>Cooperative plots</name>
  <Schema name="plots" id="plots"><SimpleField name="area_ha" type="double"/></Schema>
  <Folder>
    <name>Farm A</name>
    <Placemark id="A-1">
      <name>Plot with a hole</name>
      <ExtendedData>
        <Data name="commodity"><value>cocoa</value></Data>
        <SchemaData schemaUrl="#plots"><SimpleData name="area_ha">1.2</SimpleData><SimpleData name="planted_year">2012</SimpleData></SchemaData>
      </ExtendedData>
      <Polygon>
        <outerBoundaryIs><LinearRing><coordinates>
          ${ring(-1.6, 6.7, 0.001)}
        </coordinates></LinearRing></outerBoundaryIs>
        <innerBoundaryIs><LinearRing><coordinates>${ring(-1.5996, 6.7004, 0.0002).split(' ').reverse().join(' ')}</coordinates></LinearRing></innerBoundaryIs>
      </Polygon>
    </Placemark>
  </Folder>
  <Placemark>
    <name>Two parts</name>
    <ExtendedData><Data name="ref"><value>B-2</value></Data></ExtendedData>
    <MultiGeometry>
      <Polygon><outerBoundaryIs><LinearRing><coordinates>${ring(-1.61, 6.71, 0.001)}</coordinates></LinearRing></outerBoundaryIs></Polygon>
      <Polygon><outerBoundaryIs><LinearRing><coordinates>${ring(-1.605, 6.71, 0.001)}</coordinates></LinearRing></outerBoundaryIs></Polygon>
    </MultiGeometry>
  </Placemark>
  <Placemark>
    <name>C-3</name>
    <ExtendedData><Data name="plot_id"><value>C-3</value></Data><Data name="area_ha"><value>2</value></Data></ExtendedData>
    <Point><coordinates>-1.620000,6.720000,0</coordinates></Point>
  </Placemark>
  <Placemark><name>A track</name><LineString><coordinates>${ring(-1.6, 6.7, 0.001)}</coordinates></LineString></Placemark>
</Document>
</kml>
`;

test('reads KML Placemarks: a Polygon with its hole, a MultiGeometry, a Point, with name and ExtendedData as properties', () => {
  const file = parseKml(Buffer.from(KML));
  assert.equal(file.format, 'kml');
  assert.equal(file.plots.length, 4);
  const [holed, multi, point, line] = file.plots;
  assert.deepEqual(holed.properties, { name: 'Plot with a hole', commodity: 'cocoa', area_ha: '1.2', planted_year: '2012' });
  assert.equal(holed.featureId, 'A-1');
  const polygon = holed.geometry as { type: string; coordinates: number[][][] };
  assert.equal(polygon.type, 'Polygon');
  assert.equal(polygon.coordinates.length, 2, 'the outer and the inner boundary');
  assert.deepEqual(polygon.coordinates[0][0], [-1.6, 6.7], 'altitude dropped');
  assert.equal(holed.writtenDecimals, 6, 'decimals as written, not as the numbers print');
  assert.equal((multi.geometry as { type: string; coordinates: unknown[] }).type, 'MultiPolygon');
  assert.equal((multi.geometry as { coordinates: unknown[] }).coordinates.length, 2);
  assert.deepEqual(point.geometry, { type: 'Point', coordinates: [-1.62, 6.72] });
  assert.deepEqual(line.geometry, { type: 'LineString' });
});

test('judges KML plots like any other: the hole filled as the EU system ignores it, the LineString refused', () => {
  const report = validatePlots(parseKml(Buffer.from(KML)), { country: 'GH' });
  const [holed, multi, point, line] = report.plots;
  assert.equal(holed.ref, 'A-1');
  assert.deepEqual(holed.repairs.map((f) => f.code), ['polygon_with_holes']);
  assert.deepEqual([holed.commodity, holed.declared_area_ha, holed.planted_year], ['cocoa', 1.2, 2012]);
  assert.deepEqual(holed.findings, [], 'six decimals written: no low_precision');
  assert.equal(multi.ref, 'B-2');
  assert.equal(multi.geometry?.type, 'MultiPolygon');
  assert.equal(multi.validation_state, 'valid');
  assert.equal(point.ref, 'C-3');
  assert.deepEqual(point.geometry, { type: 'Point', coordinates: [-1.62, 6.72] });
  assert.deepEqual(line.rejections.map((f) => f.code), ['unsupported_geometry_type']);
  assert.deepEqual(line.findings.map((f) => f.code), ['no_reference']);
  assert.ok(report.notes.some((n) => /read from the feature's own "id"/.test(n)));
});

test('reads a KMZ (doc.kml in a zip), told from a shapefile zip by its entries whatever its name', async () => {
  const kmz = zipSync({ 'doc.kml': strToU8(KML), 'files/icon.png': new Uint8Array([0x89, 0x50]) });
  for (const name of ['plots.kmz', 'plots.zip', 'upload.bin']) {
    const file = await readPlotFile(kmz, name);
    assert.equal(file.format, 'kmz', name);
    assert.equal(file.plots.length, 4);
  }
});

test('tells KML by its content or its .kml name', async () => {
  assert.equal((await readPlotFile(Buffer.from(KML), 'export.txt')).format, 'kml');
  assert.equal((await readPlotFile(Buffer.from(`\uFEFF${KML}`), 'plots.kml')).format, 'kml');
});

const refusal = (bytes: Uint8Array, name = 'plots.kml') => plotFileRefusal(bytes, name);

test('refuses a truncated KML with bad_kml, naming the line where it stops and what is left open', async () => {
  const cut = KML.slice(0, KML.indexOf('</Placemark>'));
  const refused = await refusal(Buffer.from(cut));
  assert.equal(refused.code, 'bad_kml');
  assert.match(refused.message, new RegExp(`ends at line ${cut.split('\n').length} with <Placemark> \\(inside <kml>, <Document>, <Folder>\\) still open: the file is truncated`));
  const broken = await refusal(Buffer.from(KML.replace('</coordinates></LinearRing></outerBoundaryIs>', '</coordinates></outerBoundaryIs>')));
  assert.equal(broken.code, 'bad_kml');
  assert.match(broken.message, /^The KML cannot be read: line \d+: /);
  const kmzCut = await refusal(zipSync({ 'doc.kml': strToU8(cut) }), 'plots.kmz');
  assert.equal(kmzCut.code, 'bad_kml');
});

test('refuses XML that is not KML, a DOCTYPE, nesting past the parser\'s bound, and a KMZ past the file\'s vertex cap', async () => {
  assert.equal((await refusal(Buffer.from('<?xml version="1.0"?><gpx><trk/></gpx>'), 'track.gpx')).code, 'unsupported_format');
  assert.equal((await refusal(Buffer.from('<!DOCTYPE html><html><body>Sign in</body></html>'), 'plots.kml')).code, 'unsupported_format');
  const entities = '<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY a "aaaaaaaaaa">]><kml><Document>&a;</Document></kml>';
  assert.equal((await refusal(Buffer.from(entities))).code, 'bad_kml');
  const deep = 100_000;
  const nested = `<kml><Document>${'<Folder>'.repeat(deep)}<Placemark><Point><coordinates>-1.6,6.7</coordinates></Point></Placemark>${'</Folder>'.repeat(deep)}</Document></kml>`;
  assert.equal((await refusal(Buffer.from(nested))).code, 'nesting_too_deep', 'Folders nested 100,000 deep');
  const overCap = await plotFileRefusal(zipSync({ 'doc.kml': strToU8(KML) }), 'plots.kmz', { ...DEFAULT_CAPS, verticesPerFile: 10 });
  assert.equal(overCap.code, 'too_many_vertices');
});
