import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utcDay } from '../../../src/engine/kernels/days.ts';
import { SCENE_USABLE } from '../../../src/engine/kernels/scene-stats.ts';
import { seasonalTroughs, type SeasonTrough } from '../../../src/engine/kernels/seasonal-troughs.ts';
import { structureAtTrough, type StructureLines } from '../../../src/engine/kernels/structure-at-trough.ts';

const LINES: StructureLines = { shadeLine: 0.3, shadeMargin: 0.04, aotDustLimit: 0.5 };

/** Seasons whose troughs are scenes 0, 1, 2, … of a series. */
function seasons(count: number, noAnswer: number[] = []): SeasonTrough[] {
  return Array.from({ length: count }, (_, k) => ({
    season: 2016 + k,
    label: '',
    observations: 20,
    plateau: 0.82,
    trough: 0.5,
    trough_date: `${2016 + k}-02-20`,
    depth: 0.32,
    dipped: true,
    no_answer: noAnswer.includes(k),
    truncated: false,
    last_observed: `${2016 + k}-08-01`,
    trough_scene: k,
  }));
}

test('deep shade at every trough reads forest-like with confidence', () => {
  const r = structureAtTrough(seasons(4), Float64Array.of(0.4, 0.38, 0.41, 0.39), Float64Array.of(0.1, 0.2, 0.15, 0.1), LINES);
  assert.equal(r.forest_like, true);
  assert.equal(r.confident, true);
  assert.equal(r.seasons_matched, 4);
  assert.ok(Math.abs((r.shade_at_trough as number) - 0.395) < 1e-12);
  assert.ok(Math.abs((r.aot_at_trough as number) - 0.1375) < 1e-12);
  assert.equal(r.withheld_for_dust, false);
  assert.equal(r.refusal, null);
});

test('a leafless plantation at its troughs reads crop; a reading near the line is not confident', () => {
  const crop = structureAtTrough(seasons(3), Float64Array.of(0.22, 0.24, 0.23), Float64Array.of(0.1, 0.1, 0.1), LINES);
  assert.equal(crop.forest_like, false);
  assert.equal(crop.confident, true);
  const near = structureAtTrough(seasons(3), Float64Array.of(0.28, 0.29, 0.28), Float64Array.of(0.1, 0.1, 0.1), LINES);
  assert.equal(near.forest_like, false);
  assert.equal(near.confident, false);
});

test('a hazy trough in most seasons withholds the shade reading for dust', () => {
  const r = structureAtTrough(seasons(4), Float64Array.of(0.2, 0.21, 0.22, 0.2), Float64Array.of(0.9, 1.1, 0.8, 0.2), LINES);
  assert.equal(r.withheld_for_dust, true);
  assert.equal(r.forest_like, null);
  assert.match(r.refusal as string, /haze|dust/i);
  assert.equal(r.seasons_matched, 1);
  assert.ok(Math.abs((r.aot_at_trough as number) - 0.75) < 1e-12);
});

test('one dusty trough among four is dropped and the rest are read', () => {
  const r = structureAtTrough(seasons(4), Float64Array.of(0.2, 0.9, 0.22, 0.24), Float64Array.of(0.1, 1.2, 0.1, 0.1), LINES);
  assert.equal(r.withheld_for_dust, false);
  assert.equal(r.seasons_matched, 3);
  assert.ok(Math.abs((r.shade_at_trough as number) - 0.22) < 1e-12);
  assert.equal(r.forest_like, false);
});

test('a trough scene without AOT (Landsat) is read as clear air', () => {
  const r = structureAtTrough(seasons(2), Float64Array.of(0.4, 0.4), Float64Array.of(NaN, NaN), LINES);
  assert.equal(r.aot_at_trough, null);
  assert.equal(r.seasons_matched, 2);
  assert.equal(r.forest_like, true);
});

test('seasons without an answer or without a shade reading contribute nothing; none left refuses', () => {
  const r = structureAtTrough(seasons(3, [0, 2]), Float64Array.of(0.4, NaN, 0.4), Float64Array.of(0.1, 0.1, 0.1), LINES);
  assert.equal(r.seasons_matched, 0);
  assert.equal(r.forest_like, null);
  assert.equal(r.shade_at_trough, null);
  assert.equal(r.aot_at_trough, null);
  assert.equal(r.withheld_for_dust, false);
  assert.match(r.refusal as string, /no clear scene/i);
});

test('a series whose wintering troughs are hazy keeps its cycle but withholds the canopy reading', () => {
  // Five Februaries of wintering seen every 5 days; the dry-season haze peaks with the trough.
  const start = utcDay('2016-01-01');
  const end = utcDay('2020-12-31');
  const troughs = ['2016-02-20', '2017-02-14', '2018-02-25', '2019-02-18', '2020-02-22'].map(utcDay);
  const days: number[] = [];
  for (let d = start; d <= end; d += 5) days.push(d);
  const nearest = (d: number) => Math.min(...troughs.map((t) => Math.abs(d - t)));
  const index = Float64Array.from(days, (d, k) => 0.82 - 0.3 * Math.exp(-0.5 * (nearest(d) / 12) ** 2) + 0.01 * Math.sin(k));
  const series = { days: Int32Array.from(days), index, flags: new Uint8Array(days.length).fill(SCENE_USABLE) };
  const record = seasonalTroughs(series, { start, end }, { dipDepth: 0.15, minObservations: 4, maxGapDays: 60, minSeasons: 3, phaseSdLimitDays: 30 });
  assert.equal(record.cycle, 'phase_locked');
  const shade = Float64Array.from(days, () => 0.22);
  const aot = Float64Array.from(days, (d) => (nearest(d) <= 20 ? 0.9 : 0.15));
  const r = structureAtTrough(record.seasons, shade, aot, LINES);
  assert.equal(r.withheld_for_dust, true);
  assert.equal(r.forest_like, null);
  assert.ok((r.aot_at_trough as number) > LINES.aotDustLimit);
  const clearSky = structureAtTrough(record.seasons, shade, Float64Array.from(days, () => 0.15), LINES);
  assert.deepEqual([clearSky.forest_like, clearSky.confident, clearSky.seasons_matched], [false, true, record.seasons_observed]);
});
