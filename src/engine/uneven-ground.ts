/**
 * The parts of a plot that read unlike the rest (spec 2.10, `ground_not_shown_uniform`, a code this
 * service adds): on each instrument that answered, the largest contiguous patch of blocks whose
 * reading lies away from the plot's majority, when it is as large as a part that makes a plot
 * forest-like. The plot-wide readings follow the majority cover, so they cannot vouch for such a
 * patch, whichever way they read.
 */
import { type ForestPartLines, unevenPart } from './kernels/block-index.ts';
import type { Patch } from './kernels/largest-patch.ts';
import type { PlotTaskResult } from './worker/tasks.ts';

export interface UnevenPart {
  /** The instrument that saw it, in the words of the finding. */
  instrument: string;
  patch: Patch;
}

/** Each instrument's patch unlike the rest of the plot that is large enough to count, in a fixed order. */
export function unevenGround(result: PlotTaskResult, lines: ForestPartLines): UnevenPart[] {
  const { troughs, structure, radar, height } = result;
  const answered = (a: { forest_like: boolean | null } | null): boolean => a !== null && a.forest_like !== null;
  const seen = [
    ['the dry-season dip', troughs.seasons_with_dip > 0 ? troughs.dip_blocks : null],
    ['shade at the trough', answered(structure) ? structure.blocks : null],
    // Radar's blocks are read wherever the plot was held against a forest ring, also where the plot's
    // return overlaps a forest type's and radar gives no answer: a patch unlike the rest still shows.
    ['radar', radar?.blocks ?? null],
    ['canopy height', height !== null && (height.forest_like !== null || height.between_lines) ? height.blocks : null],
  ] as const;
  const out: UnevenPart[] = [];
  for (const [instrument, blocks] of seen) {
    const patch = unevenPart(blocks, lines);
    if (patch !== null) out.push({ instrument, patch });
  }
  return out;
}
