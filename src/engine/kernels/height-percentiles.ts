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
  /** Histogram bin width in metres; 1 for maps in whole metres, whose values then come back exact. */
  readonly binM: number;
  /** Heights above this are counted in the top bin. */
  readonly maxM: number;
}

export interface HeightLines {
  /** Median at or below which the canopy reads as a crop, confidently. */
  readonly cropLineM: number;
  /** Median at or above which the canopy reads as forest, confidently. Between the lines: crop, without confidence. */
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
  refusal: string | null;
}

export function heightPercentiles(input: HeightInput, lines: HeightLines): HeightPercentiles {
  const { mask, heights, encoding, binM, maxM } = input;
  const scale = encoding.scale;
  const offset = encoding.offset;
  const nodata = encoding.nodata ?? NaN;
  const bins = Math.ceil(maxM / binM) + 1;
  const top = bins - 1;
  // Bin b holds heights within half a bin of b × binM, so whole-metre maps land on bin centres.
  const lo = -binM / 2;
  const toBin = scale / binM;
  const shift = (offset - lo) / binM;
  const counts = new Uint32Array(bins);
  let pixels = 0;
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    const end = spans[s + 1];
    for (let i = spans[s]; i < end; i++) {
      const v = heights[i];
      if (v === nodata || v !== v) continue;
      let bin = Math.floor(v * toBin + shift);
      bin = bin < 0 ? 0 : bin > top ? top : bin;
      counts[bin]++;
      pixels++;
    }
  }
  const median = pixels > 0 ? histogramQuantile(counts, pixels, 0.5, lo, binM) : null;
  const readings = {
    median_m: median,
    p10_m: pixels > 0 ? histogramQuantile(counts, pixels, 0.1, lo, binM) : null,
    p90_m: pixels > 0 ? histogramQuantile(counts, pixels, 0.9, lo, binM) : null,
    pixels,
  };
  if (median === null || pixels < lines.minPixels) {
    const refusal = median === null ? 'No canopy-height pixel inside the plot.' : 'Too few canopy-height pixels inside the plot.';
    return { ...readings, forest_like: null, confident: false, refusal };
  }
  return {
    ...readings,
    forest_like: median >= lines.forestLineM,
    confident: median <= lines.cropLineM || median >= lines.forestLineM,
    refusal: null,
  };
}
