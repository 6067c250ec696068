import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sceneDate } from '../../src/documents/scene-date.ts';

test('reads the acquisition date of Sentinel-2 and Landsat identifiers in each catalogue\'s form', () => {
  assert.equal(sceneDate('S2A_39QTA_20230628_0_L2A'), '2023-06-28');
  assert.equal(sceneDate('S2B_MSIL2A_20240419T095549_R122_T47XML_20240419T123458'), '2024-04-19');
  assert.equal(sceneDate('S2B_T10TFR_20231223T190950_L2A'), '2023-12-23');
  assert.equal(sceneDate('LC09_L2SP_089090_20240417_02_T1'), '2024-04-17');
  assert.equal(sceneDate('LC09_L2SP_089090_20240417_20240418_02_T1'), '2024-04-17');
});

test('answers null for an identifier that names no valid date', () => {
  assert.equal(sceneDate('N09E099'), null);
  assert.equal(sceneDate('S2A_39QTA_20231345_0_L2A'), null);
  assert.equal(sceneDate('Copernicus_DSM_COG_10_S90_00_W180_00_DEM'), null);
});
