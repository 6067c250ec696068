import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { OIL_PALM_EXTENT, RUBBER_CLASSES, oilPalmCells, oilPalmPlantingYear, oilPalmYopValue, rubberCovers } from '../../../../src/engine/sources/products/commodity-maps/codes.ts';
import { createOilPalmAdapter, createRubberAdapter } from '../../../../src/engine/sources/products/commodity-maps/reader.ts';
import { readWindow, readWindows } from '../../../support/read-windows.ts';
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
  const read = await palm.windows(around([lon, lat]));
  assert.equal(read.covered, true);
  if (!read.covered) return;
  const [extent, plantingYear] = await readWindows([read.layers['OP-extent'].request, read.layers.YoP.request]);
  assert.equal(windowPixel(extent, lon, lat)[0], OIL_PALM_EXTENT.INDUSTRIAL);
  assert.equal(oilPalmPlantingYear(windowPixel(plantingYear, lon, lat)[0]), 2004);
  const [klon, klat] = centre('id-kalbar-rubber');
  const other = await palm.windows(around([klon, klat]));
  assert.ok(other.covered);
  if (!other.covered) return;
  assert.equal(windowPixel(await readWindow(other.layers['OP-extent'].request), klon, klat)[0], OIL_PALM_EXTENT.OTHER);
  assert.deepEqual(await palm.windows([-30.1, 40, -30, 40.1]), { covered: false });
});

test('reads rubber in Southeast Asia, says outside coverage elsewhere and unreadable without a mirror', async () => {
  const { root } = await demoWorld();
  const rubber = createRubberAdapter({ where: onDisk(root) });
  const [lon, lat] = centre('id-kalbar-rubber');
  const read = await rubber.windows(around([lon, lat]));
  assert.ok(read.covered && read.readable);
  if (!(read.covered && read.readable)) return;
  assert.equal(windowPixel(await readWindow(read.layers.classes.request), lon, lat)[0], RUBBER_CLASSES.RUBBER);
  assert.equal(rubberCovers(...centre('ci-tai-cleared-2022')), false);
  assert.deepEqual(await rubber.windows(around(centre('ci-tai-cleared-2022'))), { covered: false, readable: true });
  assert.deepEqual(await createRubberAdapter({ where: {} }).windows(around([lon, lat])), { covered: true, readable: false });
});
