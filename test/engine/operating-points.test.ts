import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OperatingPointsError, operatingPoints, parseOperatingPoints } from '../../src/engine/operating-points.ts';

const raw = (): Record<string, any> => JSON.parse(readFileSync(new URL('../../src/engine/operating-points.json', import.meta.url), 'utf8'));

test('the operating-points file loads, versioned and dated, shaped for the kernels', () => {
  assert.match(operatingPoints.version, /^\d+\.\d+\.\d+$/);
  assert.match(operatingPoints.date, /^\d{4}-\d{2}-\d{2}$/);
  assert.equal(operatingPoints.seasons.minSeasons, raw().seasons.min_seasons.value);
  assert.equal(operatingPoints.radar.thresholdDb, raw().radar.threshold_db.value);
  assert.ok(operatingPoints.height.cropLineM < operatingPoints.height.forestLineM);
  assert.ok(Object.isFrozen(operatingPoints.radar));
});

test('every decision line says why it was chosen', () => {
  const file = raw();
  let lines = 0;
  for (const [group, entries] of Object.entries(file)) {
    if (typeof entries !== 'object') continue;
    for (const [name, entry] of Object.entries(entries as Record<string, { why: string }>)) {
      assert.ok(entry.why.length >= 40, `${group}.${name}`);
      lines++;
    }
  }
  assert.ok(lines >= 25);
});

test('a line without its reason is refused, naming the line', () => {
  const file = raw();
  delete file.radar.threshold_db.why;
  assert.throws(() => parseOperatingPoints(file), (e: unknown) => e instanceof OperatingPointsError && /radar\.threshold_db/.test(e.message) && e.code === 'operating_points_invalid');
});

test('lines out of order or out of range are refused', () => {
  const swapped = raw();
  swapped.height.crop_line_m.value = 30;
  assert.throws(() => parseOperatingPoints(swapped), /crop_line_m/);
  const ring = raw();
  ring.radar.ring_inner_m.value = 600;
  assert.throws(() => parseOperatingPoints(ring), /ring_inner_m/);
  const fraction = raw();
  fraction.scenes.min_clear_fraction.value = 1.5;
  assert.throws(() => parseOperatingPoints(fraction), /min_clear_fraction/);
  const unknown = raw();
  unknown.terrain.max_slope = { value: 3, why: 'x'.repeat(40) };
  assert.throws(() => parseOperatingPoints(unknown), OperatingPointsError);
});

test('the crop lines of height and radar lie under every forest type of the table, and a forest type reaching under them is refused', () => {
  for (const type of Object.values(operatingPoints.forestTypes)) {
    assert.ok(operatingPoints.height.cropLineM <= type.heightM[0]);
    assert.ok(operatingPoints.radar.cropMaxHvDb <= type.hvDb[0]);
  }
  for (const name of ['secondary', 'dry_deciduous', 'degraded', 'swamp']) assert.ok(name in operatingPoints.forestTypes, name);
  const short = raw();
  short.forest_types.dry_deciduous.value.height_m = [5, 25];
  assert.throws(() => parseOperatingPoints(short), (e: unknown) => e instanceof OperatingPointsError && /crop_line_m.*forest_types\.dry_deciduous/.test(e.message));
  const dark = raw();
  dark.forest_types.secondary.value.hv_db = [-15, -12];
  assert.throws(() => parseOperatingPoints(dark), /crop_max_hv_db.*forest_types\.secondary/);
});
