/**
 * The largest contiguous patch of flagged pixels of a plot: pixels touching by an edge or a corner
 * belong to one patch. Scattered blocks that read unlike the rest by chance stay small patches; a
 * forest edge drawn into a plantation is one.
 */
import type { LocalAffine } from './block-index.ts';
import type { PixelMask } from './rasterise-mask.ts';

export interface Patch {
  /** Ground area, in hectares, and share of the plot's pixels. */
  ha: number;
  share: number;
  /** Mean position of the patch's pixels less the plot's (`plotMeanM`), in metres east and north. */
  offset_m: [number, number];
}

/** The largest 8-connected patch of `flagged` pixels (1 only on mask pixels); null when none is flagged. */
export function largestPatch(mask: PixelMask, flagged: Uint8Array, toLocal: LocalAffine, plotMeanM: readonly [number, number]): Patch | null {
  const [ax, bx, cx, ay, by, cy] = toLocal;
  const { width, height } = mask;
  const seen = new Uint8Array(flagged.length);
  const stack = new Int32Array(mask.count);
  let best = 0;
  let bestX = 0;
  let bestY = 0;
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    for (let start = spans[s]; start < spans[s + 1]; start++) {
      if (flagged[start] === 0 || seen[start] === 1) continue;
      seen[start] = 1;
      let top = 0;
      stack[top++] = start;
      let n = 0;
      let sx = 0;
      let sy = 0;
      while (top > 0) {
        const i = stack[--top];
        const r = Math.floor(i / width);
        const c = i - r * width;
        n++;
        sx += ax + bx * (c + 0.5) + cx * (r + 0.5);
        sy += ay + by * (c + 0.5) + cy * (r + 0.5);
        for (let dr = -1; dr <= 1; dr++) {
          const rr = r + dr;
          if (rr < 0 || rr >= height) continue;
          for (let dc = -1; dc <= 1; dc++) {
            const cc = c + dc;
            if (cc < 0 || cc >= width) continue;
            const j = rr * width + cc;
            if (flagged[j] === 1 && seen[j] === 0) {
              seen[j] = 1;
              stack[top++] = j;
            }
          }
        }
      }
      if (n > best) {
        best = n;
        bestX = sx / n;
        bestY = sy / n;
      }
    }
  }
  if (best === 0) return null;
  const pixelM2 = Math.abs(bx * cy - cx * by);
  return { ha: (best * pixelM2) / 10_000, share: best / mask.count, offset_m: [bestX - plotMeanM[0], bestY - plotMeanM[1]] };
}
