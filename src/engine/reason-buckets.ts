/**
 * The buckets the evidence summary counts finished plots in (spec 4.2: size-floor withholdings
 * apart from forest readings), each named for what decided the plot's answer.
 */
import { RULES, type Verdict } from './decide.ts';

/**
 * What decided a finished plot's answer, one bucket each, tried in this order: the evidence floor
 * (no positive finding under 4 ha, whatever was read), a context block withholding a positive
 * reading, then the instruments' own answer by verdict.
 */
export const REASON_BUCKETS = [
  'under_evidence_floor', 'withheld_by_context', 'finding_issued', 'withheld_by_instruments', 'no_prior_management', 'refused',
] as const;
export type ReasonBucket = (typeof REASON_BUCKETS)[number];

const CONTEXT_WITHHOLDINGS = new Set<string>(RULES.filter((r) => r.kind === 'withholding' && r.place === 'before' && r.by === 'context').map((r) => r.code));
const BUCKET_OF_VERDICT: Record<Verdict, ReasonBucket> = {
  prior_management_evidenced: 'finding_issued',
  prior_management_weak: 'withheld_by_instruments',
  no_prior_management_evidenced: 'no_prior_management',
  insufficient_record: 'refused',
};

/** The bucket of a finished plot, from its verdict, its `reason` and whether its `reasons` carry the floor. */
export function reasonBucket(verdict: Verdict, reason: string, underFloor: boolean): ReasonBucket {
  if (underFloor) return 'under_evidence_floor';
  if (CONTEXT_WITHHOLDINGS.has(reason)) return 'withheld_by_context';
  return BUCKET_OF_VERDICT[verdict];
}
