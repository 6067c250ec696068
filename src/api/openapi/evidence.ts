import { REASON_BUCKETS } from '../../engine/reason-buckets.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema, withIdempotencyKey, withEntityTag } from './common.ts';

const integer: Schema = { type: 'integer', minimum: 0 };
export const VERDICTS = ['prior_management_evidenced', 'prior_management_weak', 'no_prior_management_evidenced', 'insufficient_record'];
const countsBy = (description: string): Schema => ({ type: 'object', additionalProperties: integer, description });

export const evidenceSchemas: Record<string, Schema> = {
  EvidenceRunAnswer: {
    type: 'object',
    required: ['job_id', 'queued', 'cap', 'used_after'],
    additionalProperties: false,
    properties: {
      job_id: nullable({ ...uuid, description: 'The job reading the plots, one after another; null when nothing needed a read.' }),
      queued: integer,
      cap: nullable({ ...integer, description: 'Plot reads the plan allows in any 30 days; null on uncapped plans.' }),
      used_after: { ...integer, description: 'Reads used in the last 30 days once every queued and running read finishes.' },
      note: { type: 'string', description: 'Present when nothing needed a read.' },
    },
  },
  EvidenceSummary: {
    type: 'object',
    required: ['states', 'verdicts', 'reasons', 'cap', 'used', 'recovered', 'plan'],
    additionalProperties: false,
    properties: {
      states: {
        type: 'object',
        required: ['none', 'queued', 'running', 'done', 'failed'],
        additionalProperties: false,
        properties: { none: integer, queued: integer, running: integer, done: integer, failed: integer },
      },
      verdicts: { type: 'object', required: VERDICTS, additionalProperties: false, properties: Object.fromEntries(VERDICTS.map((v) => [v, integer])) },
      reasons: {
        type: 'object',
        required: [...REASON_BUCKETS],
        additionalProperties: false,
        description: 'Finished plots by `reason`, each plot in one bucket: what decided its answer, tried in the order listed.',
        properties: {
          under_evidence_floor: countsBy('Plots under the 4 ha evidence floor (their `reasons` carry `plot_below_evidence_floor`): no positive finding at that size, whatever was read.'),
          withheld_by_context: countsBy('A positive reading withheld by a context block: a concession, the Landsat record or the Commission\'s 2020 maps (`reason` names the block\'s code).'),
          finding_issued: countsBy('Positive findings (`prior_management_evidenced`), by the instruments\' reason.'),
          withheld_by_instruments: countsBy('The instruments\' own reading fell short of a finding (`prior_management_weak`).'),
          no_prior_management: countsBy('No canopy cycle over a well-observed record (`no_prior_management_evidenced`).'),
          refused: countsBy('Too few measured seasons to answer (`insufficient_record`).'),
        } satisfies Record<(typeof REASON_BUCKETS)[number], Schema>,
      },
      cap: nullable(integer),
      used: { ...integer, description: 'Finished reads in the last 30 days.' },
      recovered: {
        ...integer,
        description: 'Plots this call found queued or running under a job that had stopped (its process died past its retries, or the job ended without them). They were moved to `failed` (no allowance used; `all: true` retries them).',
      },
      plan: { enum: ['standard', 'trial', 'professional', 'enterprise'] },
    },
  },
  EvidenceWrapper: {
    type: 'object',
    required: ['plot_id', 'external_ref', 'state', 'issued', 'evidence', 'integrity', 'archive_review'],
    additionalProperties: false,
    properties: {
      plot_id: uuid,
      external_ref: nullable({ type: 'string' }),
      state: { enum: ['none', 'queued', 'running', 'done', 'failed'] },
      issued: timestamp,
      evidence: ref('EvidenceObject'),
      integrity: ref('Integrity'),
      archive_review: nullable({
        ...ref('ArchiveReview'),
        description: 'The dated reading of a sub-metre archive scene filed with this evidence (spec 2.7 lists it among the evidence object\'s fields), signed on its own; null when none is on record. It sits beside `evidence`, not inside it: a reviewer files it after the evidence was issued and signed, and may withdraw it, so it cannot be part of what `integrity` signed at issue; inside, it would change a signed object, or go unsigned. Its own `integrity` signs it under the same key, and `reading.evidence_digest` names the evidence it was filed with. Filing or withdrawing it changes neither `evidence` nor `integrity`.',
      }),
    },
  },
};

const plotId = { name: 'id', in: 'path', required: true, schema: uuid };

/** Listed before the plot family's paths: `/portal/plots/evidence` must not be taken for `/portal/plots/{id}`. */
export const evidencePaths = {
  '/portal/plots/evidence': {
    post: withIdempotencyKey({
      operationId: 'runEvidence',
      summary: 'Queue evidence reads: one job, its plots read one after another',
      description:
        'Answers at once. Plots move to `queued`; each finished read costs one unit of the allowance (a failed read none, a rerun one more). With nothing to read the call succeeds with `job_id: null`, `queued: 0` and a note, so a nightly run can be unconditional.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('EvidenceRunRequest') } } },
      responses: {
        '202': json(ref('EvidenceRunAnswer'), 'Queued'),
        '200': json(ref('EvidenceRunAnswer'), 'Nothing needed a read'),
        '401': authRefusals['401'],
        '403': refusal('The plan includes no plot evidence, or its allowance is reached (the message states used and remaining), or a portal seat is needed', ['plan_tier_required', 'evidence_cap', 'forbidden']),
        '404': refusal('A named plot is not in the workspace', ['not_found']),
        '422': refusal('Neither `all: true` nor `plot_ids` given, or a field of the wrong type', ['no_plots', 'bad_body', 'bad_plot_ids', 'bad_rerun', 'bad_all']),
        '503': refusal('The queue could not take the job; nothing was written, repeat the same call shortly', ['queue_unavailable']),
      },
    }),
  },
  '/portal/plots/evidence/summary': {
    get: {
      operationId: 'getEvidenceSummary',
      summary: 'Counts of the register by evidence state, verdict and reason, with the allowance; resolves plots left in flight by a job that died',
      responses: { '200': json(ref('EvidenceSummary')), ...authRefusals },
    },
  },
  '/portal/plots/{id}/evidence': {
    get: withEntityTag({
      operationId: 'getPlotEvidence',
      summary: 'The plot\'s evidence: the wrapper of spec 2.6 with its integrity block',
      parameters: [plotId],
      responses: {
        '200': json(ref('EvidenceWrapper')),
        ...authRefusals,
        '404': refusal('No such plot in the workspace', ['not_found']),
        '409': refusal('The plot has no finished evidence (not read, queued, running, failed, or withdrawn by a changed boundary); the message names its state', ['no_evidence']),
      },
    }, 'the answer (the evidence, its integrity and any archive review reading beside it)'),
  },
};
