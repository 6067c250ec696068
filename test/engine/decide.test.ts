import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DecisionError,
  EVIDENCE_FLOOR_KM2,
  NO_CONTEXT,
  RULES,
  decide,
  type ContextFacts,
  type DecisionInput,
  type InstrumentAnswer,
  type ReasonCode,
  type Verdict,
} from '../../src/engine/decide.ts';
import type { CycleClass } from '../../src/engine/kernels/seasonal-troughs.ts';

// Spec 2.9 and 2.10: every reason code and the verdict it implies (a withholding: of a positive finding).
const SPEC: Record<ReasonCode, Verdict> = {
  cycle_and_structure_agree: 'prior_management_evidenced',
  structure_confirmed_single_trough: 'prior_management_evidenced',
  shade_veto_overruled_by_two_confident_readings: 'prior_management_evidenced',
  shade_veto_overruled_by_structure_and_record: 'prior_management_evidenced',
  shade_veto_overruled_by_structure_and_eu_maps: 'prior_management_evidenced',
  structural_reading_says_forest: 'prior_management_weak',
  cycle_not_consistent: 'prior_management_weak',
  no_structural_reading: 'prior_management_weak',
  single_structural_reading_short_of_margin: 'prior_management_weak',
  terrain_outside_characterised_range: 'prior_management_weak',
  evergreen_canopy_unsupported: 'prior_management_weak',
  no_canopy_cycle: 'no_prior_management_evidenced',
  record_too_thin: 'insufficient_record',
  plot_below_evidence_floor: 'prior_management_weak',
  inside_licensed_pulpwood_concession: 'prior_management_weak',
  concession_layer_unavailable: 'prior_management_weak',
  landsat_record_reads_undisturbed_forest: 'prior_management_weak',
  landsat_record_unavailable: 'prior_management_weak',
  planted_forest_2020: 'prior_management_weak',
  eu_forest_maps_read_forest: 'prior_management_weak',
  record_covers_part_of_plot: 'prior_management_weak',
  ground_not_shown_uniform: 'prior_management_weak',
  surroundings_show_the_same_dip: 'prior_management_weak',
};
const CONTEXT_WITHHOLDINGS: ReasonCode[] = [
  'inside_licensed_pulpwood_concession',
  'concession_layer_unavailable',
  'landsat_record_reads_undisturbed_forest',
  'landsat_record_unavailable',
  'planted_forest_2020',
  'eu_forest_maps_read_forest',
  'record_covers_part_of_plot',
  'ground_not_shown_uniform',
  'surroundings_show_the_same_dip',
];

const CROP: InstrumentAnswer = { forest_like: false, confident: true };
const CROP_WEAK: InstrumentAnswer = { forest_like: false, confident: false };
const FOREST: InstrumentAnswer = { forest_like: true, confident: true };
/** Forest-like only over a located part of the plot: the plot-wide reading followed the crop around it. */
const FOREST_PART: InstrumentAnswer = { forest_like: true, confident: true, located: true };
const NONE: InstrumentAnswer = { forest_like: null, confident: false };
/** A canopy read between the height lines: no answer, but a reading short of its margin. */
const MID: HeightAnswer = { forest_like: null, confident: false, between_lines: true };

type HeightAnswer = InstrumentAnswer & { between_lines?: boolean };
const LARGE = 0.1;
const SMALL = 0.02;

interface Case {
  readonly name: string;
  readonly cycle?: CycleClass;
  readonly partWithoutDip?: boolean;
  readonly shade?: InstrumentAnswer;
  readonly radar?: InstrumentAnswer;
  readonly polarimetry?: boolean | null;
  readonly height?: HeightAnswer;
  readonly terrain?: boolean | null;
  readonly area?: number;
  /** False for a point read without a declared area. */
  readonly areaKnown?: boolean;
  readonly context?: Partial<ContextFacts>;
  readonly coverage?: number | null;
  /** A part of the plot large enough to count reads unlike the rest on some instrument. */
  readonly uneven?: boolean;
  /** The ground around the plot dipped as the plot did. */
  readonly ringDip?: boolean;
  readonly verdict: Verdict;
  readonly reasons: ReasonCode[];
}

function inputOf(c: Omit<Case, 'name' | 'verdict' | 'reasons'>): DecisionInput {
  return {
    plot_area_km2: c.area ?? LARGE,
    area_known: c.areaKnown ?? true,
    cycle: c.cycle ?? 'phase_locked',
    part_without_dip: c.partWithoutDip ?? false,
    shade: c.shade ?? CROP,
    radar: { ...(c.radar ?? CROP), polarimetry_cultivated: c.polarimetry ?? false },
    height: { between_lines: false, ...(c.height ?? CROP) },
    terrain_outside: c.terrain ?? false,
    context: { ...NO_CONTEXT, ...c.context },
    ...(c.coverage === undefined ? {} : { optical_coverage: c.coverage }),
    ...(c.uneven === undefined ? {} : { uneven_part: c.uneven }),
    ...(c.ringDip === undefined ? {} : { ring_shares_dip: c.ringDip }),
  };
}

const CASES: Case[] = [
  { name: 'a locked cycle and three crop readings agree', verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  { name: 'one confident radar reading is enough to agree', shade: NONE, height: NONE, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  { name: 'one confident height reading is enough to agree', shade: NONE, radar: NONE, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  { name: 'a height between the lines takes nothing from a confident radar reading', height: MID, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  { name: 'crop readings without confidence do not agree: neither radar nor height is confident', shade: CROP_WEAK, radar: CROP_WEAK, height: NONE, verdict: 'prior_management_weak', reasons: ['single_structural_reading_short_of_margin'] },
  { name: 'shade alone never carries a positive: a confident crop shade with no radar or height answer', shade: CROP, radar: NONE, height: NONE, verdict: 'prior_management_weak', reasons: ['no_structural_reading'] },
  { name: 'shade alone never carries a positive: a confident crop shade beside a radar short of its margin', shade: CROP, radar: CROP_WEAK, height: NONE, verdict: 'prior_management_weak', reasons: ['single_structural_reading_short_of_margin'] },
  { name: 'a height between the lines is no answer, not a crop answer', shade: CROP, radar: NONE, height: MID, verdict: 'prior_management_weak', reasons: ['single_structural_reading_short_of_margin'] },
  // A short record with a dip: the dip cannot be tested part by part, so it is never positive.
  { name: 'troughs on a short record with a confident radar reading are withheld', cycle: 'troughs_short_of_record', shade: NONE, height: NONE, verdict: 'prior_management_weak', reasons: ['ground_not_shown_uniform', 'structure_confirmed_single_trough'] },
  { name: 'troughs on a short record with a confident height reading are withheld', cycle: 'troughs_short_of_record', shade: NONE, radar: NONE, verdict: 'prior_management_weak', reasons: ['ground_not_shown_uniform', 'structure_confirmed_single_trough'] },
  { name: 'troughs on a short record with radar and height both reading crop are withheld', cycle: 'troughs_short_of_record', verdict: 'prior_management_weak', reasons: ['ground_not_shown_uniform', 'structure_confirmed_single_trough'] },
  // Positive only for uniform ground: a part unlike the rest on any instrument withholds.
  { name: 'a part of the plot unlike the rest withholds a positive finding', uneven: true, verdict: 'prior_management_weak', reasons: ['ground_not_shown_uniform', 'cycle_and_structure_agree'] },
  { name: 'a part unlike the rest withholds a shade veto that radar and height overruled', shade: FOREST, uneven: true, verdict: 'prior_management_weak', reasons: ['ground_not_shown_uniform', 'shade_veto_overruled_by_two_confident_readings'] },
  { name: 'a part unlike the rest leaves a reading that was not positive as it is', cycle: 'not_consistent', uneven: true, verdict: 'prior_management_weak', reasons: ['cycle_not_consistent'] },
  { name: 'a part unlike the rest follows the context withholdings', uneven: true, context: { eu_forest_maps_read_forest: true }, verdict: 'prior_management_weak', reasons: ['eu_forest_maps_read_forest', 'ground_not_shown_uniform', 'cycle_and_structure_agree'] },
  { name: 'uniform ground withholds nothing', uneven: false, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  // The ring is not always forest: a dip the surroundings share is no evidence of management.
  { name: 'surroundings that dip as the plot does withhold a positive finding', ringDip: true, verdict: 'prior_management_weak', reasons: ['surroundings_show_the_same_dip', 'cycle_and_structure_agree'] },
  { name: 'surroundings that dip as the plot does leave a reading that was not positive as it is', ringDip: true, radar: FOREST, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'a part unlike the rest and surroundings that dip alike are both named', ringDip: true, uneven: true, verdict: 'prior_management_weak', reasons: ['ground_not_shown_uniform', 'surroundings_show_the_same_dip', 'cycle_and_structure_agree'] },
  { name: 'surroundings without the plot\'s dip withhold nothing', ringDip: false, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  // A located patch is never outvoted by plot-wide readings that follow the majority cover.
  { name: 'a shade-located forest patch is not overruled by radar and height reading crop plot-wide', shade: FOREST_PART, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'a shade-located forest patch is not overruled by radar and the Landsat record', shade: FOREST_PART, height: NONE, context: { record_cleared_by_2015: true }, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'a shade-located forest patch is not overruled by height and the EU maps', shade: FOREST_PART, radar: NONE, context: { eu_maps_at_most_a_tenth_forest: true }, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'troughs on a short record are not confirmed by shade, read at those same troughs', cycle: 'troughs_short_of_record', shade: CROP, radar: NONE, height: MID, verdict: 'insufficient_record', reasons: ['record_too_thin'] },
  { name: 'radar and height both confidently overrule a forest-like shade', shade: FOREST, verdict: 'prior_management_evidenced', reasons: ['shade_veto_overruled_by_two_confident_readings'] },
  { name: 'radar and the Landsat record overrule a forest-like shade', shade: FOREST, height: NONE, context: { record_cleared_by_2015: true }, verdict: 'prior_management_evidenced', reasons: ['shade_veto_overruled_by_structure_and_record'] },
  { name: 'height and the EU maps overrule a forest-like shade', shade: FOREST, radar: NONE, context: { eu_maps_at_most_a_tenth_forest: true }, verdict: 'prior_management_evidenced', reasons: ['shade_veto_overruled_by_structure_and_eu_maps'] },
  { name: 'the record wins over the EU maps when both overrule', shade: FOREST, height: MID, context: { record_cleared_by_2015: true, eu_maps_at_most_a_tenth_forest: true }, verdict: 'prior_management_evidenced', reasons: ['shade_veto_overruled_by_structure_and_record'] },
  { name: 'radar reading forest withholds', radar: FOREST, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'a forest-like shade with one confident reading and no record or map stands', shade: FOREST, height: MID, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'a forest-like shade is not overruled when height reads forest too', shade: FOREST, height: FOREST, context: { record_cleared_by_2015: true }, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'a forest-like shade is not overruled on a short record', cycle: 'troughs_short_of_record', shade: FOREST, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'some seasons wintered, others did not', cycle: 'not_consistent', verdict: 'prior_management_weak', reasons: ['cycle_not_consistent'] },
  { name: 'a part of the plot without the in-phase dip holds the cycle', cycle: 'not_consistent', partWithoutDip: true, verdict: 'prior_management_weak', reasons: ['cycle_not_consistent'] },
  { name: 'a part without the dip that an instrument reads forest-like is told by the instrument', cycle: 'not_consistent', partWithoutDip: true, height: FOREST, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'a forest-like shade is not overruled where a part of the plot shows no dip', cycle: 'not_consistent', partWithoutDip: true, shade: FOREST, context: { record_cleared_by_2015: true }, verdict: 'prior_management_weak', reasons: ['structural_reading_says_forest'] },
  { name: 'no structural instrument answered', shade: NONE, radar: NONE, height: NONE, verdict: 'prior_management_weak', reasons: ['no_structural_reading'] },
  { name: 'a single radar reading without confidence', shade: NONE, radar: CROP_WEAK, height: NONE, verdict: 'prior_management_weak', reasons: ['single_structural_reading_short_of_margin'] },
  { name: 'a single height reading between the lines', shade: NONE, radar: NONE, height: MID, verdict: 'prior_management_weak', reasons: ['single_structural_reading_short_of_margin'] },
  { name: 'steep ground withholds a cycle', terrain: true, verdict: 'prior_management_weak', reasons: ['terrain_outside_characterised_range'] },
  { name: 'steep ground is tested before a forest reading', terrain: true, radar: FOREST, verdict: 'prior_management_weak', reasons: ['terrain_outside_characterised_range'] },
  { name: 'unmeasured terrain withholds nothing', terrain: null, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  { name: 'no cycle, and height reads crop', cycle: 'no_cycle', shade: NONE, radar: FOREST, height: CROP, verdict: 'prior_management_weak', reasons: ['evergreen_canopy_unsupported'] },
  { name: 'no cycle, and only the polarimetry says cultivated', cycle: 'no_cycle', shade: NONE, radar: NONE, height: NONE, polarimetry: true, verdict: 'prior_management_weak', reasons: ['evergreen_canopy_unsupported'] },
  { name: 'no cycle over a well-observed record', cycle: 'no_cycle', shade: NONE, radar: FOREST, height: FOREST, verdict: 'no_prior_management_evidenced', reasons: ['no_canopy_cycle'] },
  { name: 'no cycle on steep ground is still no cycle', cycle: 'no_cycle', shade: FOREST, radar: FOREST, height: NONE, terrain: true, verdict: 'no_prior_management_evidenced', reasons: ['no_canopy_cycle'] },
  { name: 'too few measured seasons', cycle: 'too_thin', verdict: 'insufficient_record', reasons: ['record_too_thin'] },
  { name: 'troughs on a short record without a confident crop reading', cycle: 'troughs_short_of_record', shade: CROP_WEAK, radar: CROP_WEAK, height: MID, verdict: 'insufficient_record', reasons: ['record_too_thin'] },
  // Spec 2.7 rule 3: the floor rides after the instruments' reason; a refusal stands alone.
  { name: 'a positive reading under the floor is withheld', area: SMALL, verdict: 'prior_management_weak', reasons: ['cycle_and_structure_agree', 'plot_below_evidence_floor'] },
  { name: 'the floor rides beside a withheld reason', area: SMALL, cycle: 'not_consistent', verdict: 'prior_management_weak', reasons: ['cycle_not_consistent', 'plot_below_evidence_floor'] },
  { name: 'the floor rides beside no cycle and leaves its verdict', area: SMALL, cycle: 'no_cycle', shade: NONE, radar: NONE, height: NONE, verdict: 'no_prior_management_evidenced', reasons: ['no_canopy_cycle', 'plot_below_evidence_floor'] },
  { name: 'a refusal under the floor carries its own code alone', area: SMALL, cycle: 'too_thin', context: { inside_licensed_pulpwood_concession: true }, verdict: 'insufficient_record', reasons: ['record_too_thin'] },
  { name: 'exactly 4 ha is not under the floor', area: EVIDENCE_FLOOR_KM2, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  // A point with no declared area: the circle read is the service's, so the plot is not shown to reach the floor.
  { name: 'a positive reading over a circle drawn for an unknown area is withheld at the floor', area: EVIDENCE_FLOOR_KM2, areaKnown: false, verdict: 'prior_management_weak', reasons: ['cycle_and_structure_agree', 'plot_below_evidence_floor'] },
  { name: 'an unknown area withholds even when the circle drawn is larger than the floor', area: LARGE, areaKnown: false, verdict: 'prior_management_weak', reasons: ['cycle_and_structure_agree', 'plot_below_evidence_floor'] },
  { name: 'an unknown area rides beside no cycle and leaves its verdict', areaKnown: false, cycle: 'no_cycle', shade: NONE, radar: NONE, height: NONE, verdict: 'no_prior_management_evidenced', reasons: ['no_canopy_cycle', 'plot_below_evidence_floor'] },
  { name: 'a refusal over a circle drawn for an unknown area carries its own code alone', areaKnown: false, cycle: 'too_thin', verdict: 'insufficient_record', reasons: ['record_too_thin'] },
  // Context withholdings come before the instruments' reason (spec 2.8.7, 2.10).
  { name: 'inside a licensed pulpwood concession', context: { inside_licensed_pulpwood_concession: true }, verdict: 'prior_management_weak', reasons: ['inside_licensed_pulpwood_concession', 'cycle_and_structure_agree'] },
  { name: 'the concession layer could not be read', context: { concession_layer_unavailable: true }, verdict: 'prior_management_weak', reasons: ['concession_layer_unavailable', 'cycle_and_structure_agree'] },
  { name: 'the Landsat record reads undisturbed forest', shade: FOREST, context: { landsat_record_reads_undisturbed_forest: true }, verdict: 'prior_management_weak', reasons: ['landsat_record_reads_undisturbed_forest', 'shade_veto_overruled_by_two_confident_readings'] },
  { name: 'the Landsat record could not be read in Indonesia or Malaysia', cycle: 'troughs_short_of_record', context: { landsat_record_unavailable: true }, verdict: 'prior_management_weak', reasons: ['landsat_record_unavailable', 'ground_not_shown_uniform', 'structure_confirmed_single_trough'] },
  { name: 'mostly planted forest in 2020', context: { planted_forest_2020: true }, verdict: 'prior_management_weak', reasons: ['planted_forest_2020', 'cycle_and_structure_agree'] },
  { name: 'the EU 2020 maps read forest', context: { eu_forest_maps_read_forest: true }, verdict: 'prior_management_weak', reasons: ['eu_forest_maps_read_forest', 'cycle_and_structure_agree'] },
  { name: 'several withholdings keep the table order, the floor last', area: SMALL, context: { planted_forest_2020: true, inside_licensed_pulpwood_concession: true }, verdict: 'prior_management_weak', reasons: ['inside_licensed_pulpwood_concession', 'planted_forest_2020', 'cycle_and_structure_agree', 'plot_below_evidence_floor'] },
  // The optical record's coverage: under 95% of the plot read, a positive finding is withheld.
  { name: 'an optical record covering 62% of the plot withholds a positive finding', coverage: 0.62, verdict: 'prior_management_weak', reasons: ['record_covers_part_of_plot', 'cycle_and_structure_agree'] },
  { name: 'an optical record covering 94.99% of the plot withholds', cycle: 'troughs_short_of_record', coverage: 0.9499, verdict: 'prior_management_weak', reasons: ['record_covers_part_of_plot', 'ground_not_shown_uniform', 'structure_confirmed_single_trough'] },
  { name: 'an optical record covering exactly 95% withholds nothing', coverage: 0.95, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  { name: 'a record with no kept scene has no coverage and withholds nothing itself', coverage: null, verdict: 'prior_management_evidenced', reasons: ['cycle_and_structure_agree'] },
  { name: 'partial coverage leaves a reading that was not positive as it is', cycle: 'not_consistent', coverage: 0.5, verdict: 'prior_management_weak', reasons: ['cycle_not_consistent'] },
  { name: 'partial coverage leaves a refusal alone', cycle: 'too_thin', coverage: 0.3, verdict: 'insufficient_record', reasons: ['record_too_thin'] },
  { name: 'partial coverage follows the context withholdings, the floor after all', area: SMALL, coverage: 0.6, context: { inside_licensed_pulpwood_concession: true }, verdict: 'prior_management_weak', reasons: ['inside_licensed_pulpwood_concession', 'record_covers_part_of_plot', 'cycle_and_structure_agree', 'plot_below_evidence_floor'] },
  { name: 'context withholds nothing that was not a positive finding', cycle: 'not_consistent', context: { inside_licensed_pulpwood_concession: true, eu_forest_maps_read_forest: true, landsat_record_unavailable: true }, verdict: 'prior_management_weak', reasons: ['cycle_not_consistent'] },
];

for (const c of CASES) {
  test(`decides: ${c.name}`, () => {
    const d = decide(inputOf(c));
    assert.equal(d.verdict, c.verdict);
    assert.deepEqual(d.reasons, c.reasons);
    assert.equal(d.reason, d.reasons[0]);
  });
}

test('the rule table holds every reason code of spec 2.10 exactly once, each with its verdict', () => {
  const codes = RULES.map((r) => r.code);
  assert.equal(new Set(codes).size, codes.length);
  assert.deepEqual([...codes].sort(), Object.keys(SPEC).sort());
  for (const rule of RULES) assert.equal(rule.verdict, SPEC[rule.code], rule.code);
});

test('every reason code is reached by a case above', () => {
  const reached = new Set(CASES.flatMap((c) => c.reasons));
  assert.deepEqual([...reached].sort(), Object.keys(SPEC).sort());
});

test('context, coverage and uniformity withholdings sit before the instruments reason and the floor after it, as the table says', () => {
  for (const rule of RULES) {
    if (rule.kind !== 'withholding') continue;
    if (rule.code === 'plot_below_evidence_floor') assert.deepEqual([rule.place, rule.scope], ['after', 'answered']);
    else {
      assert.ok(CONTEXT_WITHHOLDINGS.includes(rule.code), rule.code);
      assert.deepEqual([rule.place, rule.scope], ['before', 'positive']);
    }
  }
});

test('over every combination of answers the reasons keep spec 2.7 rule 3', () => {
  const cycles: CycleClass[] = ['too_thin', 'troughs_short_of_record', 'no_cycle', 'not_consistent', 'phase_locked'];
  const answers = [CROP, CROP_WEAK, FOREST, NONE];
  const heights = [CROP, MID, FOREST, NONE];
  const instrumentCodes = new Set(RULES.filter((r) => r.kind === 'instruments').map((r) => r.code));
  const positives = new Set(RULES.filter((r) => r.kind === 'instruments' && r.verdict === 'prior_management_evidenced').map((r) => r.code));
  let decided = 0;
  for (const cycle of cycles)
    for (const shade of answers)
      for (const radar of answers)
        for (const height of heights)
          for (const polarimetry of [true, false, null])
            for (const terrain of [true, false, null])
              for (const area of [SMALL, LARGE])
                for (const withheld of [false, true]) {
                  const context = withheld ? { inside_licensed_pulpwood_concession: true, eu_forest_maps_read_forest: true } : {};
                  const d = decide(inputOf({ cycle, shade, radar, polarimetry, height, terrain, area, context }));
                  decided++;
                  const own = d.reasons.filter((r) => instrumentCodes.has(r));
                  assert.equal(own.length, 1, 'exactly one instruments reason');
                  const at = d.reasons.indexOf(own[0]);
                  if (d.verdict === 'insufficient_record') assert.deepEqual(d.reasons, ['record_too_thin']);
                  assert.equal(d.reasons.includes('plot_below_evidence_floor'), area === SMALL && d.verdict !== 'insufficient_record');
                  if (area === SMALL && d.verdict !== 'insufficient_record') assert.equal(d.reasons.at(-1), 'plot_below_evidence_floor');
                  for (const r of d.reasons.slice(0, at)) assert.ok(CONTEXT_WITHHOLDINGS.includes(r));
                  assert.equal(at > 0, (withheld || cycle === 'troughs_short_of_record') && positives.has(own[0]));
                  if (d.verdict === 'prior_management_evidenced') assert.deepEqual(d.reasons, own);
                  if (!positives.has(own[0])) assert.equal(d.verdict, SPEC[own[0]]);
                  // A positive finding needs a phase-locked cycle (a short record is withheld) and no forest-like reading left standing.
                  if (d.verdict === 'prior_management_evidenced') assert.equal(cycle, 'phase_locked');
                  // …and radar or height confidently reading crop: shade never carries one.
                  if (positives.has(own[0])) assert.ok(radar === CROP || height === CROP, `${own[0]} without an independent confident crop reading`);
                }
  assert.equal(decided, 5 * 64 * 3 * 3 * 2 * 2);
});

test('a cycle class the table does not know is an error, never a finding', () => {
  assert.throws(
    () => decide(inputOf({ cycle: 'something_else' as CycleClass })),
    (e: unknown) => e instanceof DecisionError && e.code === 'no_rule_matched',
  );
});
