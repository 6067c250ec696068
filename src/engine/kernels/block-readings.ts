/**
 * Each structural instrument's answer per sub-plot block (block-index.ts): the same reading as the
 * instrument's plot-wide one, taken over the block's pixels, and judged forest-like only when it
 * clears the instrument's line by its margin, so speckle and texture do not make forest of a crop.
 * Each block's reading is also held against the plot's majority (unlikeMajority()), by a tolerance
 * wider than a block's noise.
 */
import type { BlockAnswers } from './block-index.ts';
import { unlikeMajority } from './unlike-majority.ts';
import type { PixelMask } from './rasterise-mask.ts';
import type { ClassTest, Encoding, Raster } from './raster.ts';
import type { SceneBlockSums } from './scene-blocks.ts';

/** The answers of the blocks from per-block counts, readings and a test of the block's reading. */
function answersOf(blocks: Int32Array, count: Uint32Array, minPixels: number, value: Float64Array, unlikeBy: number, forestLike: (b: number) => boolean): BlockAnswers {
  const read = new Uint8Array(count.length);
  const forest = new Uint8Array(count.length);
  for (let b = 0; b < count.length; b++) {
    if (count[b] < minPixels) continue;
    read[b] = 1;
    forest[b] = forestLike(b) ? 1 : 0;
  }
  return { blocks, read, forest, unlike: unlikeMajority(read, value, unlikeBy) };
}

export interface HeightBlockLines {
  readonly forestLineM: number;
  /** Pixels with a height a block needs to answer. */
  readonly minPixels: number;
  /** A block's mean height further than this from the plot's majority reads unlike it (m). */
  readonly unlikeM: number;
}

/**
 * Canopy height per block: forest-like when more than half the block's pixels stand at or above
 * the forest line, that is when the block's median does.
 */
export function heightBlocks(
  input: { readonly mask: PixelMask; readonly blocks: Int32Array; readonly count: number; readonly heights: Raster; readonly encoding: Encoding },
  lines: HeightBlockLines,
): BlockAnswers {
  const { mask, blocks, heights, encoding } = input;
  const read = new Uint32Array(input.count);
  const tall = new Uint32Array(input.count);
  const sum = new Float64Array(input.count);
  const nodata = encoding.nodata ?? NaN;
  const spans = mask.spans;
  for (let s = 0; s < spans.length; s += 2) {
    for (let i = spans[s]; i < spans[s + 1]; i++) {
      const v = heights[i];
      const ok = +(v !== nodata) & +(v === v);
      const b = blocks[i];
      const m = v * encoding.scale + encoding.offset;
      read[b] += ok;
      sum[b] += ok === 1 ? m : 0;
      tall[b] += ok & +(m >= lines.forestLineM);
    }
  }
  const mean = sum.map((v, b) => v / read[b]);
  return answersOf(blocks, read, lines.minPixels, mean, lines.unlikeM, (b) => tall[b] * 2 > read[b]);
}

export interface ShadeBlockLines {
  readonly shadeLine: number;
  readonly shadeMargin: number;
  readonly minPixels: number;
  /** A block's mean shade further than this from the plot's majority reads unlike it. */
  readonly unlike: number;
}

/**
 * Shade per block, pooled over the scenes of `sums` (the trough scenes the plot's shade was read
 * at): forest-like when the block's mean shade clears the line by the margin.
 */
export function shadeBlocks(blocks: Int32Array, sums: SceneBlockSums, lines: ShadeBlockLines): BlockAnswers {
  const nb = sums.blocks;
  const shade = new Float64Array(nb);
  const count = new Uint32Array(nb);
  for (let k = 0; k < sums.count.length; k++) {
    shade[k % nb] += sums.shade[k];
    count[k % nb] += sums.count[k];
  }
  const mean = shade.map((v, b) => v / count[b]);
  return answersOf(blocks, count, lines.minPixels, mean, lines.unlike, (b) => mean[b] >= lines.shadeLine + lines.shadeMargin);
}

export interface RadarBlockLines {
  readonly thresholdDb: number;
  readonly marginSigmas: number;
  /** Usable pixels, all years pooled, a block needs to answer. */
  readonly minPixels: number;
  /** A block's HV further than this from the plot's majority reads unlike it (dB). */
  readonly unlikeDb: number;
}

/**
 * Radar per block against the plot's own forest baseline: HV power averaged over the block's
 * usable pixels of every year (the years stacked row-wise, each `blocks.length` pixels), forest-like
 * when the block's contrast clears the threshold by the margin the plot-wide reading needs.
 */
export function radarBlocks(
  input: {
    readonly mask: PixelMask;
    readonly blocks: Int32Array;
    readonly count: number;
    readonly years: number;
    readonly hv: Uint16Array;
    readonly nodata: number | null;
    readonly calibrationDb: number;
    readonly usable: ClassTest;
    /** The plot's local forest baseline and its spread (radarContrast), in dB. */
    readonly baselineDb: number;
    readonly sigmaDb: number;
  },
  lines: RadarBlockLines,
): BlockAnswers {
  const { mask, blocks, hv, usable } = input;
  const size = blocks.length;
  const nodata = input.nodata ?? 0;
  const power = new Float64Array(input.count);
  const count = new Uint32Array(input.count);
  const spans = mask.spans;
  for (let k = 0; k < input.years; k++) {
    const at = k * size;
    for (let s = 0; s < spans.length; s += 2) {
      for (let i = spans[s]; i < spans[s + 1]; i++) {
        const v = hv[at + i];
        const ok = usable.lookup[usable.classes[at + i]] & +(v !== 0) & +(v !== nodata);
        power[blocks[i]] += ok * v * v;
        count[blocks[i]] += ok;
      }
    }
  }
  const line = input.baselineDb + lines.thresholdDb + lines.marginSigmas * input.sigmaDb;
  const db = power.map((v, b) => 10 * Math.log10(v / count[b]) - input.calibrationDb);
  return answersOf(blocks, count, lines.minPixels, db, lines.unlikeDb, (b) => db[b] >= line);
}
