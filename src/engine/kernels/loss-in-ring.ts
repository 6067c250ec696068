/**
 * Tree-cover loss in a ring around a plot, by area: of the ring's land, how much was lost in the
 * years asked for where the canopy was dense enough before. Pixels of a geographic grid shrink
 * toward the poles, so each row carries its own pixel area and a run (which never crosses a row)
 * is counted first and weighed once. Without a land mask every pixel is land and the land side
 * needs no per-pixel work; with one, a second inner loop tests it by lookup, never by a branch.
 */
import type { PixelMask } from './rasterise-mask.ts';

export interface LossInRingInput {
  readonly ring: PixelMask;
  /** Area of one pixel of each row of the window (m²), `ring.height` entries. */
  readonly rowAreaM2: Float64Array;
  /** The loss-year band (raw values). */
  readonly lossyear: Uint8Array;
  /** 256 entries: 1 for each raw loss-year value that counts as loss here. */
  readonly lossCounts: Uint8Array;
  /** Canopy cover before the loss (percent). */
  readonly treecover: Uint8Array;
  /** Loss counts only where the canopy was at least this (percent). */
  readonly minTreecoverPct: number;
  /** The land mask band and its land value; null when every pixel is land. */
  readonly land: { readonly classes: Uint8Array; readonly value: number } | null;
}

export interface LossInRing {
  land_pixels: number;
  loss_pixels: number;
  land_m2: number;
  loss_m2: number;
  /** Lost area over land area; null when the ring holds no land. */
  loss_share: number | null;
}

/** 256 entries, 1 where a value of a byte band passes `test`. */
function byteLookup(test: (v: number) => boolean): Uint8Array {
  const t = new Uint8Array(256);
  for (let v = 0; v < 256; v++) t[v] = test(v) ? 1 : 0;
  return t;
}

export function lossInRing(input: LossInRingInput): LossInRing {
  const { ring, rowAreaM2, lossyear, lossCounts, treecover, land } = input;
  const dense = byteLookup((v) => v >= input.minTreecoverPct);
  const { spans, width } = ring;
  let landPixels = 0;
  let lossPixels = 0;
  let landM2 = 0;
  let lossM2 = 0;
  if (land === null) {
    for (let s = 0; s < spans.length; s += 2) {
      const end = spans[s + 1];
      let lost = 0;
      for (let i = spans[s]; i < end; i++) lost += lossCounts[lossyear[i]] & dense[treecover[i]];
      const a = rowAreaM2[(spans[s] / width) | 0];
      landPixels += end - spans[s];
      lossPixels += lost;
      landM2 += a * (end - spans[s]);
      lossM2 += a * lost;
    }
  } else {
    const isLand = byteLookup((v) => v === land.value);
    const classes = land.classes;
    for (let s = 0; s < spans.length; s += 2) {
      const end = spans[s + 1];
      let ground = 0;
      let lost = 0;
      for (let i = spans[s]; i < end; i++) {
        const l = isLand[classes[i]];
        ground += l;
        lost += l & lossCounts[lossyear[i]] & dense[treecover[i]];
      }
      const a = rowAreaM2[(spans[s] / width) | 0];
      landPixels += ground;
      lossPixels += lost;
      landM2 += a * ground;
      lossM2 += a * lost;
    }
  }
  return { land_pixels: landPixels, loss_pixels: lossPixels, land_m2: landM2, loss_m2: lossM2, loss_share: landM2 > 0 ? lossM2 / landM2 : null };
}
