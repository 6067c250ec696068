import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canopyHeightHref, canopyHeightMetres, canopyHeightTile } from '../../../../src/engine/sources/products/canopy-height.ts';
import { demColumns, demHref, demTile } from '../../../../src/engine/sources/products/copernicus-dem.ts';
import { annualChangeDataset, isPlantationSubtype, tmfCovers, tmfHref, tmfTile } from '../../../../src/engine/sources/products/tmf.ts';
import { euForestTile, gfc2020Href, gft2020Href } from '../../../../src/engine/sources/products/eu-forest-maps.ts';
import { hansenHref, hansenTile, lossYear } from '../../../../src/engine/sources/products/hansen.ts';
import { mgrsSquare, utmEpsg } from '../../../../src/engine/sources/products/mgrs.ts';
import { s2CellToken } from '../../../../src/engine/sources/products/s2-cell.ts';
import { archiveUrl, mirrorPath } from '../../../../src/engine/sources/products/archive-url.ts';

test('ETH canopy tiles are named by their 3° south-west corner; 255 is no data', () => {
  assert.equal(canopyHeightTile(10.2, 1.4), 'N00E009');
  assert.equal(canopyHeightTile(-74.5, -2.1), 'S03W075');
  assert.ok(canopyHeightHref('N00E009', 'Map').endsWith('download?path=%2F3deg_cogs&files=ETH_GlobalCanopyHeight_10m_2020_N00E009_Map.tif'));
  assert.ok(Number.isNaN(canopyHeightMetres(255)));
  assert.equal(canopyHeightMetres(23), 23);
});

test('Copernicus DEM tiles are named by their lower-left corner; columns thin toward the poles', () => {
  assert.equal(demTile(-79.5, 0.5), 'Copernicus_DSM_COG_10_N00_00_W080_00_DEM');
  assert.equal(demTile(-179.5, -89.5), 'Copernicus_DSM_COG_10_S90_00_W180_00_DEM');
  assert.equal(demHref('Copernicus_DSM_COG_10_N00_00_W080_00_DEM'),
    'https://copernicus-dem-30m.s3.amazonaws.com/Copernicus_DSM_COG_10_N00_00_W080_00_DEM/Copernicus_DSM_COG_10_N00_00_W080_00_DEM.tif');
  assert.deepEqual([demColumns(5.5), demColumns(49.5), demColumns(50.5), demColumns(-50.5), demColumns(-89.5)], [3600, 3600, 2400, 2400, 360]);
});

test('TMF tiles are tagged by their north-west corner and fetched by dataset', () => {
  assert.deepEqual(tmfTile(-75, -5), { lat: 'N0', lon: 'W80', id: 'N0_W80' });
  assert.deepEqual(tmfTile(40.5, 5), { lat: 'N10', lon: 'E40', id: 'N10_E40' });
  assert.deepEqual(tmfTile(20.2, -15), { lat: 'S10', lon: 'E20', id: 'S10_E20' });
  assert.equal(tmfHref(annualChangeDataset(2020), tmfTile(-75, -5)),
    'https://ies-ows.jrc.ec.europa.eu/iforce/tmf_v1/download.py?type=tile&dataset=AnnualChange_2020&lat=N0&lon=W80');
  assert.throws(() => annualChangeDataset(1989));
  assert.equal(tmfCovers(31), false);
  assert.deepEqual([80, 81, 86, 87].map(isPlantationSubtype), [false, true, true, false]);
});

test('GFC2020/GFT2020 tiles are tagged by their north-west corner without padding', () => {
  assert.equal(euForestTile(-5.75, 6.95), 'N10_W10');
  assert.equal(euForestTile(0.5, -0.5), 'N0_E0');
  assert.equal(euForestTile(25, -12), 'S10_E20');
  assert.equal(gfc2020Href('N10_W10'), 'https://jeodpp.jrc.ec.europa.eu/ftp/jrc-opendata/FOREST/GFC2020/LATEST/tiles/JRC_GFC2020_V3_N10_W10.tif');
  assert.equal(gft2020Href('S30_E140'), 'https://jeodpp.jrc.ec.europa.eu/ftp/jrc-opendata/FOREST/GFT2020/LATEST/tiles/JRC_GFT2020_V1_S30_E140.tif');
});

test('Hansen tiles are named by their upper-left corner, zero-padded; lossyear counts from 2000', () => {
  assert.equal(hansenTile(100.5, 5), '10N_100E');
  assert.equal(hansenTile(-65, -5), '00N_070W');
  assert.equal(hansenTile(-49.4, -20.6), '20S_050W');
  assert.equal(hansenHref('lossyear', '10N_100E'),
    'https://storage.googleapis.com/earthenginepartners-hansen/GFC-2025-v1.13/Hansen_GFC-2025-v1.13_lossyear_10N_100E.tif');
  assert.deepEqual([0, 1, 21, 25, 26].map(lossYear), [null, 2001, 2021, 2025, null]);
});

test('UTM zones and MGRS squares match known Sentinel-2 tiles', () => {
  assert.equal(utmEpsg(99.2, 9.0), 32647);
  assert.equal(utmEpsg(-49.4, -20.6), 32722);
  assert.equal(mgrsSquare(-77.0353, 38.8895).code, '18SUJ'); // Washington Monument, 18SUJ 23483 06479
  assert.equal(mgrsSquare(48.0, 18.5).code.slice(0, 3), '39Q');
});

test('S2 cell tokens follow the S2 library (faces, and Manhattan under 89c25)', () => {
  assert.equal(s2CellToken(0, 0, 0), '1');
  assert.equal(s2CellToken(90, 0, 0), '3');
  assert.equal(s2CellToken(0, -90, 0), 'b');
  assert.equal(s2CellToken(-73.9855, 40.758, 8), '89c25');
});

test('archive mirror paths keep the host and path and fold a query into the last segment', () => {
  assert.equal(mirrorPath('https://copernicus-dem-30m.s3.amazonaws.com/a/b.tif'), 'copernicus-dem-30m.s3.amazonaws.com/a/b.tif');
  assert.equal(mirrorPath('https://ies-ows.jrc.ec.europa.eu/iforce/tmf_v1/download.py?type=tile&dataset=DeforestationYear&lat=N10&lon=W10'),
    'ies-ows.jrc.ec.europa.eu/iforce/tmf_v1/download.py/type=tile&dataset=DeforestationYear&lat=N10&lon=W10');
  assert.equal(mirrorPath('https://libdrive.ethz.ch/index.php/s/x/download?path=%2F3deg_cogs&files=a.tif'), 'libdrive.ethz.ch/index.php/s/x/download/path=_3deg_cogs&files=a.tif');
  assert.equal(archiveUrl('https://h.org/p/q.tif', {}), 'https://h.org/p/q.tif');
  assert.equal(archiveUrl('https://h.org/p/q.tif', { root: 'file:///data/archive/' }), 'file:///data/archive/h.org/p/q.tif');
  assert.equal(archiveUrl('https://h.org/api?sql=a%20b', { root: 'http://127.0.0.1:9' }, { api: true }), 'http://127.0.0.1:9/h.org/api?sql=a%20b');
});
