/**
 * Canopy height inside the plot (a canopy-height map such as ETH's 2020 10 m map): median, 10th
 * and 90th percentiles from a histogram, and whether the median stands as tall as forest.
 */
import { histogramQuantile } from './histogram.ts';
import type { PixelMask } from './rasterise-mask.ts';
import type { Encoding, Raster } from './raster.ts';

export interface HeightInput {
  readonly mask: PixelMask;
  readonly heights: Raster;
  readonly encoding: Encoding;
  /** Float maps only: histogram bin width in metres (default 0.1). */
  readonly binM?: number;
  /** Float maps only: heights above this are counted in the top bin (default 100). */
  readonly maxM?: number;
}

export interface HeightLines {
  /** Median at or below which the canopy reads as a crop, confidently. */
  readonly cropLineM: number;
  /** Median at or above which the canopy reads as forest, confidently. Between the lines: no answer. */
  readonly forestLineM: number;
  readonly minPixels: number;
}

export interface HeightPercentiles {
  median_m: number | null;
  p10_m: number | null;
  p90_m: number | null;
  /** Plot pixels with a height. */
  pixels: number;
  forest_like: boolean | null;
  confident: boolean;
  /** The median stands between the crop and forest lines, where plantations and secondary, dry deciduous, degraded or swamp forest overlap: read, but no answer. */
  between_lines: boolean;
  refusal: string | null;
}

interface Counted {
  counts: Uint32Array;
  pixels: number;
  /** Histogram bin b holds value lo + (b + 0.5) × width, in metres. */
  lo: number;
  width: number;
}

/**
 * 8- and 16-bit maps: a histogram of the raw values themselves, one increment per pixel and no
 * arithmetic; heights follow from the encoding afterwards, so the percentiles are exact.
 */
function countRaw(mask: PixelMask, heights: Uint8Array | Uint16Array, encoding: Encoding): Counted {
  const counts = new Uint32Array(heights instanceof Uint8Array ? 256 : 65536);
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    const end = spans[s + 1];
    for (let i = spans[s]; i < end; i++) counts[heights[i]]++;
  }
  let pixels = mask.count;
  const nodata = encoding.nodata;
  if (nodata !== null && Number.isInteger(nodata) && nodata >= 0 && nodata < counts.length) {
    pixels -= counts[nodata];
    counts[nodata] = 0;
  }
  return { counts, pixels, lo: encoding.offset - encoding.scale / 2, width: encoding.scale };
}

/** Other maps: physical heights counted in bins of `binM`, values that are not read sent to a discard region. */
function countBinned(mask: PixelMask, heights: Raster, encoding: Encoding, binM: number, maxM: number): Counted {
  const scale = encoding.scale;
  const nodata = encoding.nodata ?? NaN;
  const bins = Math.ceil(maxM / binM) + 1;
  const top = bins - 1;
  // Bin b holds heights within half a bin of b × binM.
  const lo = -binM / 2;
  const toBin = scale / binM;
  const shift = (encoding.offset - lo) / binM;
  const discard = 2 ** Math.ceil(Math.log2(bins));
  const counts = new Uint32Array(2 * discard);
  // Bins of one run are written first and counted after, which keeps V8's loop branch-free and fast.
  const binned = new Uint32Array(mask.width);
  let pixels = 0;
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    const start = spans[s];
    const end = spans[s + 1];
    for (let i = start; i < end; i++) {
      const v = heights[i];
      // NaN fails both tests; `| 0` turns it into bin 0 before it is discarded.
      const ok = +(v !== nodata) & +(v === v);
      binned[i - start] = Math.max(0, Math.min(top, (v * toBin + shift) | 0)) + ((ok - 1) & discard);
      pixels += ok;
    }
    for (let j = 0, len = end - start; j < len; j++) counts[binned[j]]++;
  }
  return { counts, pixels, lo, width: binM };
}

export function heightPercentiles(input: HeightInput, lines: HeightLines): HeightPercentiles {
  const { mask, heights, encoding } = input;
  if (!(encoding.scale > 0)) throw new RangeError(`height scale must be positive, got ${encoding.scale}`);
  const { counts, pixels, lo, width } =
    heights instanceof Uint8Array || heights instanceof Uint16Array
      ? countRaw(mask, heights, encoding)
      : countBinned(mask, heights, encoding, input.binM ?? 0.1, input.maxM ?? 100);
  const quantile = (q: number) => histogramQuantile(counts, pixels, q, lo, width);
  const median = pixels > 0 ? quantile(0.5) : null;
  const readings = {
    median_m: median,
    p10_m: pixels > 0 ? quantile(0.1) : null,
    p90_m: pixels > 0 ? quantile(0.9) : null,
    pixels,
  };
  if (median === null || pixels < lines.minPixels) {
    const refusal = median === null ? 'No canopy-height pixel inside the plot.' : 'Too few canopy-height pixels inside the plot.';
    return { ...readings, forest_like: null, confident: false, between_lines: false, refusal };
  }
  if (median > lines.cropLineM && median < lines.forestLineM) {
    const refusal = 'The canopy stands where plantations and secondary, dry deciduous, degraded or swamp forest overlap in height, so its height cannot tell a crop from forest and gives no answer.';
    return { ...readings, forest_like: null, confident: false, between_lines: true, refusal };
  }
  return { ...readings, forest_like: median >= lines.forestLineM, confident: true, between_lines: false, refusal: null };
}
