/**
 * The finding sentence of the evidence object (spec 2.7 `finding`): what the instruments found, in
 * words, and what withheld a positive reading when something did. One sentence per reason code
 * (spec 2.10); the counts of the record are filled in, never a decision line.
 */
import { type Decision, instrumentsRule, type ReasonCode } from './decide.ts';
import { coversPart } from './kernels/coverage.ts';

export interface FindingCounts {
  /** Seasons that gave an answer. */
  measured: number;
  /** Measured seasons with a dip. */
  dipped: number;
  /** Seasons of the period read. */
  seasons: number;
  /** The share of the plot the optical record had data for (read.coverage); null when no scene was kept. */
  opticalCoverage?: number | null;
  /** What the evidence floor was judged on; the plot when absent. */
  floorOn?: FloorJudgedOn;
  /** Clauses naming each part of the plot that reads unlike the rest (unevenClause()); none when absent. */
  uneven?: readonly string[];
  /** Every measured season dipped, but too few were measured for the record to stand alone (troughs_short_of_record). */
  shortRecord?: boolean;
  /** The plot's dipped seasons the ground around it was seen in, and those it dipped alike in (ringDip()). */
  ring?: { seen: number; same: number };
}

/**
 * What the floor was judged on: the plot, one part of a multi-part plot (engine/plot-parts.ts), or
 * a point with no declared area, whose own area is not known (PlotFootprint.areaKnown).
 */
export type FloorJudgedOn = 'plot' | 'part' | 'point_without_area';

const FLOOR_CLAUSE: Record<FloorJudgedOn, string> = {
  plot: 'the plot is under the 4 ha evidence floor',
  part: 'this part is under the 4 ha evidence floor',
  point_without_area: 'no area was declared for the point, so the plot is not shown to reach the 4 ha evidence floor',
};

const seasons = (n: number) => (n === 1 ? 'the one dry season measured' : `each of the ${n} dry seasons measured`);

/** Positive readings: the part after "Established plantation before the cutoff: ". */
const POSITIVE: Partial<Record<ReasonCode, (c: FindingCounts) => string>> = {
  cycle_and_structure_agree: (c) => `the canopy wintered in ${seasons(c.measured)}, in phase, and the structural readings agree that it is a crop`,
  structure_confirmed_single_trough: (c) =>
    `the canopy wintered in ${c.measured === 1 ? 'the one dry season that could be measured' : `all ${c.measured} dry seasons that could be measured`}, and radar or canopy height confidently reads a crop over the whole plot`,
  shade_veto_overruled_by_two_confident_readings: (c) =>
    `the canopy wintered in ${seasons(c.measured)}, in phase; its shade at the trough read forest-like, but radar and canopy height both confidently read a crop`,
  shade_veto_overruled_by_structure_and_record: (c) =>
    `the canopy wintered in ${seasons(c.measured)}, in phase; its shade at the trough read forest-like, but a structural instrument confidently reads a crop and the Landsat record dates the clearing of most of the plot to 2015 or earlier`,
  shade_veto_overruled_by_structure_and_eu_maps: (c) =>
    `the canopy wintered in ${seasons(c.measured)}, in phase; its shade at the trough read forest-like, but a structural instrument confidently reads a crop and both Commission 2020 maps put at most a tenth of the plot in forest`,
};

const OTHER: Partial<Record<ReasonCode, (c: FindingCounts) => string>> = {
  structural_reading_says_forest: () => 'The canopy shows a dry-season dip, but a structural instrument reads all or part of the plot as forest-like, so the record does not show an established plantation.',
  cycle_not_consistent: (c) =>
    c.dipped === c.measured
      ? `The plot as a whole dipped in ${seasons(c.measured)}, but not every part of it did, so the record does not show an established wintering crop across the plot.`
      : `The canopy dipped in ${c.dipped} of the ${c.measured} dry seasons measured, not in every one of them at the same time of year, so the record does not show an established wintering crop.`,
  no_structural_reading: (c) =>
    `The canopy wintered in ${seasons(c.measured)}, in phase, but neither radar nor canopy height could answer, and shade, read at the same troughs, cannot confirm the cycle alone.`,
  single_structural_reading_short_of_margin: (c) =>
    `The canopy wintered in ${seasons(c.measured)}, in phase, but neither radar nor canopy height reads a crop by its margin.`,
  terrain_outside_characterised_range: () =>
    'The canopy shows a dry-season dip, but the ground is steeper than the instruments were characterised on, so their readings are not relied on.',
  evergreen_canopy_unsupported: (c) =>
    `No annual canopy cycle over the ${c.measured} dry seasons measured; a structural reading or the radar polarimetry says the canopy is cultivated, but an evergreen crop is not evidenced from the satellite record alone.`,
  no_canopy_cycle: (c) => `No annual canopy cycle over the ${c.measured} dry seasons measured: the record gives no evidence of management before the cutoff.`,
  record_too_thin: (c) => `Too few dry seasons could be measured to answer: ${c.measured} of the ${c.seasons} seasons read gave an answer.`,
};

/** What each withholding says, as a clause after "Withheld: ". */
const WITHHELD_BY: Partial<Record<ReasonCode, string | ((c: FindingCounts) => string)>> = {
  inside_licensed_pulpwood_concession: 'the plot intersects a licensed pulpwood concession',
  concession_layer_unavailable: 'the concession layer could not be read, so whether this Indonesian plot lies in a licensed pulpwood concession is not known',
  landsat_record_reads_undisturbed_forest: 'the Landsat record classes most of the plot as undisturbed moist forest at the end of 2020',
  landsat_record_unavailable: 'the Landsat moist-forest record could not be read on this ground in Indonesia or Malaysia',
  planted_forest_2020: 'the 2020 forest-type map classes most of the plot as planted forest',
  eu_forest_maps_read_forest: 'the Commission\'s 2020 forest maps class at least half of the plot as forest',
  plot_below_evidence_floor: (c) => FLOOR_CLAUSE[c.floorOn ?? 'plot'],
  record_covers_part_of_plot: (c) => `${outsideRecord(c)}, so the record says nothing of that part`,
  ground_not_shown_uniform: (c) => [
    ...(c.uneven ?? []).map((u) => `${u}, so the plot is not shown to be one crop throughout`),
    ...(c.shortRecord === true
      ? [`with ${c.measured === 1 ? 'one dry season' : `${c.measured} dry seasons`} measured, the record is too short to show that every part of the plot winters`]
      : []),
  ].join('; and '),
  surroundings_show_the_same_dip: (c) =>
    `the ground around the plot dipped at the same time and to the same depth in ${c.ring?.same ?? 0} of the ${c.ring?.seen ?? 0} dry seasons it was seen in, so the dip may be the season's, as a deciduous forest's is, and is no evidence of how the plot was managed`,
};

const withheldBy = (r: ReasonCode, c: FindingCounts): string => {
  const w = WITHHELD_BY[r];
  return w === undefined ? r : typeof w === 'string' ? w : w(c);
};

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

const outsideRecord = (c: FindingCounts): string =>
  `${Math.max(1, Math.round((1 - (c.opticalCoverage ?? 0)) * 100))}% of the plot lies outside the archive's Sentinel-2 and Landsat data`;

/**
 * The finding sentence, followed by what lies under it where the plot is not one cover: `parts`
 * are clauses naming the share of the plot an instrument or a map puts in forest.
 */
export function findingSentence(decision: Decision, counts: FindingCounts, parts: readonly string[] = []): string {
  const sentence = readingSentence(decision, counts);
  // A reading that rests on part of the plot says so, whether or not the coverage withheld it.
  const read = !coversPart(counts.opticalCoverage) || decision.reasons.includes('record_covers_part_of_plot') ? sentence : `${sentence} ${capital(outsideRecord(counts))} and was not read.`;
  return parts.length === 0 ? read : `${read} ${capital(parts.join('; '))}.`;
}

function readingSentence(decision: Decision, counts: FindingCounts): string {
  const instruments = instrumentsRule(decision).code;
  const withholdings = decision.reasons.filter((r) => r !== instruments);
  const positive = POSITIVE[instruments];
  if (positive !== undefined) {
    const reading = positive(counts);
    if (decision.verdict === 'prior_management_evidenced') return `Established plantation before the cutoff: ${reading}.`;
    const why = withholdings.map((r) => withheldBy(r, counts)).join('; and ');
    return `Withheld: ${why}. Read alone, the record shows an established plantation: ${reading}.`;
  }
  const sentence = (OTHER[instruments] ?? (() => `The instruments' reason is ${instruments}.`))(counts);
  if (withholdings.length === 0) return sentence;
  return `${sentence} ${capital(withholdings.map((r) => withheldBy(r, counts)).join('; and '))}, so this reading stands as supporting evidence only.`;
}

const COMPASS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'] as const;
/** A forest part whose middle lies within this share of the plot's side from the plot's middle is spread across it. */
const ACROSS = 0.15;

/** Where a part of the plot lies, from its middle's offset (metres east, north) from the plot's middle. */
export function whereInPlot(offsetM: readonly [number, number], plotHa: number): string {
  const [dx, dy] = offsetM;
  if (Math.hypot(dx, dy) < ACROSS * Math.sqrt(plotHa * 10_000)) return 'across the plot';
  const bearing = (Math.atan2(dx, dy) * 180) / Math.PI;
  return `in the ${COMPASS[((Math.round(bearing / 45) % 8) + 8) % 8]}`;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** "canopy height reads 1.2 ha (11%) in the north-east forest-like" */
export function forestPartClause(instrument: string, ha: number, share: number, where: string): string {
  return `${instrument} reads ${ha.toFixed(1)} ha (${percent(share)}) ${where} forest-like`;
}

/** "1.2 ha (11%) in the north-east reads unlike the rest of the plot on canopy height" */
export function unevenClause(instrument: string, ha: number, share: number, where: string): string {
  return `${ha.toFixed(1)} ha (${percent(share)}) ${where} reads unlike the rest of the plot on ${instrument}`;
}

/** "1.2 ha (11%) in the south shows no dry-season dip" */
export function noDipClause(ha: number, share: number, where: string): string {
  return `${ha.toFixed(1)} ha (${percent(share)}) ${where} shows no dry-season dip`;
}

/** "the Commission's 2020 maps put 38% of the plot in forest": `lead` names the map and its verb. */
export function mapShareClause(lead: string, share: number, what: string): string {
  return `${lead} ${percent(share)} of the plot in ${what}`;
}
