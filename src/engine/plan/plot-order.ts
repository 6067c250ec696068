/**
 * The order a job reads its plots in. Plots near each other read the same scenes' tiles, and a
 * tile is fetched and decoded once only while it stays in the caches; reading neighbours one after
 * another keeps the tiles a plot needs in the caches for the next. A Hilbert curve over the plots'
 * positions gives that order: points close on the curve are close on the ground, and unlike rows
 * or a Z-order curve it never jumps across the whole extent between two neighbours.
 */
import type { LookAhead, Place } from './raster-shipment.ts';

export interface Placed {
  /** A point of the plot, in degrees. */
  lon: number;
  lat: number;
}

/**
 * Cells per side of the grid positions are snapped to: 2^24 over the whole globe, a cell of a few
 * metres. The grid is fixed rather than fitted to the job's plots, so the plots a resumed job has
 * left keep the order they had.
 */
const CURVE_ORDER = 24;
const SIDE = 2 ** CURVE_ORDER;

const cellOf = (value: number, span: number) => Math.min(SIDE - 1, Math.max(0, Math.floor(((value + span / 2) / span) * SIDE)));

/** The distance along the Hilbert curve of the cell (x, y), each from 0 to 2^24 − 1. */
export function hilbertIndex(x: number, y: number): number {
  let d = 0;
  for (let s = SIDE >>> 1; s > 0; s >>>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    // Rotate the quadrant so the curve inside it runs on from where the last one ended.
    if (ry === 0) {
      if (rx === 1) {
        x = SIDE - 1 - x;
        y = SIDE - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/**
 * The items along a Hilbert curve over the globe; items in one cell keep their given order, so a
 * subset of a set comes back in the order it had within the set.
 */
export function spatialOrder<T extends Placed>(items: readonly T[]): T[] {
  const keyed = items.map((p, k) => ({ p, k, d: hilbertIndex(cellOf(p.lon, 360), cellOf(p.lat, 180)) }));
  keyed.sort((a, b) => a.d - b.d || a.k - b.k);
  return keyed.map((x) => x.p);
}

/**
 * Degrees a place is widened by when asking which plots need it: a plot is known by one vertex, and
 * a plot of a few hectares whose vertex lies just outside a tile cell still reaches into it.
 */
const PLACE_MARGIN_DEG = 0.003;

/**
 * A job's look ahead over its plots in read order (the decoded tiles' `lookAhead`): how many plots
 * after the one it is at (`at()`) the next plot with a vertex in a place comes, Infinity where none
 * does. Each place's plots are found once, by a pass over the job's plots.
 */
export function plotsAhead(plots: readonly Placed[], at: () => number): LookAhead {
  const within = new WeakMap<Place, Int32Array>();
  return (place) => {
    let inside = within.get(place);
    if (inside === undefined) {
      const [w, s, e, n] = place;
      const m = PLACE_MARGIN_DEG;
      const found: number[] = [];
      plots.forEach((p, k) => {
        if (p.lon >= w - m && p.lon <= e + m && p.lat >= s - m && p.lat <= n + m) found.push(k);
      });
      within.set(place, (inside = Int32Array.from(found)));
    }
    const now = at();
    let lo = 0;
    let hi = inside.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (inside[mid] < now) lo = mid + 1;
      else hi = mid;
    }
    return lo < inside.length ? inside[lo] - now : Infinity;
  };
}
