import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEXT_STEP_CODES, NEXT_STEP_NOTES, nextStep, type NextStepCode, type NextStepInput } from '../../src/engine/next-step.ts';

const done = (verdict: NextStepInput['verdict'], area_ha: number, reasons: NextStepInput['reasons'] = null): NextStepInput => ({
  evidence_state: 'done',
  verdict,
  reasons,
  area_ha,
});

// One row per case of spec 2.14 and 3.1, with the code it must give (null: no next step).
const TABLE: Array<[string, NextStepInput, NextStepCode | null]> = [
  ['a positive finding has no next step', done('prior_management_evidenced', 9.2, ['cycle_and_structure_agree']), null],
  ['a withheld plot goes to an archive imagery review', done('prior_management_weak', 9.2, ['structural_reading_says_forest']), 'archive_imagery_review'],
  ['a finding withheld by a context block goes to an archive imagery review', done('prior_management_weak', 12, ['planted_forest_2020', 'cycle_and_structure_agree']), 'archive_imagery_review'],
  ['a positive reading under 4 ha carries the floor\'s step', done('prior_management_weak', 2.4, ['cycle_and_structure_agree', 'plot_below_evidence_floor']), 'below_evidence_floor'],
  ['a withheld reading under 4 ha carries the floor\'s step', done('prior_management_weak', 3.9, ['cycle_not_consistent', 'plot_below_evidence_floor']), 'below_evidence_floor'],
  ['no canopy cycle under 4 ha carries the floor\'s step', done('no_prior_management_evidenced', 1, ['no_canopy_cycle', 'plot_below_evidence_floor']), 'below_evidence_floor'],
  ['a refusal under 4 ha (its code alone in reasons) carries the floor\'s step by its area', done('insufficient_record', 3, ['record_too_thin']), 'below_evidence_floor'],
  ['the floor in reasons decides when the area is unknown', done('prior_management_weak', Number.NaN, ['cycle_and_structure_agree', 'plot_below_evidence_floor']), 'below_evidence_floor'],
  ['a plot of exactly 4 ha is not under the floor', done('prior_management_weak', 4, ['no_structural_reading']), 'archive_imagery_review'],
  ['an insufficient record asks for other evidence', done('insufficient_record', 9, ['record_too_thin']), 'supply_other_evidence'],
  ['no prior management asks for the use to be documented', done('no_prior_management_evidenced', 8, ['no_canopy_cycle']), 'document_prior_use'],
  ['a failed read runs again', { evidence_state: 'failed', verdict: null, area_ha: 9 }, 'run_again'],
  ['a failed read under 4 ha still runs again', { evidence_state: 'failed', verdict: null, area_ha: 1 }, 'run_again'],
  ['a read that found no archive over the plot checks its place, since reading again cannot help', { evidence_state: 'failed', verdict: null, area_ha: 9, error: 'The read could not be completed: no archive covers the plot: nothing was read' }, 'check_location'],
  ['a read that failed otherwise runs again', { evidence_state: 'failed', verdict: null, area_ha: 9, error: 'The archive could not be read (timeout): slow' }, 'run_again'],
  ['an unread plot runs evidence', { evidence_state: 'none', verdict: null, area_ha: 9 }, 'run_evidence'],
  ['a rejected plot is corrected and uploaded again, never run as it stands', { evidence_state: 'none', verdict: null, area_ha: 9, readable: false }, 'correct_and_upload_again'],
  ['a plot rejected since its read failed is corrected, not run again', { evidence_state: 'failed', verdict: null, area_ha: 9, readable: false }, 'correct_and_upload_again'],
  ['a plot whose evidence was withdrawn runs evidence, whatever verdict lingers', { evidence_state: 'none', verdict: 'prior_management_evidenced', area_ha: 9 }, 'run_evidence'],
  ['a queued plot waits for its read', { evidence_state: 'queued', verdict: null, area_ha: 9 }, 'await_read'],
  ['a plot being read waits for its read', { evidence_state: 'running', verdict: null, area_ha: 9 }, 'await_read'],
  ['a read re-queued over a finding waits, not null', { evidence_state: 'queued', verdict: 'prior_management_evidenced', area_ha: 9 }, 'await_read'],
  ['a finished state with nothing stored runs evidence', { evidence_state: 'done', verdict: null, area_ha: 9 }, 'run_evidence'],
];

for (const [name, input, code] of TABLE) {
  test(name, () => {
    const step = nextStep(input);
    if (code === null) {
      assert.equal(step, null);
      return;
    }
    assert.ok(step);
    assert.equal(step.code, code);
    assert.equal(step.note, NEXT_STEP_NOTES[code]);
  });
}

test('every code is reached by a row of the table', () => {
  const reached = new Set(TABLE.map(([, , code]) => code));
  for (const code of NEXT_STEP_CODES) assert.ok(reached.has(code), `${code} is never reached`);
});

test('the archive review note refers to a sub-metre archive and a dated statement filed with the document, never the imagery', () => {
  const note = nextStep(done('prior_management_weak', 9, ['cycle_not_consistent']))!.note;
  assert.match(note, /sub-metre/);
  assert.match(note, /dated statement/);
  assert.match(note, /filed with this same document/);
  assert.match(note, /imagery itself is not supplied/);
});

test('the floor\'s note names the 4 ha floor', () => {
  assert.match(nextStep(done('prior_management_weak', 2, ['cycle_and_structure_agree', 'plot_below_evidence_floor']))!.note, /4 ha evidence floor/);
});

test('every note is a sentence of its own', () => {
  const notes = NEXT_STEP_CODES.map((c) => NEXT_STEP_NOTES[c]);
  assert.equal(new Set(notes).size, notes.length);
  for (const note of notes) assert.match(note, /^[A-Z].*\.$/);
});
