/**
 * Coverage: the share of a plot's pixels on a grid that a read actually had data for. Pixels
 * outside the window (beyond the archive's files) and fill or nodata pixels are not read; a
 * reading resting on less than COVERAGE_NEEDED of the plot answers nothing.
 */
import type { Raster } from './raster.ts';
import type { PixelMask } from './rasterise-mask.ts';

/** The share of the plot an instrument, a map or the optical record must have read to count. */
export const COVERAGE_NEEDED = 0.95;

/** Pixels of the mask that hold data (not `nodata`, not NaN) in at least one of `layers`, all on the mask's grid. */
export function pixelsWithData(mask: PixelMask, layers: readonly Raster[], nodata: number | null): number {
  const { spans } = mask;
  let n = 0;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      for (const values of layers) {
        const v = values[i];
        if (v !== nodata && v === v) {
          n++;
          break;
        }
      }
    }
  }
  return n;
}

/** Pixels read over the plot's pixels on the same grid, to 4 decimals; a plot with no pixel on the grid was not read. */
export function coverageShare(read: number, plotPixels: number): number {
  if (plotPixels <= 0) return 0;
  return Math.round((Math.min(read, plotPixels) / plotPixels) * 10_000) / 10_000;
}

/** Whether a share covers enough of the plot to answer. */
export function covers(share: number | null): boolean {
  return share !== null && share >= COVERAGE_NEEDED;
}

/** A read that had data for some of the plot, short of enough to answer; not read at all (null, or unmeasured) is not this. */
export function coversPart(share: number | null | undefined): boolean {
  return share !== undefined && share !== null && !covers(share);
}
