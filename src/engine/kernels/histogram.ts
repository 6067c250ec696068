/**
 * Quantiles read from a histogram instead of a sort: the kernels count values into fixed bins in
 * their one pass over the pixels, so a percentile costs one walk over the bins, whatever the
 * number of pixels.
 */

/**
 * The value at quantile `q` (0..1) of the `total` values counted in `counts`, every value taken
 * at its bin's centre (`lo + (bin + 0.5) × width`). With `interpolate` the rule is numpy's
 * default (linear between the two order statistics around q × (total − 1)); without it the lower
 * order statistic, so the answer is always a value that was counted. `total` must be > 0.
 */
export function histogramQuantile(
  counts: Uint32Array,
  total: number,
  q: number,
  lo: number,
  width: number,
  interpolate = true,
): number {
  const position = q * (total - 1);
  const k0 = Math.floor(position);
  const frac = interpolate ? position - k0 : 0;
  let seen = 0;
  let bin = 0;
  const n = counts.length;
  while (bin < n && seen + counts[bin] <= k0) seen += counts[bin++];
  const v0 = lo + (bin + 0.5) * width;
  if (frac === 0) return v0;
  // The next order statistic lies in this bin or the next bin holding a count.
  if (seen + counts[bin] > k0 + 1) return v0;
  let next = bin + 1;
  while (next < n && counts[next] === 0) next++;
  return v0 + frac * (next - bin) * width;
}
