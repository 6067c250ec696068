// The modelled truth under a polygon: the share of its area that was forest, crop or other land at
// the end of 2020 on the hard world, sampled every 5 m. Ground the world does not model is said
// as such, never guessed.
import { insideRing, localFrame, type Ring, toLonLat } from '../geometry.ts';
import type { TruthClass } from './covers.ts';
import type { TruthFeature } from './world.ts';

export type TruthShares = Record<TruthClass | 'not_modelled', number>;

export type Area = { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

const STEP_M = 5;

const polygonsOf = (g: Area): number[][][][] => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates);
const asRing = (r: number[][]): Ring => r.map((p) => [p[0], p[1]]);

function inside(lon: number, lat: number, polygons: Ring[][]): boolean {
  return polygons.some(([outer, ...holes]) => insideRing(lon, lat, outer) && !holes.some((h) => insideRing(lon, lat, h)));
}

function bounds(polygons: Ring[][]): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [outer] of polygons) for (const [x, y] of outer) [w, s, e, n] = [Math.min(w, x), Math.min(s, y), Math.max(e, x), Math.max(n, y)];
  return [w, s, e, n];
}

/** Shares of each truth class under `area` (they sum to 1); null for an area too small to hold a sample. */
export function truthShares(truth: readonly TruthFeature[], area: Area): TruthShares | null {
  const polygons = polygonsOf(area).map((p) => p.map(asRing));
  const [w, s, e, n] = bounds(polygons);
  const near = truth
    .map((f) => ({ f, rings: [f.geometry.coordinates.map(asRing)] }))
    .filter(({ rings }) => {
      const [fw, fs, fe, fn] = bounds(rings);
      return fw <= e && fe >= w && fs <= n && fn >= s;
    });
  // Plots first: a plot's class holds over the ground around it.
  near.sort((a, b) => (a.f.properties.part === b.f.properties.part ? 0 : a.f.properties.part === 'plot' ? -1 : 1));
  const frame = localFrame((w + e) / 2, (s + n) / 2);
  const [dLon, dLat] = toLonLat(frame, STEP_M, STEP_M).map((v, i) => v - (i === 0 ? frame.lon0 : frame.lat0));
  const counts: TruthShares = { forest: 0, crop: 0, other: 0, not_modelled: 0 };
  let total = 0;
  for (let lat = s + dLat / 2; lat < n; lat += dLat) {
    for (let lon = w + dLon / 2; lon < e; lon += dLon) {
      if (!inside(lon, lat, polygons)) continue;
      total++;
      const hit = near.find(({ rings }) => inside(lon, lat, rings));
      counts[hit ? hit.f.properties.class : 'not_modelled']++;
    }
  }
  if (total === 0) return null;
  for (const k of Object.keys(counts) as Array<keyof TruthShares>) counts[k] /= total;
  return counts;
}
