import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import {
  OIL_PALM_EXTENT, RUBBER_CLASSES, createOilPalmAdapter, createRubberAdapter, oilPalmCells, oilPalmPlantingYear, oilPalmYopValue, rubberCovers,
} from '../../../../src/engine/sources/products/commodity-maps.ts';
import { demoWorld, onDisk, windowPixel } from '../../../support/demo-world.ts';

const centre = (name: string) => DEMO_SITES.find((s) => s.name === name)!.centre;
const around = ([lon, lat]: [number, number], d = 0.002): [number, number, number, number] => [lon - d, lat - d, lon + d, lat + d];

test('planting years read back as Whisp reads the Earth Engine encoding (days since 1970)', () => {
  for (const y of [1990, 2004, 2020, 2021]) assert.equal(oilPalmPlantingYear(oilPalmYopValue(y)), y);
  assert.equal(oilPalmPlantingYear(0), null);
  assert.equal(oilPalmPlantingYear(Math.floor((2015 - 1970) * 365.25)), 2015);
});

test('grid cells are found by bounding box', () => {
  const grid = { features: [{ type: 'Feature' as const, properties: { ID: 'A' }, geometry: { type: 'Polygon' as const, coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] } }] };
  assert.deepEqual(oilPalmCells(grid, [0.5, 0.5, 0.6, 0.6]), ['A']);
  assert.deepEqual(oilPalmCells(grid, [2, 2, 3, 3]), []);
});

test('reads the oil palm extent and planting year of a demo estate', async () => {
  const { root } = await demoWorld();
  const palm = createOilPalmAdapter({ where: onDisk(root) });
  const [lon, lat] = centre('my-johor-oil-palm');
  const read = await palm.read(around([lon, lat]));
  assert.equal(read.covered, true);
  assert.equal(windowPixel(read.extent!.window, lon, lat)[0], OIL_PALM_EXTENT.INDUSTRIAL);
  assert.equal(oilPalmPlantingYear(windowPixel(read.plantingYear!.window, lon, lat)[0]), 2004);
  const [klon, klat] = centre('id-kalbar-rubber');
  assert.equal(windowPixel((await palm.read(around([klon, klat]))).extent!.window, klon, klat)[0], OIL_PALM_EXTENT.OTHER);
  assert.equal((await palm.read([-30.1, 40, -30, 40.1])).covered, false);
});

test('reads rubber in Southeast Asia, says outside coverage elsewhere and unreadable without a mirror', async () => {
  const { root } = await demoWorld();
  const rubber = createRubberAdapter({ where: onDisk(root) });
  const [lon, lat] = centre('id-kalbar-rubber');
  const read = await rubber.read(around([lon, lat]));
  assert.equal(windowPixel(read.classes!.window, lon, lat)[0], RUBBER_CLASSES.RUBBER);
  assert.equal(rubberCovers(...centre('ci-tai-cleared-2022')), false);
  assert.deepEqual(await rubber.read(around(centre('ci-tai-cleared-2022'))), { covered: false, readable: true, classes: null });
  assert.deepEqual(await createRubberAdapter({ where: {} }).read(around([lon, lat])), { covered: true, readable: false, classes: null });
});
