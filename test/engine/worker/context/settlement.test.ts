import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Polygon } from 'geojson';
import type { WorkerRaster } from '../../../../src/engine/worker/raster-window.ts';
import { transformer } from '../../../../src/engine/sources/reproject.ts';
import { settlementYearNotRead } from '../../../../src/engine/context/settlement.ts';
import { readSettlementYear, settlementBlock } from '../../../../src/engine/worker/context/settlement.ts';
import { CELL_SUMS, gatherCellSums } from '../../../../src/engine/kernels/building-cells.ts';

const PROVENANCE = { source: 'Google Open Buildings 2.5D Temporal', version: 'v1', licence: 'CC BY 4.0', attribution: 'Google', citation: 'Sirko et al. 2023' };
const EPSG = 32647;
const X0 = 500_000;
const Y0 = 1_000_500;
const SIZE = 1000; // 0.5 m pixels: a 500 m square

interface Building { x: number; y: number; w: number; d: number; height: number }

/** Three bands interleaved (count, height, presence) with buildings as boxes in UTM metres. */
function raster(buildings: Building[], nodataRows = 0): WorkerRaster {
  const raw = new Float32Array(SIZE * SIZE * 3);
  for (let r = 0; r < nodataRows; r++) for (let c = 0; c < SIZE; c++) raw.fill(-99, (r * SIZE + c) * 3, (r * SIZE + c) * 3 + 3);
  for (const b of buildings) {
    const c0 = (b.x - X0) / 0.5, c1 = (b.x + b.w - X0) / 0.5;
    const r0 = (Y0 - (b.y + b.d)) / 0.5, r1 = (Y0 - b.y) / 0.5;
    const n = (c1 - c0) * (r1 - r0);
    for (let r = r0; r < r1; r++) {
      for (let c = c0; c < c1; c++) {
        const at = (r * SIZE + c) * 3;
        raw[at] = 1 / n;
        raw[at + 1] = b.height;
        raw[at + 2] = 0.9;
      }
    }
  }
  return { raw, width: SIZE, height: SIZE, samplesPerPixel: 3, geoTransform: [X0, 0.5, 0, Y0, 0, -0.5], epsg: EPSG, nodata: -99, scale: 1, offset: 0 };
}

/** The plot: 200 m square from (500150, 1000150), as a WGS 84 polygon. */
function plot(): Polygon {
  const toLonLat = transformer(EPSG, 4326);
  const corners = [[500_150, 1_000_150], [500_350, 1_000_150], [500_350, 1_000_350], [500_150, 1_000_350], [500_150, 1_000_150]];
  return { type: 'Polygon', coordinates: [corners.map(([x, y]) => toLonLat(x, y))] };
}

const HOUSE: Building = { x: 500_200, y: 1_000_200, w: 12, d: 9, height: 5 };
const SHED_IN_RING: Building = { x: 500_400, y: 1_000_250, w: 10, d: 8, height: 3 };
const FAR: Building = { x: 500_470, y: 1_000_250, w: 20, d: 20, height: 8 };

test('inside the plot and in the 100 m ring are read separately, at 2 m, never added', () => {
  const y = readSettlementYear(raster([HOUSE, SHED_IN_RING, FAR]), plot(), ['tile.tif'], false);
  assert.equal(y.available, true);
  assert.equal(y.coverage, true);
  assert.equal(y.epsg, EPSG);
  assert.deepEqual(y.tiles, ['tile.tif']);
  // 200 m square in 2 m cells.
  assert.equal(y.inside.pixels, 100 * 100);
  assert.equal(y.inside.valid_pixels, 100 * 100);
  assert.equal(y.inside.read, true);
  assert.ok(y.inside.building_m2! >= 100 && y.inside.building_m2! <= 130, `inside ${y.inside.building_m2} m²`);
  assert.equal(y.inside.present, true);
  assert.equal(y.inside.buildings_estimate, 1);
  assert.equal(y.inside.max_height_m, 5);
  assert.equal(y.inside.presence_share, Math.round((y.inside.building_m2! / 4 / 10000) * 10000) / 10000);
  // The shed lies 50 m east of the plot: in the ring; the far building (120 m out) is in neither.
  assert.ok(y.buffer.building_m2! >= 80 && y.buffer.building_m2! <= 100, `ring ${y.buffer.building_m2} m²`);
  assert.equal(y.buffer.buildings_estimate, 1);
  assert.equal(y.buffer.max_height_m, 3);
  assert.equal(y.buffer.present, true);
});

/** The raster's pixels gathered into 2 m cells, as a tile read as cells holds them. */
function asCells(r: WorkerRaster): WorkerRaster {
  const { sums, width, height } = gatherCellSums({ raw: r.raw, stride: r.width, width: r.width, height: r.height, samplesPerPixel: 3, bands: { count: 0, height: 1, presence: 2 }, nodata: r.nodata, factor: 4 });
  const [ox, pw, , oy, , ph] = r.geoTransform;
  return { ...r, raw: sums, width, height, samplesPerPixel: CELL_SUMS, geoTransform: [ox, pw * 4, 0, oy, 0, ph * 4], nodata: null };
}

test('a year read from building cells gathered beforehand reads as from its pixels', () => {
  for (const [buildings, nodataRows] of [[[HOUSE, SHED_IN_RING, FAR], 0], [[SHED_IN_RING], 700], [[], 0]] as const) {
    const pixels = raster([...buildings], nodataRows);
    assert.deepEqual(readSettlementYear(asCells(pixels), plot(), ['t'], true), readSettlementYear(pixels, plot(), ['t'], false));
  }
});

test('a year read with no building: present false, zero built area, no height', () => {
  const y = readSettlementYear(raster([]), plot(), ['tile.tif'], false);
  assert.deepEqual(
    { read: y.inside.read, present: y.inside.present, m2: y.inside.building_m2, share: y.inside.presence_share, height: y.inside.max_height_m, n: y.inside.buildings_estimate },
    { read: true, present: false, m2: 0, share: 0, height: null, n: 0 },
  );
});

test('under 32 m² of built-up area is not a building', () => {
  const y = readSettlementYear(raster([{ x: 500_200, y: 1_000_200, w: 4, d: 4, height: 2 }]), plot(), [], false);
  assert.equal(y.inside.building_m2, 16);
  assert.equal(y.inside.present, false);
});

test('cells without data are not read: valid pixels fall, and a side with none is not read', () => {
  // No data over the northern 350 m of the raster: the whole plot and most of its ring.
  const y = readSettlementYear(raster([SHED_IN_RING], 700), plot(), [], false);
  assert.equal(y.inside.valid_pixels, 0);
  assert.deepEqual([y.inside.read, y.inside.present, y.inside.building_m2], [false, null, null]);
  assert.ok(y.buffer.valid_pixels! > 0 && y.buffer.valid_pixels! < y.buffer.pixels!);
});

test('years read and not read: each year always present, the cutoff answers null when 2020 was not read', () => {
  const read = readSettlementYear(raster([HOUSE, SHED_IN_RING]), plot(), ['t'], false);
  const empty = readSettlementYear(raster([SHED_IN_RING]), plot(), ['t'], false);
  const block = settlementBlock(PROVENANCE, { 2016: empty, 2020: read, 2023: settlementYearNotRead('no_coverage', 'no manifest lists a tile') });
  assert.deepEqual(Object.keys(block.years), ['2016', '2020', '2023']);
  assert.deepEqual(block.years_read, [2016, 2020, 2023]);
  assert.equal(block.available, true);
  assert.equal(block.present_inside_at_cutoff, true);
  assert.equal(block.present_in_buffer_at_cutoff, true);
  assert.deepEqual([block.years['2023'].available, block.years['2023'].coverage, block.years['2023'].inside.read], [true, false, false]);
  assert.equal(block.reading, 'Buildings were seen inside the plot in 2020, not in 2016; more stood in the 100 m ring in 2016 (2023 not read).');
  assert.deepEqual([block.presence_threshold, block.min_building_m2, block.buffer_m, block.pitch_m, block.cutoff_year], [0.4, 32, 100, 2, 2020]);

  const down = settlementBlock(PROVENANCE, { 2016: read, 2020: settlementYearNotRead('unavailable', 'HTTP 503'), 2023: read });
  assert.equal(down.present_inside_at_cutoff, null);
  assert.equal(down.present_in_buffer_at_cutoff, null);
  assert.equal(down.years['2020'].available, false);
  assert.match(down.years['2020'].note!, /next plot asks again/);

  const nothing = settlementBlock(PROVENANCE, {
    2016: settlementYearNotRead('unavailable', 'HTTP 503'), 2020: settlementYearNotRead('unavailable', 'HTTP 503'), 2023: settlementYearNotRead('unavailable', 'HTTP 503'),
  });
  assert.equal(nothing.available, false);
  assert.match(nothing.reading, /No year could be read/);
});
