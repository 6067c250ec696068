// When each demo site was imaged and what the sky was like. On the storied sites Sentinel-2 comes
// routinely every 45 days before the cutoff (half-yearly after it), with extra passes bracketing the
// dry-season trough so a trough holds in two neighbouring scenes; Landsat comes between troughs. They
// keep just enough scenes for every reading they are meant to give, and clouds never silently change
// that reading. Sites with real sensors are imaged at the missions' revisit before the cutoff, under
// a sky drawn per pass from the site's regime that shields no pass.
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
/** The dry-season core around the trough: the span dust is drawn over, and where a real-sensor site's sky takes its trough share. */
const DRY_CORE_DAYS = 35;

/**
 * The missions' revisit at the equator: Sentinel-2A alone every 10 days until Sentinel-2B joined it
 * (launched March 2017; its products from mid-2017, July here as the scenes' platform names have
 * it), then 5 days (Drusch et al. 2012, Remote Sens. Environ. 120:25-36); Landsat 8 every 16 days
 * (Roy et al. 2014, Remote Sens. Environ. 145:154-172). After the cutoff the engine reads no
 * optical scene, so real-sensor sites keep the storied sites' sparse schedule there.
 */
const S2_REVISIT_DAYS = { alone: 10, pair: 5 };
const S2B_FIRST_DAY = '2017-07-01';
const LANDSAT_REVISIT_DAYS = 16;

/**
 * Cloudy spells persist: the autocorrelation of cloud cover at a place falls off exponentially with
 * time, with half-lives of 5 to 40 hours across stations (Jones 1992, J. Appl. Meteorol.
 * 31:732-741); each real-sensor site draws its half-life from that range, so two passes d days
 * apart share their sky with correlation 2^(-24d/h). Shorter revisits then gain less than
 * independent skies would (Whitcraft et al. 2015, Remote Sens. Environ. 156:438-447).
 */
const CLOUD_HALF_LIFE_HOURS = [5, 40] as const;
/** Of the passes not lost to cloud, the share with scattered cloud over the ground, as on the storied sites. */
const PARTIAL_SHARE = 0.3;

function aotFor(spec: SiteGround, day: number, r: () => number): number {
  if (spec.sky.dustAtTrough && Math.abs(daysFromTrough(day, spec.trough.doy)) <= DRY_CORE_DAYS) return 0.8 + 0.25 * r();
  return 0.1 + 0.15 * r();
}

/** Sentinel-2 passes over a site, oldest first. */
export function sentinel2Passes(spec: SiteGround, seed: string): Pass[] {
  const rnd = randomFor(seed, spec.name, 's2-schedule');
  const first = dayNumber(`${FIRST_YEAR}-01-01`);
  const end = dayNumber(`${LAST_YEAR + 1}-01-01`);
  const cutoff = dayNumber(`${CUTOFF_YEAR + 1}-01-01`);
  if (spec.realSensors) {
    const pair = dayNumber(S2B_FIRST_DAY);
    return realSky(spec, seed, 's2', revisits(first + Math.floor(rnd.next() * S2_REVISIT_DAYS.alone), cutoff, end, (d) => (d < pair ? S2_REVISIT_DAYS.alone : S2_REVISIT_DAYS.pair), S2_ROUTINE_DAYS.after));
  }
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
  if (spec.realSensors) return realSky(spec, seed, 'landsat', revisits(d, dayNumber(`${CUTOFF_YEAR + 1}-01-01`), end, () => LANDSAT_REVISIT_DAYS, LANDSAT_DAYS.after));
  while (d < end) {
    if (Math.abs(daysFromTrough(d, spec.trough.doy)) >= LANDSAT_TROUGH_CLEARANCE) days.push({ day: d, atTrough: false });
    d += new Date(d * 86_400_000).getUTCFullYear() <= CUTOFF_YEAR ? LANDSAT_DAYS.before : LANDSAT_DAYS.after;
  }
  return assignSky(spec, seed, 'landsat', days);
}

/** Pass days from `first`: every `step(day)` days until `cutoff`, every `after` days from there to `end`. */
function revisits(first: number, cutoff: number, end: number, step: (day: number) => number, after: number): number[] {
  const days: number[] = [];
  for (let d = first; d < end; d += d < cutoff ? step(d) : after) days.push(d);
  return days;
}

/**
 * A real-sensor site's sky, pass by pass: overcast with the site's share (its trough share in the
 * dry-season core), each pass leaning on the one before as cloud persists, trough or not.
 */
function realSky(spec: SiteGround, seed: string, sensor: string, days: number[]): Pass[] {
  const rnd = randomFor(seed, spec.name, sensor, 'real-sky');
  const halfLifeDays = rnd.between(...CLOUD_HALF_LIFE_HOURS) / 24;
  let previous: { day: number; overcast: boolean } | null = null;
  return days.map((day) => {
    const share = Math.abs(daysFromTrough(day, spec.trough.doy)) <= DRY_CORE_DAYS ? spec.sky.overcastAtTrough : spec.sky.overcast;
    // A two-state chain whose stationary share is `share` and whose correlation between passes is ρ.
    const rho = previous === null ? 0 : 2 ** (-(day - previous.day) / halfLifeDays);
    const p = previous === null ? share : previous.overcast ? share + rho * (1 - share) : share * (1 - rho);
    const r = rnd.next();
    const sky: Sky = r < p ? 'overcast' : rnd.next() < PARTIAL_SHARE ? 'partial' : 'clear';
    previous = { day, overcast: sky === 'overcast' };
    return { day, atTrough: false, sky, aot: aotFor(spec, day, rnd.next) };
  });
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
