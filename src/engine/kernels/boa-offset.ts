/**
 * Whether a reflectance offset is still in a band's digital numbers (Sentinel-2's BOA_ADD_OFFSET).
 * With the offset in, a DN below it means negative reflectance, which only a few dark pixels get;
 * without it, a visible band over vegetation or water sits mostly below it. One pass counts the
 * no-data pixels and the pixels below the offset without a branch; the no-data value, when below
 * the offset, is taken back out of the second count.
 */
import type { Raster } from './raster.ts';

export type BoaOffsetInference = 'offset_in_pixels' | 'offset_removed' | 'undecided';

export interface BoaOffsetInput {
  readonly dn: Raster;
  readonly nodata: number;
  /** The offset in DN (positive: 1000 for Sentinel-2's −1000 DN BOA offset). */
  readonly offsetDn: number;
  /** Fewest valid pixels the check needs to decide at all. */
  readonly minPixels: number;
  /** A share of valid pixels below the offset under this: the offset is in the pixels. */
  readonly inPixelsUnder: number;
  /** A share from this on: the offset was removed. Between the two the check stays undecided. */
  readonly removedFrom: number;
}

export function boaOffset(input: BoaOffsetInput): BoaOffsetInference {
  const { dn, nodata, offsetDn } = input;
  let missing = 0;
  let below = 0;
  for (let i = 0; i < dn.length; i++) {
    const v = dn[i];
    missing += +(v === nodata);
    below += +(v < offsetDn);
  }
  const valid = dn.length - missing;
  if (nodata < offsetDn) below -= missing;
  if (valid < input.minPixels) return 'undecided';
  const share = below / valid;
  if (share < input.inPixelsUnder) return 'offset_in_pixels';
  if (share >= input.removedFrom) return 'offset_removed';
  return 'undecided';
}
