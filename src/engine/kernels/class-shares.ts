/**
 * Shares of named classes over a mask, for the context blocks (forest-type maps, the Landsat
 * moist-forest record). Pixels with no class are dropped, not counted as some other cover; a
 * class value that no name lists still counts in the total, so the named shares need not add to 1.
 */
import type { PixelMask } from './rasterise-mask.ts';

export interface ClassSharesInput {
  readonly mask: PixelMask;
  readonly classes: Uint8Array | Uint16Array;
  /** Name → the class values it gathers (e.g. plantation: [81, 82, 83, 84, 85, 86]). */
  readonly names: Readonly<Record<string, readonly number[]>>;
  /** Values meaning "no class" (no data, outside the product). */
  readonly noClass: readonly number[];
}

export interface ClassShares {
  /** Pixels inside the mask. */
  pixels: number;
  /** Pixels inside the mask that carry a class. */
  classified: number;
  /** Pixels per name. */
  counts: Record<string, number>;
  /** Share of the classified pixels per name; null when none is classified. */
  shares: Record<string, number | null>;
}

export function classShares(input: ClassSharesInput): ClassShares {
  const { mask, classes, names, noClass } = input;
  const keys = Object.keys(names);
  // Slot 0: no class; 1..keys.length: the names; the last slot: classified but unnamed.
  const unnamed = keys.length + 1;
  const slotOf = new Uint8Array(classes instanceof Uint8Array ? 256 : 65536).fill(unnamed);
  for (const v of noClass) slotOf[v] = 0;
  keys.forEach((key, k) => {
    for (const v of names[key]) slotOf[v] = k + 1;
  });
  const counts = new Float64Array(unnamed + 1);
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    const end = spans[s + 1];
    for (let i = spans[s]; i < end; i++) counts[slotOf[classes[i]]]++;
  }
  const classified = mask.count - counts[0];
  const byName: Record<string, number> = {};
  const shares: Record<string, number | null> = {};
  keys.forEach((key, k) => {
    byName[key] = counts[k + 1];
    shares[key] = classified > 0 ? counts[k + 1] / classified : null;
  });
  return { pixels: mask.count, classified, counts: byName, shares };
}
