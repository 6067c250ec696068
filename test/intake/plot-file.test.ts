import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { readPlotFile } from '../../src/intake/plot-file.ts';
import { validatePlots } from '../../src/intake/validate.ts';
import { plotFileRefusal } from '../support/plot-files.ts';
import { REAL_FILES } from '../support/refdata.ts';

const refdata = (path: string) => readFileSync(`../shared/refdata/plots/${path}`);

const refusal = plotFileRefusal;

test('tells the format from the content before the name', async () => {
  const geojson = Buffer.from('{"type":"Point","coordinates":[-1.5,6.5]}');
  assert.equal((await readPlotFile(geojson, 'plots.csv')).format, 'geojson');
  assert.equal((await readPlotFile(Buffer.from('lon,lat\n-1.5,6.5\n'), 'plots.txt')).format, 'csv');
  assert.equal((await readPlotFile(refdata('whisp/shapefile_example.zip'), 'upload.bin')).format, 'shapefile');
});

test('refuses an empty upload with empty_file and foreign formats with unsupported_format', async () => {
  assert.equal((await refusal(new Uint8Array(0), 'plots.geojson')).code, 'empty_file');
  assert.equal((await refusal(Buffer.from('%PDF-1.7 ...'), 'plots.pdf')).code, 'unsupported_format');
  const loose = await refusal(refdata('whisp/shapefile_example.shp'), 'shapefile_example.shp');
  assert.equal(loose.code, 'unsupported_format');
  assert.match(loose.message, /one \.zip/);
  const gpx = await refusal(Buffer.from('<gpx></gpx>'), 'track.gpx');
  assert.equal(gpx.code, 'unsupported_format');
  assert.match(gpx.message, /Accepted are GeoJSON .*KML \(\.kml\) or KMZ \(\.kmz\)/);
});


for (const [path, count, country] of REAL_FILES) {
  test(`reads ${path}: ${count} plot(s), none rejected`, async () => {
    const report = validatePlots(await readPlotFile(refdata(path), path), { country });
    assert.equal(report.plots.length, count);
    assert.deepEqual(report.row_errors, []);
    assert.deepEqual(report.plots.filter((p) => p.validation_state === 'rejected').map((p) => p.rejections), []);
    assert.ok(report.plots.every((p) => p.area_ha !== null && p.area_ha > 0));
    if (country) assert.ok(report.plots.every((p) => !p.findings.some((f) => f.code === 'outside_country')));
  });
}

test('the whisp shapefile report carries the no-.prj note', async () => {
  const report = validatePlots(await readPlotFile(refdata('whisp/shapefile_example.zip'), 'shapefile_example.zip'));
  assert.ok(report.notes.some((n) => n.includes('no .prj')));
});

test('the malformed CICC file is repaired, not refused: Polygon nested as MultiPolygon, areas as declared', async () => {
  const report = validatePlots(await readPlotFile(refdata('whisp-app/CICC_plots_subset_simple.geojson')), { country: 'CM' });
  for (const plot of report.plots) {
    assert.equal(plot.validation_state, 'repaired');
    assert.ok(plot.repairs.some((f) => f.code === 'wrong_nesting'));
    assert.equal(plot.geometry?.type, 'Polygon');
    // The file's Area_ha was surveyed; the ellipsoidal area agrees to well under 1%.
    assert.ok(Math.abs(plot.area_ha! - plot.declared_area_ha!) < 0.01 * plot.declared_area_ha!);
  }
});
