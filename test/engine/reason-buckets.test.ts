import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, NO_CONTEXT, RULES, type DecisionInput } from '../../src/engine/decide.ts';
import { REASON_BUCKETS, reasonBucket, type ReasonBucket } from '../../src/engine/reason-buckets.ts';

const crop = { forest_like: false, confident: true };
const forest = { forest_like: true, confident: true };
const silent = { forest_like: null, confident: false };
/** Canopy height's answer: the same, read off the lines rather than between them. */
const h = (a: typeof crop | typeof forest | typeof silent) => ({ ...a, between_lines: false });
const input = (edit: Partial<DecisionInput> = {}): DecisionInput => ({
  plot_area_km2: 0.1,
  area_known: true,
  cycle: 'phase_locked',
  shade: crop,
  radar: { ...crop, polarimetry_cultivated: null },
  height: h(crop),
  terrain_outside: false,
  context: NO_CONTEXT,
  ...edit,
});

// One row per kind of answer the decision table (spec 2.9, 2.10) gives, with the bucket the summary counts it in.
const TABLE: Array<[string, DecisionInput, ReasonBucket]> = [
  ['a positive finding is issued', input(), 'finding_issued'],
  ['a positive reading under 4 ha is counted under the floor', input({ plot_area_km2: 0.024 }), 'under_evidence_floor'],
  ['a reading without a finding under 4 ha is counted under the floor', input({ plot_area_km2: 0.024, cycle: 'not_consistent' }), 'under_evidence_floor'],
  ['a positive reading of a point with no declared area is counted under the floor', input({ plot_area_km2: 0.04, area_known: false }), 'under_evidence_floor'],
  ['a finding withheld by a context block under 4 ha is counted under the floor',
    input({ plot_area_km2: 0.03, context: { ...NO_CONTEXT, eu_forest_maps_read_forest: true } }), 'under_evidence_floor'],
  ['a finding withheld by the Commission\'s 2020 maps', input({ context: { ...NO_CONTEXT, eu_forest_maps_read_forest: true } }), 'withheld_by_context'],
  ['a finding withheld by a pulpwood concession', input({ context: { ...NO_CONTEXT, inside_licensed_pulpwood_concession: true } }), 'withheld_by_context'],
  ['a finding withheld by the Landsat record', input({ context: { ...NO_CONTEXT, landsat_record_reads_undisturbed_forest: true } }), 'withheld_by_context'],
  ['a finding withheld for an optical record covering part of the plot', input({ optical_coverage: 0.6 }), 'withheld_by_context'],
  ['a structural instrument reading forest withholds by the instruments', input({ height: h(forest) }), 'withheld_by_instruments'],
  ['a part of the plot unlike the rest withholds by the instruments', input({ uneven_part: true }), 'withheld_by_instruments'],
  ['a short record withholds by the instruments', input({ cycle: 'troughs_short_of_record' }), 'withheld_by_instruments'],
  ['surroundings that dip as the plot does withhold by the instruments', input({ ring_shares_dip: true }), 'withheld_by_instruments'],
  ['no structural reading withholds by the instruments', input({ shade: silent, radar: { ...silent, polarimetry_cultivated: null }, height: h(silent) }), 'withheld_by_instruments'],
  ['no canopy cycle over a well-observed record', input({ cycle: 'no_cycle', shade: forest, radar: { ...forest, polarimetry_cultivated: null }, height: h(forest) }), 'no_prior_management'],
  ['a record too thin to answer is refused', input({ cycle: 'too_thin' }), 'refused'],
  ['a record too thin to answer is refused under 4 ha too (the floor rides on answers only)', input({ cycle: 'too_thin', plot_area_km2: 0.01 }), 'refused'],
];

for (const [name, decisionInput, bucket] of TABLE) {
  test(`${name}: ${bucket}`, () => {
    const d = decide(decisionInput);
    assert.equal(reasonBucket(d.verdict, d.reason, d.reasons.includes('plot_below_evidence_floor')), bucket);
  });
}

test('every bucket is reached by a row of the table', () => {
  const reached = new Set(TABLE.map(([, , bucket]) => bucket));
  for (const bucket of REASON_BUCKETS) assert.ok(reached.has(bucket), `${bucket} is never reached`);
});

test('every context withholding of the decision table is counted as withheld by context, every other by the instruments', () => {
  for (const rule of RULES) {
    if (rule.kind === 'withholding' && rule.code !== 'plot_below_evidence_floor') {
      assert.equal(reasonBucket('prior_management_weak', rule.code, false), rule.by === 'context' ? 'withheld_by_context' : 'withheld_by_instruments', rule.code);
    }
  }
});
