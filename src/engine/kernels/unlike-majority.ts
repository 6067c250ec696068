/**
 * Blocks that read unlike the plot's majority on one instrument. A plot-wide median, or a line a
 * block must clear, follows the majority cover: a part of the plot that differs from the rest
 * without crossing a forest line (a dry forest of a plantation's height, a secondary forest of its
 * backscatter) is found only by comparing each block with the rest.
 */

/**
 * 1 where a read block's value lies further than `tolerance` from the median of the read blocks'
 * values (the value most of the plot's blocks lie around), 0 elsewhere.
 */
export function unlikeMajority(read: Uint8Array, values: Float64Array, tolerance: number): Uint8Array {
  const out = new Uint8Array(read.length);
  const majority = medianOfRead(read, values);
  if (majority !== majority) return out;
  for (let b = 0; b < read.length; b++) out[b] = read[b] & +(Math.abs(values[b] - majority) > tolerance);
  return out;
}

/** The median of the values of read blocks whose value is a number; NaN when there is none. */
function medianOfRead(read: Uint8Array, values: Float64Array): number {
  const kept = new Float64Array(read.length);
  let m = 0;
  for (let b = 0; b < read.length; b++) {
    const v = values[b];
    if (read[b] === 1 && v === v) kept[m++] = v;
  }
  if (m === 0) return NaN;
  const v = kept.subarray(0, m).sort();
  return m % 2 === 1 ? v[(m - 1) / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}
