/**
 * Seasonal troughs of a per-scene vegetation-index series. The site's own dry or wintering season
 * is found from the data, never from a calendar: the first annual harmonic fitted to every usable
 * scene puts the climatological trough at some day of the tropical year, and each season is the
 * year-long window centred on it. The window boundary falls at the greenest time of year, so a
 * February wintering (northern tropics) and an August one (southern tropics) are both whole
 * seasons, and a season straddling New Year is no different from any other.
 */
import { isoDate } from './days.ts';
import { histogramQuantile } from './histogram.ts';
import { SCENE_HAZY, SCENE_USABLE } from './scene-stats.ts';

/** Mean length of the tropical year in days: season windows and trough phases use it. */
export const YEAR_DAYS = 365.2425;

export interface SceneSeries {
  /** UTC day numbers (days since 1970-01-01), ascending. */
  readonly days: Int32Array | Float64Array;
  /** Vegetation index per scene (NaN where the scene gave none). */
  readonly index: Float32Array | Float64Array;
  /**
   * Per-scene flag bits; scenes with SCENE_USABLE are read. A scene also SCENE_HAZY is left out of
   * the troughs: a dip that only a hazy scene shows leaves its season without an answer.
   */
  readonly flags: Uint8Array;
}

/** The period read, as inclusive UTC day numbers. */
export interface RecordPeriod {
  readonly start: number;
  readonly end: number;
}

export interface SeasonLines {
  /** Plateau-to-trough drop that counts as a dip. */
  readonly dipDepth: number;
  /** Usable scenes a season needs before it can answer (at least 3). */
  readonly minObservations: number;
  /** Longest stretch without a usable scene over which a season can still answer "no dip". */
  readonly maxGapDays: number;
  /** Measured seasons a record needs to stand on its own (at least 2). */
  readonly minSeasons: number;
  /** Circular standard deviation of trough dates, in days, up to which the troughs are phase-locked. */
  readonly phaseSdLimitDays: number;
}

export interface SeasonTrough {
  /** Year of the season's expected trough (within a day of its UTC year); consecutive seasons have consecutive years. */
  season: number;
  /** Months the season's window covers, e.g. "2019-08 to 2020-07". */
  label: string;
  observations: number;
  plateau: number | null;
  trough: number | null;
  trough_date: string | null;
  depth: number | null;
  dipped: boolean;
  no_answer: boolean;
  /** The season's window runs past the start or end of the period read. */
  truncated: boolean;
  last_observed: string | null;
  /** Index in the series of the scene at the trough (for readings at the trough). */
  trough_scene: number | null;
}

/**
 * What the record says on its own: too thin to say anything; every measured season dipped but
 * fewer than the record needs; a record with no dip; dips in some seasons only, or out of phase;
 * a dip in every measured season, phase-locked.
 */
export type CycleClass = 'too_thin' | 'troughs_short_of_record' | 'no_cycle' | 'not_consistent' | 'phase_locked';

export interface SeasonalTroughs {
  seasons: SeasonTrough[];
  seasons_observed: number;
  seasons_with_dip: number;
  phase_locked: boolean;
  phase_sd_days: number | null;
  mean_depth: number | null;
  /** Seasons (by `season`) that gave no answer. */
  seasons_without_answer: number[];
  cycle: CycleClass;
}

// The plateau is the upper quartile of a season's values: the green level outside the trough,
// robust to a stray bright value and untouched by a trough lasting under a quarter of the year.
const PLATEAU_QUANTILE = 0.75;
const INDEX_BINS = 2000;
const INDEX_BIN = 2 / INDEX_BINS;

/** Day of the tropical year (0..YEAR_DAYS) at which the first annual harmonic of the usable scenes is lowest. */
function expectedTroughPhase(series: SceneSeries): number {
  const { days, index, flags } = series;
  const w = (2 * Math.PI) / YEAR_DAYS;
  // Normal equations of index ≈ a + b·cos(wt) + c·sin(wt).
  let n = 0, sc = 0, ss = 0, scc = 0, sss = 0, scs = 0, sy = 0, syc = 0, sys = 0;
  for (let i = 0; i < days.length; i++) {
    const y = index[i];
    if (!readClear(flags[i]) || y !== y) continue;
    const c = Math.cos(w * days[i]);
    const s = Math.sin(w * days[i]);
    n++; sc += c; ss += s; scc += c * c; sss += s * s; scs += c * s;
    sy += y; syc += y * c; sys += y * s;
  }
  if (n < 3) return 0;
  // Eliminate a: the centred 2×2 system in b and c.
  const m11 = scc - (sc * sc) / n, m12 = scs - (sc * ss) / n, m22 = sss - (ss * ss) / n;
  const r1 = syc - (sc * sy) / n, r2 = sys - (ss * sy) / n;
  const det = m11 * m22 - m12 * m12;
  if (!(Math.abs(det) > 1e-12)) return 0;
  const b = (r1 * m22 - r2 * m12) / det;
  const c = (m11 * r2 - m12 * r1) / det;
  // b·cos θ + c·sin θ is lowest where (cos θ, sin θ) points against (b, c).
  const theta = Math.atan2(-c, -b);
  return ((theta < 0 ? theta + 2 * Math.PI : theta) / (2 * Math.PI)) * YEAR_DAYS;
}

/**
 * The trough of the first `m` (at least 2) values in time order: the lowest value that holds in two
 * neighbouring scenes, as the running median of three (two at the ends), which ignores one stray
 * dark scene such as an undetected cloud shadow; `scene` is where it lies, or its darker neighbour.
 */
export function heldTrough(values: Float64Array, m: number): { held: number; scene: number } {
  let best = Infinity;
  let at = 0;
  for (let j = 0; j < m; j++) {
    let v: number;
    if (j === 0) v = Math.max(values[0], values[1]);
    else if (j === m - 1) v = Math.max(values[m - 2], values[m - 1]);
    else {
      const a = values[j - 1], b = values[j], c = values[j + 1];
      v = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }
    if (v < best) {
      best = v;
      at = j;
    }
  }
  let scene = at;
  if (at > 0 && values[at - 1] < values[scene]) scene = at - 1;
  if (at < m - 1 && values[at + 1] < values[scene]) scene = at + 1;
  return { held: best, scene };
}

/** A usable scene read through clear air. */
const readClear = (flag: number): boolean => (flag & (SCENE_USABLE | SCENE_HAZY)) === SCENE_USABLE;

/** The upper quartile of the first `m` values, binned into `counts` (left cleared). */
function plateauOf(values: Float64Array, m: number, counts: Uint32Array): number {
  for (let j = 0; j < m; j++) {
    let bin = ((values[j] + 1) / INDEX_BIN) | 0;
    bin = bin < 0 ? 0 : bin >= INDEX_BINS ? INDEX_BINS - 1 : bin;
    counts[bin]++;
  }
  const plateau = histogramQuantile(counts, m, PLATEAU_QUANTILE, -1, INDEX_BIN);
  counts.fill(0);
  return plateau;
}

export function seasonalTroughs(series: SceneSeries, period: RecordPeriod, lines: SeasonLines): SeasonalTroughs {
  const { days, index, flags } = series;
  const n = days.length;
  if (index.length !== n || flags.length !== n) throw new RangeError('series arrays differ in length');
  const phase = expectedTroughPhase(series);
  const half = YEAR_DAYS / 2;
  const kFirst = Math.ceil((period.start - phase) / YEAR_DAYS);
  const kLast = Math.floor((period.end - phase) / YEAR_DAYS);
  const values = new Float64Array(n);
  const order = new Int32Array(n);
  const withHaze = new Float64Array(n);
  const counts = new Uint32Array(INDEX_BINS);
  const seasons: SeasonTrough[] = [];
  let cursor = 0;
  for (let k = kFirst; k <= kLast; k++) {
    const expected = phase + k * YEAR_DAYS;
    const from = expected - half;
    const to = expected + half;
    while (cursor < n && days[cursor] < from) cursor++;
    let m = 0;
    let hazy = 0;
    for (let i = cursor; i < n && days[i] < to; i++) {
      const y = index[i];
      if ((flags[i] & SCENE_USABLE) === 0 || y !== y) continue;
      withHaze[m + hazy] = y;
      if (!readClear(flags[i])) {
        hazy++;
        continue;
      }
      values[m] = y;
      order[m++] = i;
    }
    const truncated = from < period.start || to > period.end + 1;
    const season: SeasonTrough = {
      // The k-th tropical year since 1970: one season a year, always. The calendar year of `expected`
      // drifts by up to a day against it, so a trough phase at New Year would name a year twice.
      season: 1970 + k,
      label: `${isoDate(from).slice(0, 7)} to ${isoDate(to - 1).slice(0, 7)}`,
      observations: m,
      plateau: null,
      trough: null,
      trough_date: null,
      depth: null,
      dipped: false,
      no_answer: true,
      truncated,
      last_observed: m > 0 ? isoDate(days[order[m - 1]]) : null,
      trough_scene: null,
    };
    seasons.push(season);
    if (m < 3) continue;
    const { held: best, scene } = heldTrough(values, m);
    const plateau = plateauOf(values, m, counts);
    const depth = plateau - best;
    const dipped = depth >= lines.dipDepth;
    // A dip that shows only with the hazy scenes in may be the haze's: the season cannot answer.
    const dipInHaze = !dipped && hazy > 0 && plateauOf(withHaze, m + hazy, counts) - heldTrough(withHaze, m + hazy).held >= lines.dipDepth;
    // "No dip" is an answer only when no trough could have hidden in the season: the whole window
    // inside the period read and no long stretch without a usable scene.
    let gap = 0;
    if (!dipped) {
      const start = Math.max(from, period.start);
      const end = Math.min(to, period.end + 1);
      gap = Math.max(days[order[0]] - start, end - days[order[m - 1]]);
      for (let j = 1; j < m; j++) gap = Math.max(gap, days[order[j]] - days[order[j - 1]]);
    }
    season.plateau = plateau;
    season.trough = best;
    season.trough_scene = order[scene];
    season.trough_date = isoDate(days[order[scene]]);
    season.depth = depth;
    season.dipped = dipped;
    season.no_answer = m < lines.minObservations || dipInHaze || (!dipped && (truncated || gap > lines.maxGapDays));
  }
  let observed = 0;
  let dips = 0;
  let depthSum = 0;
  let cosSum = 0;
  let sinSum = 0;
  const withoutAnswer: number[] = [];
  for (const s of seasons) {
    if (s.no_answer) {
      withoutAnswer.push(s.season);
      continue;
    }
    observed++;
    depthSum += s.depth as number;
    if (!s.dipped) continue;
    dips++;
    const theta = (2 * Math.PI * days[s.trough_scene as number]) / YEAR_DAYS;
    cosSum += Math.cos(theta);
    sinSum += Math.sin(theta);
  }
  let phaseSd: number | null = null;
  if (dips >= 2) {
    // Circular standard deviation sqrt(−2 ln R) of the trough dates (Mardia and Jupp 2000).
    // R is floored at the smallest double so troughs spread exactly evenly still give a finite SD.
    const r = Math.min(1, Math.max(Number.MIN_VALUE, Math.hypot(cosSum, sinSum) / dips));
    phaseSd = (Math.sqrt(-2 * Math.log(r)) * YEAR_DAYS) / (2 * Math.PI);
  }
  const phaseLocked = phaseSd !== null && phaseSd <= lines.phaseSdLimitDays;
  let cycle: CycleClass;
  if (observed < lines.minSeasons) {
    cycle = dips >= 1 && dips === observed && (dips === 1 || phaseLocked) ? 'troughs_short_of_record' : 'too_thin';
  } else if (dips === 0) cycle = 'no_cycle';
  else if (dips === observed && phaseLocked) cycle = 'phase_locked';
  else cycle = 'not_consistent';
  return {
    seasons,
    seasons_observed: observed,
    seasons_with_dip: dips,
    phase_locked: phaseLocked,
    phase_sd_days: phaseSd,
    mean_depth: observed > 0 ? depthSum / observed : null,
    seasons_without_answer: withoutAnswer,
    cycle,
  };
}
