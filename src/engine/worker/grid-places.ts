/**
 * Where the pixel centres of a grid laid out along meridians and parallels (a web map tile's, an
 * evidence chip's) fall in a raster's CRS. They are placed exactly at every EXACT_EVERY-th pixel each
 * way and interpolated between, as GDAL's approximate transformer does: across 16 pixels (at most a
 * few hundred metres) a projection bends by far less than a millimetre, and a 256-pixel square costs
 * 289 projections instead of 65,536, each of which makes garbage on the pool thread.
 */
import type { PointTransform } from '../sources/reproject.ts';

export const EXACT_EVERY = 16;

/**
 * Each pixel's place, row by row: `lons` holds the columns' centres, `lats` the rows'. A step past
 * the last pixel extends the grid's own spacing.
 */
export function gridPlaces(lons: ArrayLike<number>, lats: ArrayLike<number>, to: PointTransform): { xs: Float64Array; ys: Float64Array } {
  const width = lons.length;
  const height = lats.length;
  const across = Math.floor((width - 1) / EXACT_EVERY) + 2;
  const down = Math.floor((height - 1) / EXACT_EVERY) + 2;
  const past = (v: ArrayLike<number>, i: number) => (i < v.length ? v[i] : v[v.length - 1] + (v.length > 1 ? v[v.length - 1] - v[v.length - 2] : 0) * (i - v.length + 1));
  const gx = new Float64Array(across * down);
  const gy = new Float64Array(across * down);
  for (let b = 0; b < down; b++) for (let a = 0; a < across; a++) [gx[b * across + a], gy[b * across + a]] = to(past(lons, a * EXACT_EVERY), past(lats, b * EXACT_EVERY));
  const xs = new Float64Array(width * height);
  const ys = new Float64Array(width * height);
  for (let r = 0; r < height; r++) {
    const b = Math.floor(r / EXACT_EVERY);
    const v = (r - b * EXACT_EVERY) / EXACT_EVERY;
    for (let c = 0; c < width; c++) {
      const a = Math.floor(c / EXACT_EVERY);
      const u = (c - a * EXACT_EVERY) / EXACT_EVERY;
      const k00 = b * across + a, k01 = k00 + 1, k10 = k00 + across, k11 = k10 + 1;
      const k = r * width + c;
      xs[k] = (1 - v) * ((1 - u) * gx[k00] + u * gx[k01]) + v * ((1 - u) * gx[k10] + u * gx[k11]);
      ys[k] = (1 - v) * ((1 - u) * gy[k00] + u * gy[k01]) + v * ((1 - u) * gy[k10] + u * gy[k11]);
    }
  }
  return { xs, ys };
}
