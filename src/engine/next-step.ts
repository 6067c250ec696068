/**
 * What a plot needs next (spec 2.14 `next_step`, 3.1): null on a positive finding, otherwise a
 * stable `code` a pipeline routes on and a `note` a person reads. The evidence assembler stores it
 * in the evidence object; the register and the failed-read event ask it for plots without one.
 *
 * Rows are tried in order and the first that holds decides. The evidence floor comes before the
 * verdict: under 4 ha no positive finding is issued whatever the record says, so the floor's own
 * step is the one that moves such a plot on.
 */
import { EVIDENCE_FLOOR_KM2, type ReasonCode, type Verdict } from './decide.ts';
import type { ReadState } from './plot-state.ts';

export const NEXT_STEP_CODES = [
  /** Withheld: an archive review at sub-metre resolution, or records. */
  'archive_imagery_review',
  /** Under the 4 ha evidence floor: records or a field visit. */
  'below_evidence_floor',
  /** Too few dry seasons could be measured: running again reads the same archive. */
  'supply_other_evidence',
  /** No canopy cycle over a well-observed record. */
  'document_prior_use',
  /** The read failed; it cost nothing. */
  'run_again',
  /** No archive covers the place: reading again cannot help; the coordinates are checked. */
  'check_location',
  /** Never read, or the evidence was withdrawn by a changed boundary. */
  'run_evidence',
  /** Rejected at upload, or without a geometry: never read until corrected. */
  'correct_and_upload_again',
  /** Queued or being read. */
  'await_read',
] as const;
export type NextStepCode = (typeof NEXT_STEP_CODES)[number];

export interface NextStep {
  code: NextStepCode;
  note: string;
}

/**
 * How a read that found no archive over the plot states it (src/engine/plan/read-plan.ts); a failure
 * recorded with it is not one a second read can mend.
 */
export const NO_ARCHIVE_COVERS = 'no archive covers the plot';

export interface NextStepInput {
  evidence_state: ReadState;
  /** A failed read's recorded reason. */
  error?: string | null;
  /** The stored verdict; null while nothing is stored. */
  verdict: Verdict | null;
  /** The stored `reasons`; the floor is read from them as well as from the area. */
  reasons?: readonly ReasonCode[] | null;
  area_ha: number | null;
  /** False when no read can be run on the plot (rejected at upload, or no geometry). */
  readable?: boolean;
}

const FLOOR_HA = EVIDENCE_FLOOR_KM2 * 100;
const RECORDS = 'a planting record, a title document or a field visit';

export const NEXT_STEP_NOTES: Record<NextStepCode, string> = {
  archive_imagery_review:
    'The satellite record alone does not carry a finding on this plot. An archive imagery review reads a ' +
    'sub-metre archive scene of the plot from before the cutoff and returns a dated statement of what it ' +
    'shows, filed with this same document; the imagery itself is not supplied. Otherwise the plot goes on ' +
    `to ${RECORDS}, with its reasons attached.`,
  below_evidence_floor:
    'The plot is under the 4 ha evidence floor, or is a point with no declared area and so not shown to reach it: ' +
    'no positive finding is issued from the satellite record at ' +
    `this size, and its reading stands as supporting evidence only. The plot goes on to ${RECORDS}, with ` +
    'this document attached.',
  supply_other_evidence:
    'Too few dry seasons before the cutoff could be measured to answer. Running the read again reads the ' +
    `same archive and will not add seasons; prior use is shown instead with ${RECORDS}, or an archive ` +
    'imagery review of a sub-metre scene from before the cutoff.',
  document_prior_use:
    'A well-observed record shows no annual canopy cycle, so the record gives no evidence of management ' +
    `before the cutoff. If the plot held a crop before 31 December 2020, show it with ${RECORDS}.`,
  run_again: 'The read failed and used none of the allowance. Run evidence for this plot again.',
  check_location:
    'No archive covers the place the plot stands (open ocean, or a pole), so reading it again reads nothing again. ' +
    'Check its coordinates (longitude and latitude exchanged put a plot in the sea), correct them and upload it again; it used none of the allowance.',
  run_evidence: 'No evidence is held for this plot. Run evidence for it.',
  correct_and_upload_again:
    'The plot was rejected at upload or has no boundary, so it cannot be read. Correct it as its validation ' +
    'report says and upload it again; once it is valid, run evidence for it.',
  await_read: 'The read is queued or under way; the evidence appears when it finishes.',
};

const step = (code: NextStepCode): NextStep => ({ code, note: NEXT_STEP_NOTES[code] });

export function nextStep(input: NextStepInput): NextStep | null {
  switch (input.evidence_state) {
    case 'failed':
    case 'none':
      if (input.readable === false) return step('correct_and_upload_again');
      if (input.evidence_state === 'none') return step('run_evidence');
      return step(input.error?.includes(NO_ARCHIVE_COVERS) ? 'check_location' : 'run_again');
    case 'queued':
    case 'running':
      return step('await_read');
    case 'done':
      break;
  }
  if (input.verdict === null) return step('run_evidence');
  if (input.verdict === 'prior_management_evidenced') return null;
  const underFloor =
    (input.area_ha !== null && Number.isFinite(input.area_ha) && input.area_ha < FLOOR_HA) ||
    (input.reasons ?? []).includes('plot_below_evidence_floor');
  if (underFloor) return step('below_evidence_floor');
  switch (input.verdict) {
    case 'prior_management_weak':
      return step('archive_imagery_review');
    case 'insufficient_record':
      return step('supply_other_evidence');
    case 'no_prior_management_evidenced':
      return step('document_prior_use');
  }
}
