import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findingSentence, unevenClause } from '../../src/engine/finding.ts';

const counts = { measured: 5, dipped: 5, seasons: 5 };

test('a positive finding says what the instruments found', () => {
  assert.equal(
    findingSentence({ verdict: 'prior_management_evidenced', reason: 'cycle_and_structure_agree', reasons: ['cycle_and_structure_agree'] }, counts),
    'Established plantation before the cutoff: the canopy wintered in each of the 5 dry seasons measured, in phase, and the structural readings agree that it is a crop.',
  );
});

test('a withheld positive reading names what withheld it first, then what the record shows', () => {
  const s = findingSentence({
    verdict: 'prior_management_weak', reason: 'inside_licensed_pulpwood_concession',
    reasons: ['inside_licensed_pulpwood_concession', 'cycle_and_structure_agree', 'plot_below_evidence_floor'],
  }, counts);
  assert.match(s, /^Withheld: the plot intersects a licensed pulpwood concession; and the plot is under the 4 ha evidence floor\. Read alone, the record shows an established plantation: the canopy wintered/);
});

test('a reading that is not positive keeps its own sentence, the floor added after it', () => {
  const s = findingSentence({ verdict: 'prior_management_weak', reason: 'cycle_not_consistent', reasons: ['cycle_not_consistent', 'plot_below_evidence_floor'] }, { measured: 5, dipped: 3, seasons: 5 });
  assert.match(s, /^The canopy dipped in 3 of the 5 dry seasons measured/);
  assert.match(s, /The plot is under the 4 ha evidence floor, so this reading stands as supporting evidence only\.$/);
});

test('a record too thin says how many seasons answered', () => {
  assert.equal(
    findingSentence({ verdict: 'insufficient_record', reason: 'record_too_thin', reasons: ['record_too_thin'] }, { measured: 1, dipped: 0, seasons: 5 }),
    'Too few dry seasons could be measured to answer: 1 of the 5 seasons read gave an answer.',
  );
});

test('a point read without a declared area says its area is not known to reach the floor, not that it is under it', () => {
  const positive = findingSentence({ verdict: 'prior_management_weak', reason: 'cycle_and_structure_agree', reasons: ['cycle_and_structure_agree', 'plot_below_evidence_floor'] }, { ...counts, floorOn: 'point_without_area' });
  assert.match(positive, /^Withheld: no area was declared for the point, so the plot is not shown to reach the 4 ha evidence floor\. Read alone, the record shows an established plantation/);
  const none = findingSentence({ verdict: 'no_prior_management_evidenced', reason: 'no_canopy_cycle', reasons: ['no_canopy_cycle', 'plot_below_evidence_floor'] }, { ...counts, floorOn: 'point_without_area' });
  assert.match(none, /No area was declared for the point, so the plot is not shown to reach the 4 ha evidence floor, so this reading stands as supporting evidence only\.$/);
});

test('a part of a multi-part plot under the floor says the part is under it, not the plot', () => {
  const s = findingSentence({ verdict: 'prior_management_weak', reason: 'cycle_and_structure_agree', reasons: ['cycle_and_structure_agree', 'plot_below_evidence_floor'] }, { ...counts, floorOn: 'part' });
  assert.match(s, /^Withheld: this part is under the 4 ha evidence floor\. Read alone, the record shows an established plantation/);
});

test('a record covering part of the plot says what share lies outside the archive\'s data, withheld or not', () => {
  const withheld = findingSentence({
    verdict: 'prior_management_weak', reason: 'record_covers_part_of_plot', reasons: ['record_covers_part_of_plot', 'cycle_and_structure_agree'],
  }, { ...counts, opticalCoverage: 0.62 });
  assert.match(withheld, /^Withheld: 38% of the plot lies outside the archive's Sentinel-2 and Landsat data, so the record says nothing of that part\. Read alone, the record shows an established plantation/);
  const negative = findingSentence({ verdict: 'no_prior_management_evidenced', reason: 'no_canopy_cycle', reasons: ['no_canopy_cycle'] }, { ...counts, opticalCoverage: 0.8 });
  assert.match(negative, /^No annual canopy cycle over the 5 dry seasons measured.* 20% of the plot lies outside the archive's Sentinel-2 and Landsat data and was not read\.$/);
  // Read whole, or with no scene kept, nothing is added.
  const whole = findingSentence({ verdict: 'no_prior_management_evidenced', reason: 'no_canopy_cycle', reasons: ['no_canopy_cycle'] }, { ...counts, opticalCoverage: 0.97 });
  assert.doesNotMatch(whole, /outside the archive/);
  assert.doesNotMatch(findingSentence({ verdict: 'insufficient_record', reason: 'record_too_thin', reasons: ['record_too_thin'] }, { ...counts, opticalCoverage: null }), /outside/);
});

test('a part unlike the rest of the plot is named with its share, where it lies and the instrument that saw it', () => {
  const uneven = [unevenClause('canopy height', 1.24, 0.113, 'in the north-east'), unevenClause('the dry-season dip', 0.8, 0.07, 'in the south')];
  const s = findingSentence({
    verdict: 'prior_management_weak', reason: 'ground_not_shown_uniform', reasons: ['ground_not_shown_uniform', 'cycle_and_structure_agree'],
  }, { ...counts, uneven });
  assert.match(s, /^Withheld: 1\.2 ha \(11%\) in the north-east reads unlike the rest of the plot on canopy height, so the plot is not shown to be one crop throughout; and 0\.8 ha \(7%\) in the south reads unlike the rest of the plot on the dry-season dip, so the plot is not shown to be one crop throughout\. Read alone, the record shows an established plantation/);
});

test('a short record with a dip says it is too short to test every part of the plot', () => {
  const s = findingSentence({
    verdict: 'prior_management_weak', reason: 'ground_not_shown_uniform', reasons: ['ground_not_shown_uniform', 'structure_confirmed_single_trough'],
  }, { measured: 1, dipped: 1, seasons: 5, shortRecord: true });
  assert.match(s, /^Withheld: with one dry season measured, the record is too short to show that every part of the plot winters\. Read alone, the record shows an established plantation: the canopy wintered in the one dry season that could be measured/);
});

test('surroundings that dip as the plot does are named with the seasons they dipped alike in', () => {
  const s = findingSentence({
    verdict: 'prior_management_weak', reason: 'surroundings_show_the_same_dip', reasons: ['surroundings_show_the_same_dip', 'cycle_and_structure_agree'],
  }, { ...counts, ring: { seen: 5, same: 4 } });
  assert.match(s, /^Withheld: the ground around the plot dipped at the same time and to the same depth in 4 of the 5 dry seasons it was seen in, so the dip may be the season's, as a deciduous forest's is, and is no evidence of how the plot was managed\. Read alone/);
});
