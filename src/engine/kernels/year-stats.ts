/**
 * Statistics of an event-year raster over a mask (first deforestation or degradation year, loss
 * year), split at the cutoff: how much of the mask ever had the event, before and after the
 * cutoff year, and the earliest, median and latest year on each side. Medians are years that
 * occurred (the lower middle value for an even count), read from a histogram of years.
 */
import { histogramQuantile } from './histogram.ts';
import type { PixelMask } from './rasterise-mask.ts';

export interface YearStatsInput {
  readonly mask: PixelMask;
  readonly years: Uint8Array | Uint16Array;
  /** Added to the raw value to get the year (0 for calendar years, 2000 for Hansen's 1..24). */
  readonly yearOffset: number;
  /** Raw value meaning "no event". */
  readonly none: number;
  /** Raw values meaning "no data"; dropped from the shares' denominator. */
  readonly noData: readonly number[];
  /** Last year on the "before" side (2020 for the EUDR cutoff). */
  readonly cutoffYear: number;
}

export interface YearRange {
  year_min: number | null;
  year_median: number | null;
  year_max: number | null;
}

export interface YearStats extends YearRange {
  pixels: number;
  /** Pixels with data. */
  valid: number;
  pixels_before: number;
  pixels_from: number;
  share_ever: number | null;
  share_before: number | null;
  share_from: number | null;
  before: YearRange;
  from: YearRange;
}

function rangeOf(counts: Uint32Array, first: number, last: number, yearOffset: number): YearRange {
  let n = 0;
  let lo = -1;
  let hi = -1;
  for (let v = first; v <= last; v++) {
    if (counts[v] === 0) continue;
    n += counts[v];
    if (lo < 0) lo = v;
    hi = v;
  }
  if (n === 0) return { year_min: null, year_median: null, year_max: null };
  return {
    year_min: lo + yearOffset,
    year_median: histogramQuantile(counts.subarray(lo, hi + 1), n, 0.5, lo - 0.5, 1, false) + yearOffset,
    year_max: hi + yearOffset,
  };
}

export function yearStats(input: YearStatsInput): YearStats {
  const { mask, years, yearOffset, none, noData, cutoffYear } = input;
  const counts = new Uint32Array(years instanceof Uint8Array ? 256 : 65536);
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    const end = spans[s + 1];
    for (let i = spans[s]; i < end; i++) counts[years[i]]++;
  }
  let missing = 0;
  for (const v of noData) {
    missing += counts[v];
    counts[v] = 0;
  }
  counts[none] = 0;
  const valid = mask.count - missing;
  // Only the span of values that occur is walked again.
  let lo = 0;
  let hi = counts.length - 1;
  while (lo <= hi && counts[lo] === 0) lo++;
  while (hi >= lo && counts[hi] === 0) hi--;
  const split = cutoffYear - yearOffset;
  let before = 0;
  let from = 0;
  for (let v = lo; v <= hi; v++) {
    if (v <= split) before += counts[v];
    else from += counts[v];
  }
  return {
    ...rangeOf(counts, lo, hi, yearOffset),
    pixels: mask.count,
    valid,
    pixels_before: before,
    pixels_from: from,
    share_ever: valid > 0 ? (before + from) / valid : null,
    share_before: valid > 0 ? before / valid : null,
    share_from: valid > 0 ? from / valid : null,
    before: rangeOf(counts, lo, Math.min(hi, split), yearOffset),
    from: rangeOf(counts, Math.max(lo, split + 1), hi, yearOffset),
  };
}
