/**
 * The verdict, its reason and the full list of reasons (spec 2.9, 2.10, 2.7 rule 3), from the
 * instruments' categorical answers and the context blocks' facts. Every reason code is one row of
 * RULES. Instrument rows are tried in order and the first that holds is the instruments' reason;
 * withholding rows then all apply to a positive finding (the floor to every answer but a refusal),
 * each placed before or after the instruments' reason as its row says. Decision lines never reach
 * this module: the kernels turn readings into categories with them.
 */
import { coversPart } from './kernels/coverage.ts';
import type { CycleClass } from './kernels/seasonal-troughs.ts';

/** The evidence floor (spec 1): no positive finding is issued under it. */
export const EVIDENCE_FLOOR_KM2 = 0.04;

export type Verdict =
  | 'prior_management_evidenced'
  | 'prior_management_weak'
  | 'no_prior_management_evidenced'
  | 'insufficient_record';

export type ReasonCode =
  | 'cycle_and_structure_agree'
  | 'structure_confirmed_single_trough'
  | 'shade_veto_overruled_by_two_confident_readings'
  | 'shade_veto_overruled_by_structure_and_record'
  | 'shade_veto_overruled_by_structure_and_eu_maps'
  | 'structural_reading_says_forest'
  | 'cycle_not_consistent'
  | 'no_structural_reading'
  | 'single_structural_reading_short_of_margin'
  | 'terrain_outside_characterised_range'
  | 'evergreen_canopy_unsupported'
  | 'no_canopy_cycle'
  | 'record_too_thin'
  | 'plot_below_evidence_floor'
  | 'inside_licensed_pulpwood_concession'
  | 'concession_layer_unavailable'
  | 'landsat_record_reads_undisturbed_forest'
  | 'landsat_record_unavailable'
  | 'planted_forest_2020'
  | 'eu_forest_maps_read_forest'
  | 'record_covers_part_of_plot'
  | 'ground_not_shown_uniform'
  | 'surroundings_show_the_same_dip';

/**
 * One structural instrument's categorical answer (spec 2.7 rule 1): null when it could not answer.
 * Forest-like when the plot as a whole, or a part of it large enough, reads forest-like.
 */
export interface InstrumentAnswer {
  readonly forest_like: boolean | null;
  /** The reading cleared its line by the instrument's margin. */
  readonly confident: boolean;
  /**
   * Forest-like only because a located part of the plot reads so (withForestPart()), the plot-wide
   * reading following the majority cover: such a patch is never outvoted by plot-wide readings.
   */
  readonly located?: boolean;
}

/**
 * Facts from the context blocks, each decided by the block that owns its rule (history,
 * forest_types, concession). False when the block was not read or does not apply.
 */
export interface ContextFacts {
  /** At least half the plot undisturbed moist forest at the end of 2020 (history rule 3). */
  readonly landsat_record_reads_undisturbed_forest: boolean;
  /** Ground in Indonesia or Malaysia whose Landsat record could not be read. */
  readonly landsat_record_unavailable: boolean;
  /** Most of the plot planted forest on the 2020 forest-type map. */
  readonly planted_forest_2020: boolean;
  /** The Commission's 2020 maps class at least half the plot as forest. */
  readonly eu_forest_maps_read_forest: boolean;
  /** The plot intersects a licensed pulpwood concession. */
  readonly inside_licensed_pulpwood_concession: boolean;
  /** The concession layer could not be read for a plot it must be checked on (spec 2.8.7). */
  readonly concession_layer_unavailable: boolean;
  /** The Landsat record dates the clearing of most of the plot to 2015 or earlier, with no moist forest or regrowth at the cutoff. */
  readonly record_cleared_by_2015: boolean;
  /** Both Commission 2020 maps put at most a tenth of the plot in forest. */
  readonly eu_maps_at_most_a_tenth_forest: boolean;
}

export const NO_CONTEXT: ContextFacts = Object.freeze({
  landsat_record_reads_undisturbed_forest: false,
  landsat_record_unavailable: false,
  planted_forest_2020: false,
  eu_forest_maps_read_forest: false,
  inside_licensed_pulpwood_concession: false,
  concession_layer_unavailable: false,
  record_cleared_by_2015: false,
  eu_maps_at_most_a_tenth_forest: false,
});

export interface DecisionInput {
  readonly plot_area_km2: number;
  /**
   * False when the plot's own area is not known: a point with no declared area is read over a circle
   * the service draws, which says nothing of how much ground the plot holds, so it is not shown to
   * reach the floor whatever the circle's size.
   */
  readonly area_known: boolean;
  /** What the seasonal record says on its own (seasonalTroughs().cycle, held from phase_locked by withDipBlocks()). */
  readonly cycle: CycleClass;
  /**
   * The plot as a whole dipped in phase, but a part of it large enough to count showed no dip
   * (withDipBlocks()): the cycle reads not_consistent. Absent: no such part.
   */
  readonly part_without_dip?: boolean;
  /**
   * A contiguous part of the plot large enough to count reads unlike the plot's majority on an
   * instrument that answered (engine/uneven-ground.ts). Absent: no such part.
   */
  readonly uneven_part?: boolean;
  /** The ground around the plot dipped at the plot's time and to its depth (ringDip()). Absent: it did not, or was not read. */
  readonly ring_shares_dip?: boolean;
  /** Shade at the trough (structureAtTrough()): read from the optical record's own trough scenes, so it can veto, never confirm. */
  readonly shade: InstrumentAnswer;
  /** Radar contrast (radarContrast()), with its polarimetric answer. */
  readonly radar: InstrumentAnswer & { readonly polarimetry_cultivated: boolean | null };
  /** Canopy height (heightPercentiles()); a canopy between the crop and forest lines was read but gives no answer. */
  readonly height: InstrumentAnswer & { readonly between_lines: boolean };
  /** terrainSlope().outside_characterised_range; null (not measured) withholds nothing. */
  readonly terrain_outside: boolean | null;
  readonly context: ContextFacts;
  /**
   * The share of the plot the optical record's kept scenes had data for (read.coverage); null or
   * absent when none was kept (the record then answers nothing) and withholds nothing.
   */
  readonly optical_coverage?: number | null;
}

export interface Decision {
  verdict: Verdict;
  /** The first of `reasons`. */
  reason: ReasonCode;
  reasons: ReasonCode[];
}

/** What the rows test, derived once from the input. */
export interface Facts {
  readonly input: DecisionInput;
  /** Instruments that answered forest-like. */
  readonly forest: number;
  /** Instruments that answered crop. */
  readonly crop: number;
  /** Shade reads forest-like over the plot as a whole (not a located part of it) and neither radar nor height does. */
  readonly shadeVetoAlone: boolean;
  readonly radarConfidentCrop: boolean;
  readonly heightConfidentCrop: boolean;
  /** An instrument independent of the optical record (radar or height) confidently reads crop over the whole plot. */
  readonly independentConfidentCrop: boolean;
  /** Radar or height gave a reading at all (an answer, or a canopy between the height lines). */
  readonly independentRead: boolean;
}

export interface InstrumentRule {
  readonly kind: 'instruments';
  readonly code: ReasonCode;
  readonly verdict: Verdict;
  readonly when: (f: Facts) => boolean;
}

export interface WithholdingRule {
  readonly kind: 'withholding';
  readonly code: ReasonCode;
  /** What a withheld positive finding becomes. */
  readonly verdict: 'prior_management_weak';
  /** Where the code sits in `reasons` relative to the instruments' reason. */
  readonly place: 'before' | 'after';
  /** Which instruments' findings it applies to: positive only, or every answer but a refusal. */
  readonly scope: 'positive' | 'answered';
  /** What withholds: a context block or a record's reach (the plot's size included), or the instruments' own reading of the ground. */
  readonly by: 'context' | 'instruments';
  readonly when: (f: Facts) => boolean;
}

export type Rule = InstrumentRule | WithholdingRule;

const EVIDENCED = 'prior_management_evidenced';
const WEAK = 'prior_management_weak';

const cycleIs = (f: Facts, c: CycleClass): boolean => f.input.cycle === c;
const cycleOrTroughs = (f: Facts): boolean => cycleIs(f, 'phase_locked') || cycleIs(f, 'troughs_short_of_record');
const forestPartWithoutDip = (f: Facts): boolean => f.input.part_without_dip === true && f.forest > 0;
const shadeVetoOverruledByOne = (f: Facts): boolean =>
  cycleIs(f, 'phase_locked') && f.shadeVetoAlone && (f.radarConfidentCrop || f.heightConfidentCrop);

/**
 * Every reason code, in the order it is tried. Instrument rows: first match wins (the last always
 * matches what is left). From the terrain row on, the record has either a phase-locked cycle or
 * troughs in every measured season of a record too short to stand alone.
 */
export const RULES: readonly Rule[] = [
  // The record first: nothing structural rescues a record that cannot be read.
  // Troughs on a record too short to stand alone need an instrument independent of it: shade is read
  // at those same troughs, so it does not count.
  { kind: 'instruments', code: 'record_too_thin', verdict: 'insufficient_record',
    when: (f) => cycleIs(f, 'too_thin') || (cycleIs(f, 'troughs_short_of_record') && !f.independentConfidentCrop && f.forest === 0) },
  // A part without the dip that an instrument reads forest-like is told by its instrument, below.
  { kind: 'instruments', code: 'cycle_not_consistent', verdict: WEAK, when: (f) => cycleIs(f, 'not_consistent') && !forestPartWithoutDip(f) },
  { kind: 'instruments', code: 'evergreen_canopy_unsupported', verdict: WEAK,
    when: (f) => cycleIs(f, 'no_cycle') && (f.crop > 0 || f.input.radar.polarimetry_cultivated === true) },
  { kind: 'instruments', code: 'no_canopy_cycle', verdict: 'no_prior_management_evidenced', when: (f) => cycleIs(f, 'no_cycle') },
  // A cycle, read by instruments characterised on flatter ground than this.
  { kind: 'instruments', code: 'terrain_outside_characterised_range', verdict: WEAK,
    when: (f) => cycleOrTroughs(f) && f.input.terrain_outside === true },
  // Shade alone reads forest over the whole plot on a full cycle: other evidence may overrule it. A
  // part of the plot that shade locates as forest-like is never overruled (structural_reading_says_forest).
  { kind: 'instruments', code: 'shade_veto_overruled_by_two_confident_readings', verdict: EVIDENCED,
    when: (f) => cycleIs(f, 'phase_locked') && f.shadeVetoAlone && f.radarConfidentCrop && f.heightConfidentCrop },
  { kind: 'instruments', code: 'shade_veto_overruled_by_structure_and_record', verdict: EVIDENCED,
    when: (f) => shadeVetoOverruledByOne(f) && f.input.context.record_cleared_by_2015 },
  { kind: 'instruments', code: 'shade_veto_overruled_by_structure_and_eu_maps', verdict: EVIDENCED,
    when: (f) => shadeVetoOverruledByOne(f) && f.input.context.eu_maps_at_most_a_tenth_forest },
  { kind: 'instruments', code: 'structural_reading_says_forest', verdict: WEAK, when: (f) => (cycleOrTroughs(f) || forestPartWithoutDip(f)) && f.forest > 0 },
  // Past this row no instrument reads forest. A positive finding needs radar or height to read crop
  // confidently over the whole plot: shade, read from the record's own troughs, never carries one.
  { kind: 'instruments', code: 'structure_confirmed_single_trough', verdict: EVIDENCED,
    when: (f) => cycleIs(f, 'troughs_short_of_record') && f.independentConfidentCrop },
  { kind: 'instruments', code: 'no_structural_reading', verdict: WEAK, when: (f) => cycleIs(f, 'phase_locked') && !f.independentRead },
  { kind: 'instruments', code: 'single_structural_reading_short_of_margin', verdict: WEAK,
    when: (f) => cycleIs(f, 'phase_locked') && !f.independentConfidentCrop },
  // A phase-locked cycle, and radar or height confidently reads crop with no instrument reading forest.
  { kind: 'instruments', code: 'cycle_and_structure_agree', verdict: EVIDENCED, when: (f) => cycleIs(f, 'phase_locked') },

  // Withholdings of a positive finding. The context blocks' codes come before the instruments'
  // reason (spec 2.8.7, 2.10: "the instruments' reason follows"), so `reason` names what withheld
  // the finding; the evidence floor rides after it on every answer (spec 2.7 rule 3).
  { kind: 'withholding', code: 'inside_licensed_pulpwood_concession', verdict: WEAK, place: 'before', scope: 'positive', by: 'context',
    when: (f) => f.input.context.inside_licensed_pulpwood_concession },
  { kind: 'withholding', code: 'concession_layer_unavailable', verdict: WEAK, place: 'before', scope: 'positive', by: 'context',
    when: (f) => f.input.context.concession_layer_unavailable },
  { kind: 'withholding', code: 'landsat_record_reads_undisturbed_forest', verdict: WEAK, place: 'before', scope: 'positive', by: 'context',
    when: (f) => f.input.context.landsat_record_reads_undisturbed_forest },
  { kind: 'withholding', code: 'landsat_record_unavailable', verdict: WEAK, place: 'before', scope: 'positive', by: 'context',
    when: (f) => f.input.context.landsat_record_unavailable },
  { kind: 'withholding', code: 'planted_forest_2020', verdict: WEAK, place: 'before', scope: 'positive', by: 'context',
    when: (f) => f.input.context.planted_forest_2020 },
  { kind: 'withholding', code: 'eu_forest_maps_read_forest', verdict: WEAK, place: 'before', scope: 'positive', by: 'context',
    when: (f) => f.input.context.eu_forest_maps_read_forest },
  { kind: 'withholding', code: 'plot_below_evidence_floor', verdict: WEAK, place: 'after', scope: 'answered', by: 'context',
    when: (f) => !f.input.area_known || f.input.plot_area_km2 < EVIDENCE_FLOOR_KM2 },
  // A record that read part of the plot says nothing of the rest (the instruments' own coverage
  // rule is theirs: one that read too little does not answer).
  { kind: 'withholding', code: 'record_covers_part_of_plot', verdict: WEAK, place: 'before', scope: 'positive', by: 'context',
    when: (f) => coversPart(f.input.optical_coverage) },
  // A positive finding is a claim about every part of the plot: a part that reads unlike the rest on
  // any instrument may be the forest the rest is not, and a record too short for the dip to be
  // tested block by block (troughs_short_of_record) cannot show that every part winters.
  { kind: 'withholding', code: 'ground_not_shown_uniform', verdict: WEAK, place: 'before', scope: 'positive', by: 'instruments',
    when: (f) => f.input.uneven_part === true || cycleIs(f, 'troughs_short_of_record') },
  // A dip the surroundings share (deciduous forest around a deciduous crop) is the season's, not a
  // sign of how the plot was managed.
  { kind: 'withholding', code: 'surroundings_show_the_same_dip', verdict: WEAK, place: 'before', scope: 'positive', by: 'instruments',
    when: (f) => f.input.ring_shares_dip === true },
];

function factsOf(input: DecisionInput): Facts {
  const all = [input.shade, input.radar, input.height];
  const radarConfidentCrop = input.radar.forest_like === false && input.radar.confident;
  const heightConfidentCrop = input.height.forest_like === false && input.height.confident;
  return {
    input,
    forest: all.filter((a) => a.forest_like === true).length,
    crop: all.filter((a) => a.forest_like === false).length,
    shadeVetoAlone: input.shade.forest_like === true && input.shade.located !== true && input.radar.forest_like !== true && input.height.forest_like !== true,
    radarConfidentCrop,
    heightConfidentCrop,
    independentConfidentCrop: radarConfidentCrop || heightConfidentCrop,
    independentRead: input.radar.forest_like !== null || input.height.forest_like !== null || input.height.between_lines,
  };
}

/** Raised when no instrument row holds, which only an unknown CycleClass can cause. */
export class DecisionError extends Error {
  readonly code = 'no_rule_matched';
}

export function decide(input: DecisionInput): Decision {
  const facts = factsOf(input);
  let instruments: InstrumentRule | undefined;
  for (const rule of RULES) {
    if (rule.kind === 'instruments' && rule.when(facts)) {
      instruments = rule;
      break;
    }
  }
  if (!instruments) throw new DecisionError(`no rule decides cycle ${String(input.cycle)}`);
  if (instruments.verdict === 'insufficient_record') {
    return { verdict: instruments.verdict, reason: instruments.code, reasons: [instruments.code] };
  }
  let verdict: Verdict = instruments.verdict;
  const before: ReasonCode[] = [];
  const after: ReasonCode[] = [];
  for (const rule of RULES) {
    if (rule.kind !== 'withholding') continue;
    if (rule.scope === 'positive' && instruments.verdict !== EVIDENCED) continue;
    if (!rule.when(facts)) continue;
    (rule.place === 'before' ? before : after).push(rule.code);
    if (verdict === EVIDENCED) verdict = rule.verdict;
  }
  const reasons = [...before, instruments.code, ...after];
  return { verdict, reason: reasons[0], reasons };
}

/** The instruments' row behind a decision: the one code of its `reasons` an instrument row issues. */
export function instrumentsRule(d: Decision): InstrumentRule {
  const rule = RULES.find((r): r is InstrumentRule => r.kind === 'instruments' && d.reasons.includes(r.code));
  if (rule === undefined) throw new DecisionError(`no instruments' reason among ${d.reasons.join(', ')}`);
  return rule;
}
