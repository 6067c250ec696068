/**
 * One optical scene over one plot: how much of the plot was seen clear, the vegetation index
 * (NDVI) median over the clear pixels, the shade fraction, and the aerosol optical thickness.
 * Every array is on the grid of the red and near-infrared bands; coarser scene masks and AOT
 * (Sentinel-2's 20 m SCL and AOT) must be brought to it, nearest neighbour, before the call.
 */
import { histogramQuantile } from './histogram.ts';
import type { PixelMask } from './rasterise-mask.ts';
import type { ClassTest, Encoding } from './raster.ts';

/** Optical archives store reflectance and AOT as integer digital numbers. */
export type DigitalNumbers = Uint16Array | Int16Array;

/** Flag bit of a scene in a series: clear enough, over enough pixels, to read. */
export const SCENE_USABLE = 1;
/** Flag bit of a scene read through haze: a dip it shows is not counted (seasonal-troughs.ts). */
export const SCENE_HAZY = 2;

/** Lookup for a precomputed clear mask (0 = not clear, 1 = clear). */
export const CLEAR_MASK_LOOKUP = Uint8Array.of(0, 1);

/**
 * Reflectance (red, near-infrared) of the two endmembers other than shade. Shade is the third,
 * photometric endmember at zero reflectance, so the shade fraction of a pixel is what the green
 * vegetation and soil/non-photosynthetic fractions leave of 1 (Adams et al. 1995; Souza et al. 2005).
 */
export interface ShadeEndmembers {
  readonly vegetation: readonly [red: number, nir: number];
  readonly soil: readonly [red: number, nir: number];
}

export interface SceneStatsInput {
  readonly mask: PixelMask;
  readonly red: DigitalNumbers;
  readonly nir: DigitalNumbers;
  /** Shared by red and near-infrared (the BOA offset rules are settled before this point). */
  readonly reflectance: Encoding;
  /** Which pixels are clear: SCL classes, QA_PIXEL words, or a precomputed mask with CLEAR_MASK_LOOKUP. */
  readonly clear: ClassTest;
  readonly shade: ShadeEndmembers;
  /** Aerosol optical thickness (Sentinel-2 AOT); absent for Landsat. */
  readonly aot?: { readonly values: DigitalNumbers; readonly encoding: Encoding } | null;
  /** An aerosol quality band (Landsat 8/9 SR_QA_AEROSOL) through its lookups (qaAerosolLookups()); absent for Sentinel-2. */
  readonly aerosolQa?: { readonly values: ArrayLike<number>; readonly retrieved: Uint8Array; readonly hazy: Uint8Array } | null;
}

export interface SceneStats {
  /** Pixels inside the plot. */
  pixels: number;
  /** Plot pixels both clear and holding a reflectance pair. */
  clear_pixels: number;
  clear_fraction: number | null;
  ndvi_median: number | null;
  /** Mean shade fraction of the clear pixels, each clamped to 0..1. */
  shade_fraction: number | null;
  /** Mean AOT over plot pixels that carry one. */
  aot_mean: number | null;
  /** Share of the plot's pixels with an aerosol retrieval that the aerosol quality band calls hazy; null without such a band or pixel. */
  hazy_share: number | null;
}

// NDVI is counted in bins of 0.001 over -1..1: a median good to half a thousandth. Pixels that
// are not read go to a discard bin past the end, so the loop needs no branch to leave them out.
const NDVI_BINS = 2000;
const NDVI_BIN = 2 / NDVI_BINS;
const DISCARD = 2048;

/**
 * shade = 1 − fv − fs, and the two fractions are linear in (red, nir): the 2×2 inverse folded
 * into two coefficients, so a pixel's shade is 1 − kRed·red − kNir·nir, two multiply-adds.
 */
export function shadeCoefficients(shade: ShadeEndmembers): [kRed: number, kNir: number] {
  const [vr, vn] = shade.vegetation;
  const [sr, sn] = shade.soil;
  const det = vr * sn - sr * vn;
  if (det === 0) throw new RangeError('shade endmembers are collinear');
  return [(sn - vn) / det, (vr - sr) / det];
}

export function sceneStats(input: SceneStatsInput): SceneStats {
  const { mask, red, nir, reflectance, clear, shade, aot, aerosolQa } = input;
  const spans = mask.spans;
  const classes = clear.classes;
  const lookup = clear.lookup;
  const scale = reflectance.scale;
  const offset = reflectance.offset;
  const nodata = reflectance.nodata ?? NaN;
  const [kRed, kNir] = shadeCoefficients(shade);
  const counts = new Uint32Array(DISCARD + NDVI_BINS);
  // Bins of one run are written first and counted after: a histogram increment between the
  // band loads stalls V8's loop far more than a second, tight pass over a buffer in cache.
  const bins = new Uint16Array(mask.width);
  let clearPixels = 0;
  let withData = 0;
  let shadeSum = 0;
  for (let s = 0; s < spans.length; s += 2) {
    const start = spans[s];
    const end = spans[s + 1];
    for (let i = start; i < end; i++) {
      const r0 = red[i];
      const n0 = nir[i];
      const r = r0 * scale + offset;
      const n = n0 * scale + offset;
      const sum = n + r;
      // Selects and min/max rather than branches: V8 keeps this loop branch-free.
      const ok = lookup[classes[i]] & +(r0 !== nodata) & +(n0 !== nodata) & +(sum > 0);
      const bin = Math.max(0, Math.min(NDVI_BINS - 1, (((n - r) / sum + 1) / NDVI_BIN) | 0));
      bins[i - start] = bin + ((ok - 1) & DISCARD);
      shadeSum += ok * Math.max(0, Math.min(1, 1 - kRed * r - kNir * n));
      clearPixels += ok;
      withData += +(r0 !== nodata) & +(n0 !== nodata);
    }
    for (let j = 0, len = end - start; j < len; j++) counts[bins[j]]++;
  }
  let aotMean: number | null = null;
  if (aot) {
    const values = aot.values;
    const aotNodata = aot.encoding.nodata ?? NaN;
    let sum = 0;
    let n = 0;
    for (let s = 0; s < spans.length; s += 2) {
      const end = spans[s + 1];
      for (let i = spans[s]; i < end; i++) {
        const a = values[i];
        const ok = +(a !== aotNodata);
        sum += ok * a;
        n += ok;
      }
    }
    if (n > 0) aotMean = (sum / n) * aot.encoding.scale + aot.encoding.offset;
  }
  let hazyShare: number | null = null;
  if (aerosolQa) {
    const { values, retrieved, hazy } = aerosolQa;
    let n = 0;
    let h = 0;
    for (let s = 0; s < spans.length; s += 2) {
      const end = spans[s + 1];
      for (let i = spans[s]; i < end; i++) {
        n += retrieved[values[i]];
        h += hazy[values[i]];
      }
    }
    if (n > 0) hazyShare = h / n;
  }
  return {
    pixels: mask.count,
    clear_pixels: clearPixels,
    // Of the pixels the scene holds data for: a part of the plot without data is the coverage's to state, not a cloud.
    clear_fraction: withData > 0 ? clearPixels / withData : null,
    ndvi_median: clearPixels > 0 ? histogramQuantile(counts, clearPixels, 0.5, -1, NDVI_BIN) : null,
    shade_fraction: clearPixels > 0 ? shadeSum / clearPixels : null,
    aot_mean: aotMean,
    hazy_share: hazyShare,
  };
}

/**
 * Lookups of Landsat Collection 2 SR_QA_AEROSOL (8 bits): `retrieved` where the fill bit (0) is
 * clear, `hazy` where, besides, the aerosol level (bits 6–7: 0 climatology, 1 low, 2 medium, 3
 * high) is one of `hazyLevels`.
 */
export function qaAerosolLookups(hazyLevels: readonly number[]): { retrieved: Uint8Array; hazy: Uint8Array } {
  const retrieved = new Uint8Array(256);
  const hazy = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    retrieved[v] = (v & 1) === 0 ? 1 : 0;
    hazy[v] = retrieved[v] & +hazyLevels.includes(v >> 6);
  }
  return { retrieved, hazy };
}

/**
 * Share of a plot's pixels that a scene's mask (SCL classes or QA_PIXEL words, through `lookup`)
 * calls clear, on the mask's own grid and before cloud edges are buffered: an upper bound on the
 * clear fraction sceneStats finds, so a scene under the line here is under it there. Of the plot's
 * pixels the mask holds data for, as sceneStats counts; null when it holds none.
 */
export function clearShare(mask: PixelMask, classes: ArrayLike<number>, lookup: Uint8Array, nodata: number | null): number | null {
  let clear = 0;
  let withData = 0;
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      clear += lookup[classes[i]];
      withData += +(classes[i] !== nodata);
    }
  }
  return withData > 0 ? clear / withData : null;
}

/** Lookup for Sentinel-2 SCL: 1 for the listed classes (the clear ones, or those whose edges are buffered). */
export function sclClearLookup(clearClasses: readonly number[]): Uint8Array {
  const lookup = new Uint8Array(256);
  for (const c of clearClasses) lookup[c] = 1;
  return lookup;
}

/**
 * Lookup for Landsat Collection 2 QA_PIXEL (one entry per 16-bit word): clear when every bit of
 * `required` is set and no bit of `rejected` is.
 */
export function qaPixelClearLookup(required: readonly number[], rejected: readonly number[]): Uint8Array {
  let need = 0;
  let refuse = 0;
  for (const b of required) need |= 1 << b;
  for (const b of rejected) refuse |= 1 << b;
  const lookup = new Uint8Array(65536);
  for (let w = 0; w < 65536; w++) lookup[w] = (w & need) === need && (w & refuse) === 0 ? 1 : 0;
  return lookup;
}

/** Lookup for Landsat Collection 2 QA_PIXEL (one entry per 16-bit word): 1 when any bit of `bits` is set. */
export function qaPixelAnyBitLookup(bits: readonly number[]): Uint8Array {
  let any = 0;
  for (const b of bits) any |= 1 << b;
  const lookup = new Uint8Array(65536);
  for (let w = 0; w < 65536; w++) lookup[w] = (w & any) !== 0 ? 1 : 0;
  return lookup;
}

export interface SceneLines {
  readonly minClearFraction: number;
  readonly minPixels: number;
  /** Mean AOT over the plot above which the scene is too hazy for the series. */
  readonly maxAot: number;
  /** Mean AOT over the plot above which the scene is read through haze (SCENE_HAZY). */
  readonly hazeAot: number;
  /** Share of the plot the aerosol quality band calls hazy above which the scene is read through haze. */
  readonly maxHazyShare: number;
}

/**
 * The scene's flags in a series: usable when enough of the plot, over enough pixels, was clear,
 * through air clear enough; hazy when its aerosol thickness, or its aerosol quality band, says the
 * air over the plot was hazy. Every scene the engine reads carries one of the two.
 */
export function sceneFlags(stats: SceneStats, lines: SceneLines): number {
  const usable =
    stats.ndvi_median !== null &&
    stats.clear_fraction !== null &&
    stats.clear_fraction >= lines.minClearFraction &&
    stats.clear_pixels >= lines.minPixels &&
    !(stats.aot_mean !== null && stats.aot_mean > lines.maxAot);
  const hazy = (stats.aot_mean !== null && stats.aot_mean > lines.hazeAot) || (stats.hazy_share !== null && stats.hazy_share > lines.maxHazyShare);
  return (usable ? SCENE_USABLE : 0) | (usable && hazy ? SCENE_HAZY : 0);
}
