/**
 * The dry-season dip per sub-plot block (block-index.ts), at the plot's own trough dates. The
 * plot's NDVI median follows its majority cover, so a forest part under half of it leaves the
 * plot's cycle intact; each block's mean NDVI per scene is tested for the dip at every trough the
 * plot showed. A block that was seen at the troughs and dipped at fewer than half of them has no
 * in-phase dip. A block that dips, but at another time or to another depth than most of the plot's
 * blocks (a deciduous forest beside a wintering crop), reads unlike the plot's majority.
 */
import { type BlockAnswers, type BlockSummary, forestPart, type ForestPartLines } from './block-index.ts';
import type { SceneBlockSums } from './scene-blocks.ts';
import { heldTrough, type SeasonalTroughs, type SeasonTrough, YEAR_DAYS } from './seasonal-troughs.ts';
import { unlikeMajority } from './unlike-majority.ts';

export interface BlockDipLines {
  /** Plateau-to-trough drop that counts as a dip (the plot's own). */
  readonly dipDepth: number;
  /** Clear pixels a block needs in a scene for its mean to count. */
  readonly minPixels: number;
  /** A block's own trough further than this many days from the majority's reads unlike it. */
  readonly unlikeDays: number;
  /** A block's own dip deeper or shallower than the majority's by more than this reads unlike it. */
  readonly unlikeDepth: number;
}

const PLATEAU_QUANTILE = 0.75;

/** Scenes of the record and the plot's seasons, as the blocks' dips are read against them. */
export interface DipRecord {
  readonly sums: SceneBlockSums;
  /** UTC day and usable flag (SCENE_USABLE) of every scene of the series, in its order. */
  readonly days: Int32Array | Float64Array;
  readonly usable: Uint8Array;
  readonly seasons: readonly SeasonTrough[];
}

/** One dipped season of the plot as each block saw it. */
export interface SeasonBlocks {
  /** The plot's own season. */
  readonly season: SeasonTrough;
  /** 1 where the block was seen at the plot's trough scene, with scenes enough around it for a plateau. */
  readonly seen: Uint8Array;
  /** The block's plateau (upper quartile of its usable scenes within half a year of the plot's trough) less its mean at the plot's trough scene. */
  readonly atTrough: Float64Array;
  /** The block's own dip: its plateau less its own trough (the lowest that holds in two neighbouring scenes of that year), and the day of that trough. */
  readonly ownDepth: Float64Array;
  readonly ownDay: Float64Array;
}

/** Each block's dip in each of the plot's dipped seasons; a block's mean in a scene counts from `minPixels` clear pixels. */
export function seasonBlocks(record: DipRecord, minPixels: number): SeasonBlocks[] {
  const { sums, days, usable, seasons } = record;
  const nb = sums.blocks;
  const values = new Float64Array(days.length);
  const series = new Float64Array(days.length);
  const seriesDays = new Float64Array(days.length);
  const mean = (k: number, b: number) => {
    const c = sums.count[k * nb + b];
    return c >= minPixels ? sums.ndvi[k * nb + b] / c : NaN;
  };
  const out: SeasonBlocks[] = [];
  for (const season of seasons) {
    if (!season.dipped || season.trough_scene === null) continue;
    const t = season.trough_scene;
    const from = days[t] - YEAR_DAYS / 2;
    const to = days[t] + YEAR_DAYS / 2;
    const seen = new Uint8Array(nb);
    const atTrough = new Float64Array(nb);
    const ownDepth = new Float64Array(nb);
    const ownDay = new Float64Array(nb);
    for (let b = 0; b < nb; b++) {
      const trough = mean(t, b);
      if (trough !== trough) continue;
      let m = 0;
      for (let k = 0; k < days.length; k++) {
        if (usable[k] === 0 || days[k] < from || days[k] >= to) continue;
        const v = mean(k, b);
        if (v !== v) continue;
        series[m] = v;
        seriesDays[m] = days[k];
        values[m++] = v;
      }
      if (m < 3) continue;
      const plateau = upperQuartile(values, m);
      const own = heldTrough(series, m).scene;
      seen[b] = 1;
      atTrough[b] = plateau - trough;
      ownDepth[b] = plateau - series[own];
      ownDay[b] = seriesDays[own];
    }
    out.push({ season, seen, atTrough, ownDepth, ownDay });
  }
  return out;
}

/**
 * Each block's dip at the troughs of the plot's dipped seasons (seasonBlocks()). `read`: the block
 * was seen at a trough; `forest`: it dipped at the plot's trough scenes in fewer than half of the
 * seasons it was seen in (a block without the in-phase dip, in the shape the block summary takes);
 * `unlike`: in at least half of those seasons its own trough fell at another time, or its own dip
 * went to another depth, than most blocks'.
 */
export function blockDips(record: DipRecord & { readonly blocks: Int32Array }, lines: BlockDipLines): BlockAnswers {
  const nb = record.sums.blocks;
  const seen = new Uint16Array(nb);
  const dipped = new Uint16Array(nb);
  const unlikeIn = new Uint16Array(nb);
  const dippedNow = new Uint8Array(nb);
  for (const s of seasonBlocks(record, lines.minPixels)) {
    for (let b = 0; b < nb; b++) {
      seen[b] += s.seen[b];
      dipped[b] += s.seen[b] & +(s.atTrough[b] >= lines.dipDepth);
      dippedNow[b] = s.seen[b] & +(s.ownDepth[b] >= lines.dipDepth);
    }
    // Timing is compared among blocks that dipped: a block without a dip has no trough to time.
    const depthUnlike = unlikeMajority(s.seen, s.ownDepth, lines.unlikeDepth);
    const dayUnlike = unlikeMajority(dippedNow, s.ownDay, lines.unlikeDays);
    for (let b = 0; b < nb; b++) unlikeIn[b] += depthUnlike[b] | dayUnlike[b];
  }
  const read = new Uint8Array(nb);
  const without = new Uint8Array(nb);
  const unlike = new Uint8Array(nb);
  for (let b = 0; b < nb; b++) {
    read[b] = seen[b] > 0 ? 1 : 0;
    without[b] = seen[b] > 0 && dipped[b] * 2 < seen[b] ? 1 : 0;
    unlike[b] = seen[b] > 0 && unlikeIn[b] * 2 >= seen[b] ? 1 : 0;
  }
  return { blocks: record.blocks, read, forest: without, unlike };
}

/** The upper quartile of the first `m` values (sorted in place; a season holds a few dozen scenes). */
function upperQuartile(values: Float64Array, m: number): number {
  const v = values.subarray(0, m).sort();
  const at = PLATEAU_QUANTILE * (m - 1);
  const lo = Math.floor(at);
  return lo + 1 < m ? v[lo] + (at - lo) * (v[lo + 1] - v[lo]) : v[lo];
}

/**
 * The record's cycle with its blocks' dips: a part without the in-phase dip large enough to make a
 * plot forest-like keeps the cycle from being phase-locked for the whole plot.
 */
export function withDipBlocks(troughs: SeasonalTroughs, dips: BlockSummary | null, lines: ForestPartLines): PlotTroughs {
  if (dips === null || troughs.cycle !== 'phase_locked' || !forestPart(dips, lines)) return { ...troughs, dip_blocks: dips, part_without_dip: false };
  return { ...troughs, phase_locked: false, cycle: 'not_consistent', dip_blocks: dips, part_without_dip: true };
}

/** The record's cycle over the whole plot, with what its blocks said. */
export type PlotTroughs = SeasonalTroughs & {
  dip_blocks: BlockSummary | null;
  /** The plot as a whole dipped in phase, but not a part of it large enough to count. */
  part_without_dip: boolean;
};
