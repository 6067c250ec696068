/**
 * Sub-plot blocks, so that no part of a plot is averaged away: a plot-wide median or mean follows
 * the majority cover, and a forest edge under half the plot disappears in it. Blocks are cells of a
 * square lattice on the ground, in a local metric frame anchored at the footprint's bounding-box
 * corner, so every instrument's grid (10 m optical, 30 m Landsat, 25 m radar) gives its pixels the
 * same block for the same ground. A pixel belongs to the block its centre falls in.
 *
 * A second lattice shifted by half a cell catches what straddles the first one's cell edges: a
 * thin strip of forest along the plot's edge fills at least half of some cell of one of the two.
 */
import { largestPatch, type Patch } from './largest-patch.ts';
import type { PixelMask } from './rasterise-mask.ts';

/**
 * Pixel centre to local metres, east and north of the lattice origin, as an affine map of the
 * window's pixel position (c + 0.5, r + 0.5): x = ax + bx·c' + cx·r', y = ay + by·c' + cy·r'. Over a
 * plot's window a projected or geographic grid is affine in the local frame to well under a metre.
 */
export type LocalAffine = readonly [ax: number, bx: number, cx: number, ay: number, by: number, cy: number];

export interface Lattice {
  /** Side of a cell, in metres. */
  readonly cellM: number;
  /** The lattice's origin lies this far west and south of the frame's origin (0 or half a cell). */
  readonly shiftM: number;
  readonly cols: number;
  readonly rows: number;
}

/** The lattice of `cellM` cells over a footprint extent of `widthM` × `heightM` metres from the frame's origin. */
export function latticeOver(widthM: number, heightM: number, cellM: number, shiftM: number): Lattice {
  if (!(cellM > 0) || !(shiftM >= 0 && shiftM < cellM)) throw new RangeError(`lattice needs cell > 0 and 0 ≤ shift < cell, got ${cellM}, ${shiftM}`);
  return { cellM, shiftM, cols: Math.floor((Math.max(0, widthM) + shiftM) / cellM) + 1, rows: Math.floor((Math.max(0, heightM) + shiftM) / cellM) + 1 };
}

/** The two lattices every instrument is read on: one at the origin, one shifted by half a cell. */
export function latticePair(widthM: number, heightM: number, cellM: number): readonly [Lattice, Lattice] {
  return [latticeOver(widthM, heightM, cellM, 0), latticeOver(widthM, heightM, cellM, cellM / 2)];
}

export const blockCount = (l: Lattice): number => l.cols * l.rows;

/**
 * Each mask pixel's block (row × cols + col) on the lattice, −1 elsewhere; width × height,
 * row-major. A centre a little outside the lattice (the footprint's edge pixels) joins the edge block.
 */
export function blockIndex(mask: PixelMask, toLocal: LocalAffine, lattice: Lattice): Int32Array {
  const [ax, bx, cx, ay, by, cy] = toLocal;
  const { cellM, shiftM, cols, rows } = lattice;
  const out = new Int32Array(mask.width * mask.height).fill(-1);
  const spans = mask.spans;
  const width = mask.width;
  for (let s = 0; s < spans.length; s += 2) {
    const row0 = Math.floor(spans[s] / width);
    const r = row0 + 0.5;
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      const c = i - row0 * width + 0.5;
      const col = Math.min(cols - 1, Math.max(0, Math.floor((ax + bx * c + cx * r + shiftM) / cellM)));
      const row = Math.min(rows - 1, Math.max(0, Math.floor((ay + by * c + cy * r + shiftM) / cellM)));
      out[i] = row * cols + col;
    }
  }
  return out;
}

/**
 * One lattice's blocks with an instrument's answer per block: read at all, read forest-like, and
 * read unlike the plot's majority (unlikeMajority()) where the instrument tests it.
 */
export interface BlockAnswers {
  readonly blocks: Int32Array;
  readonly read: Uint8Array;
  readonly forest: Uint8Array;
  readonly unlike?: Uint8Array;
}

/** What the blocks of an instrument say over the plot. */
export interface BlockSummary {
  /** Blocks of both lattices holding plot pixels. */
  blocks: number;
  /** Those with enough pixels for the instrument to answer. */
  blocks_read: number;
  /** Those read forest-like. */
  forest_like_blocks: number;
  /** Plot pixels, and those lying in a forest-like block of either lattice. */
  pixels: number;
  forest_like_pixels: number;
  /** Ground area of the forest-like pixels, in hectares. */
  forest_like_ha: number;
  /** Share of the plot's pixels that are forest-like; null without plot pixels. */
  forest_like_share: number | null;
  /** Mean position of the forest-like pixels less the plot's, in metres east and north; null without any. */
  forest_like_offset_m: [number, number] | null;
  /** The largest contiguous patch of pixels in a block of either lattice that reads unlike the plot's majority; null without any. */
  unlike: Patch | null;
}

/** Folds the lattices' block answers into the plot's pixels: a pixel is forest-like when any lattice's block holding it is. */
export function summariseBlocks(mask: PixelMask, toLocal: LocalAffine, lattices: readonly BlockAnswers[]): BlockSummary {
  const [ax, bx, cx, ay, by, cy] = toLocal;
  const spans = mask.spans;
  const width = mask.width;
  // Each lattice in turn marks its blocks seen and its forest-like pixels; then one pass places them.
  const forestAt = new Uint8Array(width * mask.height);
  const unlikeAt = new Uint8Array(width * mask.height);
  let blocks = 0;
  let blocksRead = 0;
  let forestBlocks = 0;
  for (const { blocks: ids, read, forest: isForest, unlike } of lattices) {
    const seen = new Uint8Array(read.length);
    const differs = unlike ?? new Uint8Array(read.length);
    for (let s = 0; s < spans.length; s += 2) {
      for (let i = spans[s]; i < spans[s + 1]; i++) {
        const b = ids[i];
        seen[b] = 1;
        forestAt[i] |= read[b] & isForest[b];
        unlikeAt[i] |= read[b] & differs[b];
      }
    }
    for (let b = 0; b < seen.length; b++) {
      blocks += seen[b];
      blocksRead += seen[b] & read[b];
      forestBlocks += seen[b] & read[b] & isForest[b];
    }
  }
  let sx = 0;
  let sy = 0;
  let fx = 0;
  let fy = 0;
  let forest = 0;
  for (let s = 0; s < spans.length; s += 2) {
    const row0 = Math.floor(spans[s] / width);
    const r = row0 + 0.5;
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      const c = i - row0 * width + 0.5;
      const x = ax + bx * c + cx * r;
      const y = ay + by * c + cy * r;
      const f = forestAt[i];
      sx += x;
      sy += y;
      fx += f * x;
      fy += f * y;
      forest += f;
    }
  }
  const pixels = mask.count;
  const pixelM2 = Math.abs(bx * cy - cx * by);
  return {
    blocks,
    blocks_read: blocksRead,
    forest_like_blocks: forestBlocks,
    pixels,
    forest_like_pixels: forest,
    forest_like_ha: (forest * pixelM2) / 10_000,
    forest_like_share: pixels > 0 ? forest / pixels : null,
    forest_like_offset_m: forest > 0 ? [fx / forest - sx / pixels, fy / forest - sy / pixels] : null,
    unlike: pixels > 0 ? largestPatch(mask, unlikeAt, toLocal, [sx / pixels, sy / pixels]) : null,
  };
}

export interface ForestPartLines {
  /** Forest-like blocks over more than this many hectares make the plot forest-like… */
  readonly minHa: number;
  /** …or over more than this share of it, whichever is smaller. */
  readonly minShare: number;
}

/** Whether a part of `ha` hectares, `share` of the plot, is large enough to speak for the plot. */
const partCounts = (ha: number, share: number, lines: ForestPartLines): boolean => share > 0 && ha > Math.min(lines.minHa, (lines.minShare * ha) / share);

/** Whether the forest-like blocks cover enough of the plot to make the whole plot read forest-like. */
export function forestPart(summary: BlockSummary, lines: ForestPartLines): boolean {
  if (summary.forest_like_share === null || summary.forest_like_pixels === 0) return false;
  return partCounts(summary.forest_like_ha, summary.forest_like_share, lines);
}

/** The patch of blocks unlike the plot's majority, when it is large enough to count as a part of the plot (the forest part's size). */
export function unevenPart(summary: BlockSummary | null, lines: ForestPartLines): Patch | null {
  const u = summary?.unlike ?? null;
  return u !== null && partCounts(u.ha, u.share, lines) ? u : null;
}

/**
 * The instrument's plot answer with its blocks': a forest part large enough answers forest-like,
 * confidently, and `located` when the plot-wide reading alone did not.
 */
export function withForestPart<T extends { forest_like: boolean | null; confident: boolean; refusal: string | null }>(
  answer: T,
  summary: BlockSummary,
  lines: ForestPartLines,
): T & { blocks: BlockSummary; located: boolean } {
  if (!forestPart(summary, lines)) return { ...answer, blocks: summary, located: false };
  return { ...answer, forest_like: true, confident: true, refusal: null, blocks: summary, located: answer.forest_like !== true };
}
