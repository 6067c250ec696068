/**
 * The finding sentence of the evidence object (spec 2.7 `finding`): what the instruments found, in
 * words, and what withheld a positive reading when something did. One sentence per reason code
 * (spec 2.10); the counts of the record are filled in, never a decision line.
 */
import { type Decision, instrumentsRule, type ReasonCode } from './decide.ts';
import type { SeasonalTroughs } from './kernels/seasonal-troughs.ts';

export interface FindingCounts {
  /** Seasons that gave an answer. */
  measured: number;
  /** Measured seasons with a dip. */
  dipped: number;
  /** Seasons of the period read. */
  seasons: number;
}

/** The counts a finding quotes, from the record's troughs. */
export const findingCounts = (t: SeasonalTroughs): FindingCounts => ({ measured: t.seasons_observed, dipped: t.seasons_with_dip, seasons: t.seasons.length });

const seasons = (n: number) => (n === 1 ? 'the one dry season measured' : `each of the ${n} dry seasons measured`);

/** Positive readings: the part after "Established plantation before the cutoff: ". */
const POSITIVE: Partial<Record<ReasonCode, (c: FindingCounts) => string>> = {
  cycle_and_structure_agree: (c) => `the canopy wintered in ${seasons(c.measured)}, in phase, and the structural readings agree that it is a crop`,
  structure_confirmed_single_trough: (c) =>
    `the canopy wintered in ${c.measured === 1 ? 'the one dry season that could be measured' : `all ${c.measured} dry seasons that could be measured`}, and a structural instrument confidently reads a crop`,
  shade_veto_overruled_by_two_confident_readings: (c) =>
    `the canopy wintered in ${seasons(c.measured)}, in phase; its shade at the trough read forest-like, but radar and canopy height both confidently read a crop`,
  shade_veto_overruled_by_structure_and_record: (c) =>
    `the canopy wintered in ${seasons(c.measured)}, in phase; its shade at the trough read forest-like, but a structural instrument confidently reads a crop and the Landsat record dates the clearing of most of the plot to 2015 or earlier`,
  shade_veto_overruled_by_structure_and_eu_maps: (c) =>
    `the canopy wintered in ${seasons(c.measured)}, in phase; its shade at the trough read forest-like, but a structural instrument confidently reads a crop and both Commission 2020 maps put at most a tenth of the plot in forest`,
};

const OTHER: Partial<Record<ReasonCode, (c: FindingCounts) => string>> = {
  structural_reading_says_forest: () => 'The canopy shows a dry-season dip, but a structural instrument reads it as forest-like, so the record does not show an established plantation.',
  cycle_not_consistent: (c) =>
    `The canopy dipped in ${c.dipped} of the ${c.measured} dry seasons measured, not in every one of them at the same time of year, so the record does not show an established wintering crop.`,
  no_structural_reading: (c) => `The canopy wintered in ${seasons(c.measured)}, in phase, but no structural instrument could answer, so the cycle stands alone.`,
  single_structural_reading_short_of_margin: (c) =>
    `The canopy wintered in ${seasons(c.measured)}, in phase, but only one structural instrument answered, and not by its margin.`,
  terrain_outside_characterised_range: () =>
    'The canopy shows a dry-season dip, but the ground is steeper than the instruments were characterised on, so their readings are not relied on.',
  evergreen_canopy_unsupported: (c) =>
    `No annual canopy cycle over the ${c.measured} dry seasons measured; a structural reading or the radar polarimetry says the canopy is cultivated, but an evergreen crop is not evidenced from the satellite record alone.`,
  no_canopy_cycle: (c) => `No annual canopy cycle over the ${c.measured} dry seasons measured: the record gives no evidence of management before the cutoff.`,
  record_too_thin: (c) => `Too few dry seasons could be measured to answer: ${c.measured} of the ${c.seasons} seasons read gave an answer.`,
};

/** What each withholding says, as a clause after "Withheld: ". */
const WITHHELD_BY: Partial<Record<ReasonCode, string>> = {
  inside_licensed_pulpwood_concession: 'the plot intersects a licensed pulpwood concession',
  concession_layer_unavailable: 'the concession layer could not be read, so whether this Indonesian plot lies in a licensed pulpwood concession is not known',
  landsat_record_reads_undisturbed_forest: 'the Landsat record classes most of the plot as undisturbed moist forest at the end of 2020',
  landsat_record_unavailable: 'the Landsat moist-forest record could not be read on this ground in Indonesia or Malaysia',
  planted_forest_2020: 'the 2020 forest-type map classes most of the plot as planted forest',
  eu_forest_maps_read_forest: 'the Commission\'s 2020 forest maps class at least half of the plot as forest',
};

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

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

export function findingSentence(decision: Decision, counts: FindingCounts, floorOn: FloorJudgedOn = 'plot'): string {
  const instruments = instrumentsRule(decision).code;
  const withheld = (r: ReasonCode) => (r === 'plot_below_evidence_floor' ? FLOOR_CLAUSE[floorOn] : WITHHELD_BY[r] ?? r);
  const withholdings = decision.reasons.filter((r) => r !== instruments);
  const positive = POSITIVE[instruments];
  if (positive !== undefined) {
    const reading = positive(counts);
    if (decision.verdict === 'prior_management_evidenced') return `Established plantation before the cutoff: ${reading}.`;
    const why = withholdings.map(withheld).join('; and ');
    return `Withheld: ${why}. Read alone, the record shows an established plantation: ${reading}.`;
  }
  const sentence = (OTHER[instruments] ?? (() => `The instruments' reason is ${instruments}.`))(counts);
  if (withholdings.length === 0) return sentence;
  return `${sentence} ${capital(withholdings.map(withheld).join('; and '))}, so this reading stands as supporting evidence only.`;
}
