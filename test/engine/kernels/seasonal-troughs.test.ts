import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utcDay } from '../../../src/engine/kernels/days.ts';
import { SCENE_USABLE } from '../../../src/engine/kernels/scene-stats.ts';
import { seasonalTroughs, type SceneSeries, type SeasonLines } from '../../../src/engine/kernels/seasonal-troughs.ts';

const LINES: SeasonLines = { dipDepth: 0.15, minObservations: 4, maxGapDays: 60, minSeasons: 3, phaseSdLimitDays: 30 };
const PERIOD = { start: utcDay('2016-01-01'), end: utcDay('2020-12-31') };

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Build {
  /** Trough dates, one per wintering (absent: an evergreen series). */
  troughs?: string[];
  depth?: number;
  noise?: number;
  everyDays?: number;
  seed?: number;
  /** Days on which no usable scene was taken (cloud). */
  cloudy?: (day: number) => boolean;
  period?: { start: number; end: number };
}

/** A Sentinel-2-like series: a scene every few days, NDVI near 0.82 with wintering troughs about three weeks wide. */
function build(b: Build): SceneSeries {
  const period = b.period ?? PERIOD;
  const next = random(b.seed ?? 1);
  const troughs = (b.troughs ?? []).map(utcDay);
  const days: number[] = [];
  const index: number[] = [];
  const flags: number[] = [];
  for (let d = period.start; d <= period.end; d += b.everyDays ?? 5) {
    let v = 0.82;
    for (const t of troughs) v -= (b.depth ?? 0.3) * Math.exp(-0.5 * ((d - t) / 12) ** 2);
    // Sum of uniforms: noise with standard deviation `noise`.
    v += (b.noise ?? 0.03) * (next() + next() + next() - 1.5) * 2;
    days.push(d);
    index.push(v);
    flags.push(b.cloudy?.(d) ? 0 : SCENE_USABLE);
  }
  return { days: Int32Array.from(days), index: Float64Array.from(index), flags: Uint8Array.from(flags) };
}

const FEBRUARY = ['2016-02-20', '2017-02-14', '2018-02-25', '2019-02-18', '2020-02-22'];
const AUGUST = ['2016-08-10', '2017-08-18', '2018-08-05', '2019-08-14', '2020-08-12'];

function near(date: string | null, expected: string, days: number): boolean {
  return date !== null && Math.abs(utcDay(date) - utcDay(expected)) <= days;
}

test('a phase-locked February wintering dips in every season and is found at its dates', () => {
  const result = seasonalTroughs(build({ troughs: FEBRUARY }), PERIOD, LINES);
  assert.equal(result.cycle, 'phase_locked');
  assert.equal(result.phase_locked, true);
  assert.ok(result.seasons_observed >= 4);
  assert.equal(result.seasons_with_dip, result.seasons_observed);
  assert.ok((result.phase_sd_days as number) < 15, `sd ${result.phase_sd_days}`);
  for (const expected of FEBRUARY) {
    assert.ok(result.seasons.some((s) => s.dipped && near(s.trough_date, expected, 10)), `trough near ${expected}`);
  }
  assert.ok((result.mean_depth as number) > 0.2);
});

test('a southern-hemisphere August trough is found just the same', () => {
  const result = seasonalTroughs(build({ troughs: AUGUST, seed: 5 }), PERIOD, LINES);
  assert.equal(result.cycle, 'phase_locked');
  for (const expected of AUGUST) {
    assert.ok(result.seasons.some((s) => s.dipped && near(s.trough_date, expected, 10)), `trough near ${expected}`);
  }
});

test('a trough at New Year lies inside one season that straddles the calendar year', () => {
  const troughs = ['2016-12-30', '2018-01-03', '2018-12-28', '2020-01-02'];
  const result = seasonalTroughs(build({ troughs, seed: 9 }), PERIOD, LINES);
  assert.equal(result.cycle, 'phase_locked');
  for (const expected of troughs) {
    const season = result.seasons.find((s) => s.dipped && near(s.trough_date, expected, 10));
    assert.ok(season, `trough near ${expected}`);
    const [from, to] = season.label.split(' to ');
    assert.notEqual(from.slice(0, 4), to.slice(0, 4), `season ${season.label} straddles New Year`);
  }
});

test('one season out of phase makes the cycle not consistent', () => {
  const troughs = ['2016-02-20', '2017-02-14', '2018-06-10', '2019-02-18', '2020-02-22'];
  const result = seasonalTroughs(build({ troughs, seed: 3 }), PERIOD, LINES);
  assert.equal(result.phase_locked, false);
  assert.ok((result.phase_sd_days as number) > LINES.phaseSdLimitDays);
  assert.equal(result.cycle, 'not_consistent');
});

test('a season without a dip among wintering seasons makes the cycle not consistent', () => {
  const troughs = ['2016-02-20', '2017-02-14', '2019-02-18', '2020-02-22'];
  const result = seasonalTroughs(build({ troughs, seed: 4 }), PERIOD, LINES);
  assert.ok(result.seasons_with_dip < result.seasons_observed);
  assert.ok(result.seasons_with_dip >= 3);
  assert.equal(result.cycle, 'not_consistent');
});

test('a flat evergreen series has no dip in any measured season', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const result = seasonalTroughs(build({ seed }), PERIOD, LINES);
    assert.equal(result.cycle, 'no_cycle', `seed ${seed}`);
    assert.equal(result.seasons_with_dip, 0);
    assert.ok(result.seasons_observed >= LINES.minSeasons);
    // Noise of 0.03 alone stays far below the dip line (the operating point's reasoning).
    for (const s of result.seasons) if (!s.no_answer) assert.ok((s.depth as number) < 0.1, `seed ${seed} depth ${s.depth}`);
  }
});

test('one stray dark scene is not a trough', () => {
  const series = build({ seed: 11 });
  const stray = series.days.findIndex((d) => d >= utcDay('2018-03-01'));
  series.index[stray] = 0.35;
  const result = seasonalTroughs(series, PERIOD, LINES);
  assert.equal(result.seasons_with_dip, 0);
  assert.equal(result.cycle, 'no_cycle');
});

test('scenes not flagged usable are not read', () => {
  const series = build({ troughs: FEBRUARY, seed: 12 });
  const flat = build({ seed: 12 });
  // Same dates: the wintering scenes are all flagged unusable, so only the flat values remain.
  for (let i = 0; i < series.days.length; i++) {
    if (Math.abs(series.index[i] - flat.index[i]) > 0.01) series.flags[i] = 0;
  }
  const result = seasonalTroughs(series, PERIOD, LINES);
  assert.equal(result.seasons_with_dip, 0);
});

test('a two-season record with a trough in each is short of the record, not a cycle', () => {
  const period = { start: utcDay('2019-01-01'), end: utcDay('2020-12-31') };
  const dipping = seasonalTroughs(build({ troughs: ['2019-02-18', '2020-02-22'], period, seed: 21 }), period, LINES);
  assert.equal(dipping.seasons_observed, 2);
  assert.equal(dipping.seasons_with_dip, 2);
  assert.equal(dipping.cycle, 'troughs_short_of_record');
  const flat = seasonalTroughs(build({ period, seed: 22 }), period, LINES);
  assert.equal(flat.cycle, 'too_thin');
});

test('a cloudy record with long gaps answers no season and is too thin', () => {
  // Usable scenes only in the first 40 days of every 100.
  const cloudy = (d: number) => d % 100 >= 40;
  const result = seasonalTroughs(build({ seed: 31, cloudy }), PERIOD, LINES);
  assert.equal(result.seasons_observed, 0);
  assert.equal(result.cycle, 'too_thin');
  assert.deepEqual(result.seasons_without_answer, result.seasons.map((s) => s.season));
  assert.ok(result.seasons.every((s) => s.no_answer && !s.dipped));
});

test('a season cut by the end of the period answers only if its dip was seen', () => {
  const period = { start: utcDay('2016-01-01'), end: utcDay('2020-03-15') };
  const result = seasonalTroughs(build({ troughs: FEBRUARY, period, seed: 41 }), period, LINES);
  const last = result.seasons[result.seasons.length - 1];
  assert.equal(last.truncated, true);
  assert.equal(last.dipped, true);
  assert.equal(last.no_answer, false);
  const flat = seasonalTroughs(build({ period, seed: 41 }), period, LINES);
  const cut = flat.seasons.filter((s) => s.truncated);
  assert.ok(cut.length > 0);
  assert.ok(cut.every((s) => s.no_answer));
});

test('a dip in an unread stretch is never invented: an empty series has only unanswered seasons', () => {
  const empty: SceneSeries = { days: new Int32Array(0), index: new Float64Array(0), flags: new Uint8Array(0) };
  const result = seasonalTroughs(empty, PERIOD, LINES);
  assert.equal(result.seasons_observed, 0);
  assert.equal(result.mean_depth, null);
  assert.equal(result.phase_sd_days, null);
  assert.equal(result.cycle, 'too_thin');
  for (const s of result.seasons) {
    assert.equal(s.observations, 0);
    assert.equal(s.last_observed, null);
    assert.equal(s.depth, null);
  }
});

test('seasons are one per year, in order, whether the trough is placed at New Year or the record is too thin to place it', () => {
  const years = (series: SceneSeries) => seasonalTroughs(series, PERIOD, LINES).seasons.map((s) => s.season);
  const empty: SceneSeries = { days: new Int32Array(0), index: new Float64Array(0), flags: new Uint8Array(0) };
  const twoScenes: SceneSeries = { days: Int32Array.from([utcDay('2017-03-01'), utcDay('2019-06-01')]), index: Float64Array.from([0.8, 0.5]), flags: Uint8Array.from([SCENE_USABLE, SCENE_USABLE]) };
  const newYear = build({ troughs: ['2016-01-01', '2016-12-31', '2018-01-01', '2018-12-31', '2019-12-31', '2020-12-30'] });
  for (const series of [empty, twoScenes, newYear]) {
    const seen = years(series);
    assert.ok(seen.length >= 5, `${seen}`);
    assert.deepEqual(seen, seen.map((_, i) => seen[0] + i), `one season a year: ${seen}`);
  }
  assert.deepEqual(years(empty).filter((y) => y >= 2016 && y <= 2020), [2016, 2017, 2018, 2019, 2020]);
});

test('series arrays of different lengths are refused', () => {
  const bad: SceneSeries = { days: new Int32Array(3), index: new Float64Array(2), flags: new Uint8Array(3) };
  assert.throws(() => seasonalTroughs(bad, PERIOD, LINES), RangeError);
});
