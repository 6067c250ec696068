// When each demo site was imaged and what the sky was like. Sentinel-2 comes routinely every
// 45 days before the cutoff (half-yearly after it), with extra passes bracketing the dry-season
// trough so a trough holds in two neighbouring scenes; Landsat comes between troughs. The real
// revisit is five days; the demo keeps just enough scenes for every reading it is meant to give. Clouds follow the
// site's sky, and never in a way that would silently change the reading the site is meant for.
import { daysFromTrough, seasonOf } from './landscape.ts';
import { randomFor } from './random.ts';
import { dayNumber } from './site-model.ts';
import type { SiteGround } from './sites.ts';

export const FIRST_YEAR = 2016;
export const LAST_YEAR = 2025;
export const CUTOFF_YEAR = 2020;

export type Sky = 'clear' | 'partial' | 'overcast';

export interface Pass {
  day: number;
  /** A pass placed to bracket the trough (it may be cloud-free by design). */
  atTrough: boolean;
  sky: Sky;
  /** Aerosol optical thickness (550 nm) of the scene. */
  aot: number;
}

const S2_ROUTINE_DAYS = { before: 45, after: 182 };
const S2_TROUGH_OFFSETS = { before: [-5, 5], after: [0] };
const LANDSAT_DAYS = { before: 61, after: 182 };
// Landsat passes stay this far from the trough, so troughs are always read on Sentinel-2 (with AOT).
const LANDSAT_TROUGH_CLEARANCE = 40;
const DUST_DAYS = 35;

function aotFor(spec: SiteGround, day: number, r: () => number): number {
  if (spec.sky.dustAtTrough && Math.abs(daysFromTrough(day, spec.trough.doy)) <= DUST_DAYS) return 0.8 + 0.25 * r();
  return 0.1 + 0.15 * r();
}

/** Sentinel-2 passes over a site, oldest first. */
export function sentinel2Passes(spec: SiteGround, seed: string): Pass[] {
  const rnd = randomFor(seed, spec.name, 's2-schedule');
  const first = dayNumber(`${FIRST_YEAR}-01-01`);
  const end = dayNumber(`${LAST_YEAR + 1}-01-01`);
  const cutoff = dayNumber(`${CUTOFF_YEAR + 1}-01-01`);
  const extras: number[] = [];
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) {
    const troughDay = dayNumber(`${year}-01-01`) + spec.trough.doy - 1;
    for (const o of S2_TROUGH_OFFSETS[year <= CUTOFF_YEAR ? 'before' : 'after']) if (troughDay + o >= first && troughDay + o < end) extras.push(troughDay + o);
  }
  // Routine passes run on without restarting each year, so no gap opens at New Year.
  const days: Array<{ day: number; atTrough: boolean }> = extras.map((day) => ({ day, atTrough: true }));
  for (let d = first + Math.floor(rnd.next() * S2_ROUTINE_DAYS.before); d < end; d += d < cutoff ? S2_ROUTINE_DAYS.before : S2_ROUTINE_DAYS.after) {
    if (extras.every((e) => Math.abs(e - d) > 4)) days.push({ day: d, atTrough: false });
  }
  days.sort((a, b) => a.day - b.day);
  return assignSky(spec, seed, 's2', days);
}

/** Landsat 8/9 passes over a site, oldest first, kept away from the trough. */
export function landsatPasses(spec: SiteGround, seed: string): Pass[] {
  const rnd = randomFor(seed, spec.name, 'landsat-schedule');
  const days: Array<{ day: number; atTrough: boolean }> = [];
  let d = dayNumber(`${FIRST_YEAR}-01-01`) + Math.floor(rnd.next() * 30);
  const end = dayNumber(`${LAST_YEAR + 1}-01-01`);
  while (d < end) {
    if (Math.abs(daysFromTrough(d, spec.trough.doy)) >= LANDSAT_TROUGH_CLEARANCE) days.push({ day: d, atTrough: false });
    d += new Date(d * 86_400_000).getUTCFullYear() <= CUTOFF_YEAR ? LANDSAT_DAYS.before : LANDSAT_DAYS.after;
  }
  return assignSky(spec, seed, 'landsat', days);
}

function assignSky(spec: SiteGround, seed: string, sensor: string, days: Array<{ day: number; atTrough: boolean }>): Pass[] {
  const rnd = randomFor(seed, spec.name, sensor, 'sky');
  const out: Pass[] = [];
  const clearInSeason = new Map<number, number>();
  let lastRoutineOvercast = false;
  const overcastTroughsInSeason = new Map<number, number>();
  for (const { day, atTrough } of days) {
    const r = rnd.next();
    const season = seasonOf(day, spec.trough.doy);
    let sky: Sky;
    if (spec.sky.clearSeasons !== undefined) {
      // A cloud-bound site: its clear seasons are seen fully; every other season gets one clear
      // Sentinel-2 scene at most, far from the trough, and no clear Landsat scene.
      if (spec.sky.clearSeasons.includes(season)) sky = 'clear';
      else {
        const seen = clearInSeason.get(season) ?? 0;
        const farFromTrough = Math.abs(daysFromTrough(day, spec.trough.doy)) > 60;
        sky = sensor === 's2' && seen === 0 && farFromTrough && r < 0.5 ? 'clear' : 'overcast';
        if (sky === 'clear') clearInSeason.set(season, seen + 1);
      }
    } else if (atTrough) {
      // At most one of the passes bracketing a trough is lost to cloud, so the trough still holds in two.
      const lost = overcastTroughsInSeason.get(season) ?? 0;
      sky = lost === 0 && r < spec.sky.overcastAtTrough ? 'overcast' : r > 0.7 ? 'partial' : 'clear';
      if (sky === 'overcast') overcastTroughsInSeason.set(season, lost + 1);
    } else {
      // Never two routine passes lost in a row: the record keeps no gap longer than two routine intervals.
      sky = !lastRoutineOvercast && r < spec.sky.overcast ? 'overcast' : r > 0.7 ? 'partial' : 'clear';
      lastRoutineOvercast = sky === 'overcast';
    }
    out.push({ day, atTrough, sky, aot: aotFor(spec, day, rnd.next) });
  }
  return out;
}
