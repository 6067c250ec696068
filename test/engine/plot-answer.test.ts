/**
 * The answer of a plot read in several parts (engine/plot-parts.ts), table-tested: the caution
 * order of answers, the plot taking its most cautious part's answer, and the finding naming parts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision, ReasonCode, Verdict } from '../../src/engine/decide.ts';
import { plotFootprint } from '../../src/engine/footprint.ts';
import { caution, type PartAnswer, plotAnswer, plotParts, unreadPartAnswer } from '../../src/engine/plot-parts.ts';
import type { PlotToRead } from '../../src/engine/plan/read-plan.ts';
import { polygonsAreaHa } from '../../src/intake/geodesic.ts';

const decision = (verdict: Verdict, ...reasons: ReasonCode[]): Decision => ({ verdict, reason: reasons[0], reasons });

// Least cautious first; answers on one row are equally cautious.
const ORDER: Decision[][] = [
  [decision('prior_management_evidenced', 'cycle_and_structure_agree'), decision('prior_management_evidenced', 'shade_veto_overruled_by_two_confident_readings')],
  [
    decision('prior_management_weak', 'cycle_and_structure_agree', 'plot_below_evidence_floor'),
    decision('prior_management_weak', 'eu_forest_maps_read_forest', 'cycle_and_structure_agree'),
    decision('prior_management_weak', 'landsat_record_unavailable', 'cycle_and_structure_agree'),
  ],
  [
    decision('prior_management_weak', 'structural_reading_says_forest'),
    // The instruments' own reading of the ground withheld it: a part unlike the rest, a short record, surroundings that dip alike.
    decision('prior_management_weak', 'ground_not_shown_uniform', 'cycle_and_structure_agree'),
    decision('prior_management_weak', 'landsat_record_unavailable', 'ground_not_shown_uniform', 'structure_confirmed_single_trough'),
    decision('prior_management_weak', 'surroundings_show_the_same_dip', 'cycle_and_structure_agree'),
    decision('prior_management_weak', 'cycle_not_consistent', 'plot_below_evidence_floor'),
    decision('prior_management_weak', 'evergreen_canopy_unsupported'),
  ],
  [decision('insufficient_record', 'record_too_thin')],
  [decision('no_prior_management_evidenced', 'no_canopy_cycle'), decision('no_prior_management_evidenced', 'no_canopy_cycle', 'plot_below_evidence_floor')],
];

test('answers rank from a positive finding, through withheld plantation readings and the instruments\' own withholdings, a refusal, to no cycle', () => {
  ORDER.forEach((row, rank) => {
    for (const d of row) assert.equal(caution(d), rank, `${d.verdict} ${d.reasons.join(',')}`);
  });
});

const square = (x: number): PlotToRead['geometry'] => ({ type: 'Polygon', coordinates: [[[x, 5], [x + 0.002, 5], [x + 0.002, 5.002], [x, 5.002], [x, 5]]] });
const part = (d: Decision, x = 10): PartAnswer => ({ footprint: plotFootprint(square(x), 4.9, null), decision: d, finding: `Finding of ${d.reason}.`, read: null, notRead: null });

const evidenced = decision('prior_management_evidenced', 'cycle_and_structure_agree');
const forest = decision('prior_management_weak', 'structural_reading_says_forest');
const noCycle = decision('no_prior_management_evidenced', 'no_canopy_cycle');

const CASES: Array<{ name: string; parts: Decision[]; verdict: Verdict; governing: number }> = [
  { name: 'every part positive: positive', parts: [evidenced, evidenced], verdict: 'prior_management_evidenced', governing: 0 },
  { name: 'one part reading forest withholds the plot', parts: [evidenced, forest], verdict: 'prior_management_weak', governing: 1 },
  { name: 'no cycle on one part outranks a withheld reading on another', parts: [forest, noCycle, evidenced], verdict: 'no_prior_management_evidenced', governing: 1 },
  { name: 'the first of equally cautious parts governs', parts: [evidenced, forest, forest], verdict: 'prior_management_weak', governing: 1 },
];

for (const c of CASES) {
  test(`a plot in parts: ${c.name}`, () => {
    const answer = plotAnswer(c.parts.map((d, k) => part(d, 10 + k * 0.01)));
    assert.equal(answer.decision.verdict, c.verdict);
    assert.deepEqual(answer.decision, c.parts[c.governing]);
    assert.deepEqual(answer.parts.map((p) => [p.part, p.verdict, p.reasons]), c.parts.map((d, k) => [k + 1, d.verdict, d.reasons]));
  });
}

test('the finding names the governing part and the others when the parts differ, and says when they agree', () => {
  const differ = plotAnswer([part(evidenced), part(forest, 10.01)]);
  assert.match(differ.finding, /^Read part by part, the plot takes the answer of its most cautious part\. Part 2 of 2 \(4\.90 ha\): Finding of structural_reading_says_forest\. Part 1 of 2 \(4\.90 ha\): prior_management_evidenced \(cycle_and_structure_agree\)\.$/);
  const alike = plotAnswer([part(evidenced), part(evidenced, 10.01)]);
  assert.equal(alike.finding, 'Each of the 2 parts, read on its own, reaches the same answer; part 1 of 2 (4.90 ha) reads: Finding of cycle_and_structure_agree.');
});

test('a part nothing was read on answers as a record too thin and says why', () => {
  const unread = unreadPartAnswer({ id: 'p', workspaceId: 'w', ref: null, geometry: square(-30), areaHa: 4.9, declaredAreaHa: null, country: null, producerCountry: null }, 'no archive covers the plot');
  assert.deepEqual(unread.decision, decision('insufficient_record', 'record_too_thin'));
  assert.equal(unread.finding, 'Nothing was read on this part: no archive covers the plot.');
  const answer = plotAnswer([part(evidenced), unread]);
  assert.equal(answer.decision.verdict, 'insufficient_record');
  assert.deepEqual([answer.parts[1].read, answer.parts[1].not_read, answer.parts[1].pixels], [false, 'no archive covers the plot', 0]);
});

test('a MultiPolygon splits into polygon plots of their own measured area; a polygon, a point and a one-part MultiPolygon stay whole', () => {
  const a = (square(10) as { coordinates: number[][][] }).coordinates;
  const b = (square(11) as { coordinates: number[][][] }).coordinates;
  const plot: PlotToRead = { id: 'p', workspaceId: 'w', ref: 'r', geometry: { type: 'MultiPolygon', coordinates: [a, b] }, areaHa: 9.8, declaredAreaHa: 9.8, country: 'GH', producerCountry: null };
  const parts = plotParts(plot);
  assert.deepEqual(parts.map((p) => p.geometry), [{ type: 'Polygon', coordinates: a }, { type: 'Polygon', coordinates: b }]);
  for (const p of parts) {
    assert.equal(p.areaHa, polygonsAreaHa([p.geometry.coordinates as [number, number][][]]));
    assert.deepEqual([p.id, p.ref, p.country, p.declaredAreaHa], ['p', 'r', 'GH', null]);
  }
  for (const geometry of [square(10), { type: 'Point' as const, coordinates: [10, 5] }, { type: 'MultiPolygon' as const, coordinates: [a] }]) {
    assert.deepEqual(plotParts({ ...plot, geometry }), [{ ...plot, geometry }]);
  }
});
