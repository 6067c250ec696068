/**
 * The pixel work of a map tile: where each tile pixel falls on a source raster, the median of a
 * stack of scenes, and the colours of the imagery and change layers. A tile pixel that no source
 * pixel answers stays transparent (alpha 0), so ground outside the archive is never drawn as data.
 */
import type { Encoding, Raster } from './raster.ts';

/** A source grid as the sampler needs it: north-up geotransform and size. */
export interface SampleGrid {
  geoTransform: readonly number[];
  width: number;
  height: number;
}

/**
 * The source pixel under each tile pixel (nearest neighbour): `xs`, `ys` hold each tile pixel's
 * centre in the source's CRS; -1 where it falls outside the raster.
 */
export function nearestPixels(xs: Float64Array, ys: Float64Array, grid: SampleGrid): Int32Array {
  const [ox, pw, , oy, , ph] = grid.geoTransform;
  const out = new Int32Array(xs.length);
  for (let k = 0; k < xs.length; k++) {
    const c = Math.floor((xs[k] - ox) / pw);
    const r = Math.floor((ys[k] - oy) / ph);
    out[k] = c < 0 || r < 0 || c >= grid.width || r >= grid.height ? -1 : r * grid.width + c;
  }
  return out;
}

/** One scene's bands under the tile: each tile pixel's source pixel, and which are clear (null: every pixel is). */
export interface StackedScene {
  at: Int32Array;
  bands: readonly Raster[];
  encoding: Encoding;
  clear: { classes: Raster; lookup: Uint8Array; at: Int32Array } | null;
}

/**
 * Per tile pixel and band, the median physical value over the scenes that hold the pixel with
 * data and clear; NaN where none does. One scene gives its own values (clouds and all when it is
 * given no clear test).
 */
export function medianStack(scenes: readonly StackedScene[], pixels: number, bands: number): Float32Array[] {
  const out = Array.from({ length: bands }, () => new Float32Array(pixels).fill(Number.NaN));
  const values = new Float64Array(scenes.length);
  for (let b = 0; b < bands; b++) {
    const band = out[b];
    for (let k = 0; k < pixels; k++) {
      let n = 0;
      for (const s of scenes) {
        const at = s.at[k];
        if (at < 0) continue;
        if (s.clear !== null) {
          const c = s.clear.at[k];
          if (c < 0 || s.clear.lookup[s.clear.classes[c]] !== 1) continue;
        }
        const dn = s.bands[b][at];
        if (dn === s.encoding.nodata || Number.isNaN(dn)) continue;
        // Insertion keeps the few values sorted as they come.
        const v = dn * s.encoding.scale + s.encoding.offset;
        let i = n++;
        while (i > 0 && values[i - 1] > v) {
          values[i] = values[i - 1];
          i--;
        }
        values[i] = v;
      }
      if (n > 0) band[k] = n % 2 === 1 ? values[(n - 1) >> 1] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
  }
  return out;
}

/** Red, green and blue reflectance as 8-bit colour on a square-root curve up to `white`; transparent where any band is missing. */
export function trueColourRgba(red: Float32Array, green: Float32Array, blue: Float32Array, white: number): Uint8Array {
  const out = new Uint8Array(red.length * 4);
  for (let k = 0; k < red.length; k++) {
    const r = red[k], g = green[k], b = blue[k];
    if (Number.isNaN(r) || Number.isNaN(g) || Number.isNaN(b)) continue;
    out[k * 4] = Math.round(255 * Math.sqrt(Math.min(1, Math.max(0, r / white))));
    out[k * 4 + 1] = Math.round(255 * Math.sqrt(Math.min(1, Math.max(0, g / white))));
    out[k * 4 + 2] = Math.round(255 * Math.sqrt(Math.min(1, Math.max(0, b / white))));
    out[k * 4 + 3] = 255;
  }
  return out;
}

/** NDVI from red and near-infrared reflectance; NaN where either is missing or their sum is not positive. */
export function ndviOf(red: Float32Array, nir: Float32Array): Float32Array {
  const out = new Float32Array(red.length);
  for (let k = 0; k < red.length; k++) {
    const sum = nir[k] + red[k];
    out[k] = sum > 0 ? (nir[k] - red[k]) / sum : Number.NaN;
  }
  return out;
}

/** A value coloured along stops (ascending `at`), interpolated between them and held past the ends; transparent where NaN. */
export function rampRgba(values: Float32Array, stops: ReadonlyArray<{ at: number; rgba: readonly number[] }>): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const last = stops.length - 1;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (Number.isNaN(v)) continue;
    let i = 0;
    while (i < last && v > stops[i + 1].at) i++;
    const a = stops[i], b = stops[Math.min(i + 1, last)];
    const t = b.at > a.at ? Math.min(1, Math.max(0, (v - a.at) / (b.at - a.at))) : 0;
    for (let c = 0; c < 4; c++) out[k * 4 + c] = Math.round(a.rgba[c] + (b.rgba[c] - a.rgba[c]) * t);
  }
  return out;
}

/** Each tile pixel's class colour from its source value: the first class whose [from, to] holds it; transparent when none does or no source pixel lies under it. */
export function classRgba(values: Raster, at: Int32Array, classes: ReadonlyArray<{ from: number; to: number; rgba: readonly number[] }>, out: Uint8Array): void {
  for (let k = 0; k < at.length; k++) {
    const i = at[k];
    if (i < 0) continue;
    const v = values[i];
    for (const c of classes) {
      if (v < c.from || v > c.to) continue;
      out[k * 4] = c.rgba[0];
      out[k * 4 + 1] = c.rgba[1];
      out[k * 4 + 2] = c.rgba[2];
      out[k * 4 + 3] = c.rgba[3];
      break;
    }
  }
}

/**
 * Cells (an alert's 10 m pixel) drawn over the tile pixels they cover, each in its class colour:
 * cell p spans columns [x0[p], x1[p]) and rows [y0[p], y1[p]), at least one pixel; where cells
 * overlap the higher value wins.
 */
export function cellRgba(
  cells: { x0: Int32Array; y0: Int32Array; x1: Int32Array; y1: Int32Array; values: Uint8Array },
  size: number, classes: ReadonlyArray<{ from: number; to: number; rgba: readonly number[] }>,
): Uint8Array {
  const out = new Uint8Array(size * size * 4);
  const best = new Int16Array(size * size).fill(-1);
  for (let p = 0; p < cells.values.length; p++) {
    const v = cells.values[p];
    const cls = classes.find((x) => v >= x.from && v <= x.to);
    if (cls === undefined) continue;
    const xa = Math.max(0, cells.x0[p]), xb = Math.min(size, Math.max(cells.x1[p], cells.x0[p] + 1));
    const ya = Math.max(0, cells.y0[p]), yb = Math.min(size, Math.max(cells.y1[p], cells.y0[p] + 1));
    for (let r = ya; r < yb; r++) {
      for (let c = xa; c < xb; c++) {
        const k = r * size + c;
        if (v <= best[k]) continue;
        best[k] = v;
        for (let ch = 0; ch < 4; ch++) out[k * 4 + ch] = cls.rgba[ch];
      }
    }
  }
  return out;
}
