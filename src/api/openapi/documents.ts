import { CSV_COLUMNS } from '../../documents/book-summary.ts';
import { REASON_MEANINGS, VERDICT_MEANINGS } from '../../documents/meanings.ts';
import { NEXT_STEP_CODES } from '../../engine/next-step.ts';
import { PLANS, SEVERITIES } from '../../store/entities/index.ts';
import { authRefusals, json, nullable, ref, refusal, uuid, type Schema, withEntityTag } from './common.ts';

const count: Schema = { type: 'integer', minimum: 0 };
const countsOf = (keys: readonly string[], description: string): Schema => ({
  type: 'object',
  description,
  required: [...keys],
  additionalProperties: false,
  properties: Object.fromEntries(keys.map((k) => [k, count])),
});

/** The register's counts the book summary and the dashboard both serve. */
const registerCounts: Record<string, Schema> = {
  plots: count,
  evidence_states: countsOf(['none', 'queued', 'running', 'done', 'failed'], 'Plots by evidence state.'),
  state_tones: countsOf(['finding', 'record', 'forest_mapped'], 'Plots by the tone of their `state`.'),
  verdicts: countsOf(Object.keys(VERDICT_MEANINGS), 'Plots by the verdict on their register row; a plot without one is in none.'),
  next_steps: countsOf(NEXT_STEP_CODES, 'Plots by the code of their `next_step` (spec 2.14), as the CSV\'s `next_step` column has it: what each needs next. A plot with a positive finding has no next step and is counted in none.'),
  post_cutoff_loss: {
    type: 'object',
    required: ['plots', 'area_ha'],
    additionalProperties: false,
    description: 'Plots whose Landsat moist-forest record dates a loss of forest after the cutoff (their `post_cutoff_loss_share` is set), and the hectares lost on them together. It changes no verdict.',
    properties: { plots: count, area_ha: { type: 'number', minimum: 0 } },
  },
};

export const documentSchemas: Record<string, Schema> = {
  BookSummary: {
    type: 'object',
    required: ['plots', 'evidence_states', 'state_tones', 'state_labels', 'verdicts', 'reasons', 'next_steps', 'post_cutoff_loss', 'archive_review_price'],
    additionalProperties: false,
    properties: {
      ...registerCounts,
      state_labels: {
        type: 'object',
        description: 'Plots by the label of their `state`; every label is present.',
        additionalProperties: count,
      },
      reasons: countsOf(
        Object.keys(REASON_MEANINGS),
        'Plots by each code in their `reasons`: a plot under the 4 ha floor counts under `plot_below_evidence_floor` and under the reason its instruments reached.',
      ),
      archive_review_price: ref('ArchiveReviewPrice'),
    },
  },
  Dashboard: {
    type: 'object',
    required: [...Object.keys(registerCounts), 'open_alert_cases', 'shipments', 'allowance', 'archive_review_price'],
    additionalProperties: false,
    description: 'What a compliance officer looks at first. The register\'s counts are the book summary\'s (same pass, same rules): a plot is established before the cutoff only where `verdicts.prior_management_evidenced` counts it; `state_tones.finding` adds plots an archive review reading supports. Nothing here is a finding on its own: follow each count to the plots (GET /portal/plots with `state`, `post_cutoff_loss`) and their evidence.',
    properties: {
      ...registerCounts,
      open_alert_cases: {
        type: 'object',
        required: ['total', ...SEVERITIES],
        additionalProperties: false,
        description: 'Cases open on the alert queue (GET /eudr/alerts/cases), in all and by severity.',
        properties: { total: count, ...Object.fromEntries(SEVERITIES.map((s) => [s, count])) },
      },
      shipments: {
        type: 'object',
        required: ['total', 'all_read', 'waiting_on_reads'],
        additionalProperties: false,
        description: 'The workspace\'s shipments: `all_read` have every plot read or failed, `waiting_on_reads` a plot not read, queued or being read; a shipment without plots is in neither. Whether a statement is ready is answered by its own check.',
        properties: { total: count, all_read: count, waiting_on_reads: count },
      },
      allowance: {
        type: 'object',
        required: ['plan', 'cap', 'used', 'in_flight', 'remaining'],
        additionalProperties: false,
        description: 'The evidence allowance (as the evidence summary): reads in any 30 days.',
        properties: {
          plan: { enum: [...PLANS] },
          cap: nullable({ ...count, description: 'null on uncapped plans.' }),
          used: { ...count, description: 'Finished reads in the last 30 days.' },
          in_flight: { ...count, description: 'Plots queued or being read: admitted against the cap already.' },
          remaining: nullable({ ...count, description: 'What a run may still queue: cap less used and in flight; null on uncapped plans.' }),
        },
      },
      archive_review_price: ref('ArchiveReviewPrice'),
    },
  },
};

const plotId = { name: 'id', in: 'path', required: true, schema: uuid };
export const workspaceQuery = {
  name: 'workspace',
  in: 'query',
  required: false,
  schema: uuid,
  description: 'A signed-in session names its workspace here (or with X-Workspace-Id), so a link opens in a browser.',
};

export const documentPaths = {
  '/portal/dashboard': {
    get: {
      operationId: 'getDashboard',
      summary: 'The dashboard: the register by evidence state, verdict, state and next step, post-cutoff loss, open alert cases, shipments and the allowance',
      description: 'Reads only: plots left queued or running by a job that stopped are moved to `failed` by GET /portal/plots/evidence/summary, not here. A portal key or a member key reaches it.',
      responses: { '200': json(ref('Dashboard')), ...authRefusals },
    },
  },
  '/portal/plots/summary': {
    get: {
      operationId: 'getBookSummary',
      summary: 'Book summary: every plot with what the record shows on it, as counts or as a CSV row per plot',
      parameters: [
        {
          name: 'format',
          in: 'query',
          required: false,
          schema: { enum: ['json', 'csv'], default: 'json' },
          description:
            `\`json\`: counts by state tone and label, evidence state, verdict and reason, with the archive review price. \`csv\`: one row per plot in register order, streamed, with the columns ${CSV_COLUMNS.map((c) => `\`${c}\``).join(', ')}. \`state\` is the state's label, \`record\` its summary; \`reasons\` are joined by \`;\`; \`post_cutoff_loss_share\` is the share of the plot on which moist forest was lost after the cutoff (empty when none is dated); \`document_url\` is set once the evidence is read. A text starting with =, +, -, @, a tab or a carriage return is written with a leading apostrophe so a spreadsheet does not run it.`,
        },
        workspaceQuery,
      ],
      responses: {
        '200': {
          description: 'The summary',
          content: {
            'application/json': { schema: ref('BookSummary') },
            'text/csv': { schema: { type: 'string' } },
          },
        },
        ...authRefusals,
        '422': refusal('An unknown format', ['bad_format']),
      },
    },
  },
  '/portal/plots/{id}/evidence.pdf': {
    get: withEntityTag({
      operationId: 'getPlotEvidencePdf',
      summary: 'The evidence document (PDF), rendered from the stored evidence object the JSON route serves',
      description:
        'Carries the plot and its map, the verdict and every reason with its plain meaning, the finding, the seasonal record as a chart and a table, each instrument\'s answer, terrain, every context block with its source, the calibration, the next step, the scene identifiers, the issue time, and the content digest and signature with how to verify them against GET /evidence/public-key. Evidence from the demo archive says so on every page.',
      parameters: [plotId, workspaceQuery],
      responses: {
        '200': { description: 'The document', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } },
        ...authRefusals,
        '404': refusal('No such plot in the workspace', ['not_found']),
        '409': refusal('The read has not finished, or the evidence was withdrawn; the message names the plot\'s state', ['no_evidence']),
      },
    }, 'what the document is rendered from (the stored evidence, its reading, map and register facts, and the service version)'),
  },
};
