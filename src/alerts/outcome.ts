/**
 * The alert outcome (spec 2.11 outcome table, 3.2), derived from the plot's evidence state and
 * verdict: `pending` while a job holds the alert, `prior_management` after a
 * `prior_management_evidenced` verdict, `unresolved` after any other finished state (a withheld
 * verdict, a failed read) or when the read was never queued.
 */
import type { EvidenceState } from '../store/entities/index.ts';

export const ALERT_OUTCOMES = ['prior_management', 'unresolved', 'pending'] as const;
export type AlertOutcome = (typeof ALERT_OUTCOMES)[number];

export const OUTCOME_STATEMENTS = {
  prior_management:
    'The ground was under cultivation before the cutoff (31 December 2020); a canopy change is consistent with replanting on an established plot.',
  unresolved: 'Prior management could not be established; the alert is passed for review with its seasons, instruments and scene identifiers.',
  never_read: 'Evidence was not read; submit the alert again.',
  pending: 'Evidence is being read.',
} as const;

export interface Adjudication {
  outcome: AlertOutcome;
  statement: string;
}

export function alertOutcome(state: EvidenceState, verdict: string | null): Adjudication {
  if (state === 'queued' || state === 'running') return { outcome: 'pending', statement: OUTCOME_STATEMENTS.pending };
  if (state === 'none') return { outcome: 'unresolved', statement: OUTCOME_STATEMENTS.never_read };
  if (state === 'done' && verdict === 'prior_management_evidenced') return { outcome: 'prior_management', statement: OUTCOME_STATEMENTS.prior_management };
  return { outcome: 'unresolved', statement: OUTCOME_STATEMENTS.unresolved };
}
