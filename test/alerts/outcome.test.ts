/** The outcome table of spec 2.11 and 3.2, row by row, over every evidence state and verdict. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertOutcome, OUTCOME_STATEMENTS } from '../../src/alerts/outcome.ts';
import { EVIDENCE_STATES } from '../../src/store/entities/index.ts';

const VERDICTS = ['prior_management_evidenced', 'prior_management_weak', 'no_prior_management_evidenced', 'insufficient_record'];

test('the outcome table: prior_management only after a prior_management_evidenced verdict', () => {
  const rows: Array<[string, string | null, string, string]> = [
    ['done', 'prior_management_evidenced', 'prior_management', OUTCOME_STATEMENTS.prior_management],
    ['done', 'prior_management_weak', 'unresolved', OUTCOME_STATEMENTS.unresolved],
    ['done', 'no_prior_management_evidenced', 'unresolved', OUTCOME_STATEMENTS.unresolved],
    ['done', 'insufficient_record', 'unresolved', OUTCOME_STATEMENTS.unresolved],
    ['failed', null, 'unresolved', OUTCOME_STATEMENTS.unresolved],
    ['none', null, 'unresolved', OUTCOME_STATEMENTS.never_read],
    ['queued', null, 'pending', OUTCOME_STATEMENTS.pending],
    ['running', null, 'pending', OUTCOME_STATEMENTS.pending],
  ];
  for (const [state, verdict, outcome, statement] of rows) {
    assert.deepEqual(alertOutcome(state as never, verdict), { outcome, statement }, `${state} ${verdict}`);
  }
});

test('a job holding the alert is pending whatever verdict an earlier read left', () => {
  for (const verdict of [null, ...VERDICTS]) {
    for (const state of EVIDENCE_STATES.filter((s) => s === 'queued' || s === 'running')) assert.equal(alertOutcome(state, verdict).outcome, 'pending');
  }
});

test('the statements say what the spec\'s table says', () => {
  assert.match(OUTCOME_STATEMENTS.prior_management, /under cultivation before the cutoff.*replanting on an established plot/);
  assert.match(OUTCOME_STATEMENTS.unresolved, /could not be established.*passed for review/);
  assert.match(OUTCOME_STATEMENTS.never_read, /not read.*submit/);
  assert.match(OUTCOME_STATEMENTS.pending, /being read/);
});
