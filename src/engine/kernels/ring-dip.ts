/**
 * Whether the ground around the plot shows the plot's own dip. A dip is evidence of a wintering
 * crop only against surroundings that do not share it: deciduous forest around a deciduous crop,
 * or a plot inside a larger stand of what it is, dips at the same time and to the same depth, and
 * then the dip says nothing of how the plot was managed. The ring is read as one block
 * (seasonBlocks()), its mean NDVI per scene against the plot's troughs.
 */
import { type DipRecord, seasonBlocks } from './block-dips.ts';

export interface RingDipLines {
  /** Plateau-to-trough drop that counts as a dip (the plot's own). */
  readonly dipDepth: number;
  /** The ring's own trough within this many days of the plot's is at the same time. */
  readonly sameDays: number;
  /** The ring's own dip within this much NDVI of the plot's is of the same depth. */
  readonly sameDepth: number;
}

export interface RingDip {
  /** The plot's dipped seasons the ring was seen in. */
  seasons_seen: number;
  /** Those in which the ring dipped at the plot's time and to its depth. */
  seasons_same: number;
  /** The ring shared the plot's dip in at least half the seasons it was seen in. */
  same: boolean;
}

/** The ring's dip against the plot's, season by season; `record.sums` holds the ring as block 0, `usable` the scenes it was read in. */
export function ringDip(record: DipRecord, lines: RingDipLines): RingDip {
  let seen = 0;
  let same = 0;
  for (const s of seasonBlocks(record, 1)) {
    if (s.seen[0] === 0 || s.season.depth === null || s.season.trough_scene === null) continue;
    seen++;
    const depth = s.ownDepth[0];
    same += +(depth >= lines.dipDepth
      && Math.abs(depth - s.season.depth) <= lines.sameDepth
      && Math.abs(s.ownDay[0] - record.days[s.season.trough_scene]) <= lines.sameDays);
  }
  return { seasons_seen: seen, seasons_same: same, same: seen > 0 && same * 2 >= seen };
}
