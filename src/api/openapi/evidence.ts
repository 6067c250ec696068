import { REASON_BUCKETS } from '../../engine/reason-buckets.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema } from './common.ts';

const integer: Schema = { type: 'integer', minimum: 0 };
const num = nullable({ type: 'number' });
const answer = nullable({ type: 'boolean', description: 'true forest-like, false not, null when the instrument could not answer (`refusal` says why).' });
const refusalText = nullable({ type: 'string', description: 'Why the instrument could not answer, in words; null when it answered.' });
const confident: Schema = { type: 'boolean', description: 'The answer cleared its line by the instrument\'s margin (the line itself is not served); false when the instrument did not answer.' };
const instrumentBlocks = nullable(ref('EvidenceBlocks'));
const block = (description: string): Schema => ({ type: 'object', description });
const VERDICTS = ['prior_management_evidenced', 'prior_management_weak', 'no_prior_management_evidenced', 'insufficient_record'];
/** Not required: evidence issued before coverage was measured lacks it. */
const coverage = (what: string): Schema => nullable({
  type: 'number', minimum: 0, maximum: 1,
  description: `Share of the plot's pixels ${what} (0..1): fill, nodata and ground beyond the archive's tiles count as not read.`,
});
const countsBy = (description: string): Schema => ({ type: 'object', additionalProperties: integer, description });

/** Engine-owned parts are closed (`additionalProperties: false`), so the withdrawn decision lines (spec 2.7 rule 2) cannot appear. */
export const evidenceSchemas: Record<string, Schema> = {
  EvidenceRunRequest: {
    type: 'object',
    description: 'Either `all: true` (every valid or repaired plot with a geometry and no evidence yet, failed reads included) or `plot_ids` (with `rerun: true` to read again a plot whose evidence exists or is in flight).',
    properties: {
      all: { type: 'boolean' },
      plot_ids: { type: 'array', items: uuid, minItems: 1 },
      rerun: { type: 'boolean', default: false },
    },
  },
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
          withheld_by_context: countsBy('A positive reading withheld by a context block: a concession, the Landsat record or the Commission\'s 2020 maps (`reason` names the block\'s code), or by an optical record covering under 95% of the plot (`record_covers_part_of_plot`).'),
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
  EvidenceSeason: {
    type: 'object',
    required: ['season', 'label', 'observations', 'plateau', 'trough', 'trough_date', 'depth', 'dipped', 'no_answer', 'truncated', 'last_observed'],
    additionalProperties: false,
    properties: {
      season: { type: 'integer' },
      label: { type: 'string' },
      observations: integer,
      plateau: num,
      trough: num,
      trough_date: nullable({ type: 'string', format: 'date' }),
      depth: num,
      dipped: { type: 'boolean' },
      no_answer: { type: 'boolean' },
      truncated: { type: 'boolean' },
      last_observed: nullable({ type: 'string', format: 'date' }),
    },
  },
  EvidencePart: {
    type: 'object',
    description: 'One part of a multi-part plot, read on its own as a polygon plot: its own scenes, instruments, maps and decision, on the archives\' tiles under it. The evidence floor applies to each part\'s own area.',
    additionalProperties: false,
    required: ['part', 'area_ha', 'centroid', 'read', 'not_read', 'verdict', 'reason', 'reasons', 'pixels', 'scenes_kept', 'seasons_observed', 'tiles', 'protected_area_intersects', 'finding'],
    properties: {
      part: { type: 'integer', minimum: 1, description: 'Its place in the uploaded MultiPolygon, from 1.' },
      area_ha: { type: 'number' },
      centroid: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2, description: '[longitude, latitude] of the part\'s centre of mass.' },
      read: { type: 'boolean', description: 'False when no archive holds anything over the part; `not_read` says why, and the part answers `insufficient_record`.' },
      not_read: nullable({ type: 'string' }),
      verdict: { enum: VERDICTS },
      reason: { type: 'string' },
      reasons: { type: 'array', items: { type: 'string' }, minItems: 1 },
      pixels: { ...integer, description: 'Part pixels on the optical grid; 0 when nothing was read.' },
      scenes_kept: integer,
      seasons_observed: integer,
      tiles: {
        type: 'object',
        additionalProperties: false,
        required: ['radar', 'height'],
        properties: { radar: nullable({ type: 'string' }), height: nullable({ type: 'string' }) },
        description: 'The radar and canopy-height tiles read under the part.',
      },
      protected_area_intersects: nullable({ type: 'boolean', description: 'Whether the part intersects a protected area on the open map layer (context only, as `risk.protected_area`, which is the governing part\'s); null when not checked.' }),
      finding: { type: 'string', description: 'The part\'s own finding sentence.' },
    },
  },
  EvidenceBlocks: {
    type: 'object',
    description: 'What an instrument read per sub-plot block, so that no part of the plot is averaged away: blocks are cells of `cell_m` metres on two lattices anchored at the footprint\'s south-west corner, the second shifted by half a cell. A plot pixel is forest-like when a block of either lattice holding it reads forest-like; the plot reads forest-like on the instrument when that part covers more than 0.5 ha or a tenth of the plot, whichever is smaller. Null on an instrument that could not answer over the plot.',
    additionalProperties: false,
    required: ['cell_m', 'blocks', 'blocks_read', 'forest_like_blocks', 'forest_like_ha', 'forest_like_share', 'forest_like_where'],
    properties: {
      cell_m: { type: 'number' },
      blocks: { ...integer, description: 'Blocks of both lattices holding plot pixels.' },
      blocks_read: { ...integer, description: 'Blocks with enough pixels for the instrument to answer.' },
      forest_like_blocks: integer,
      forest_like_ha: { type: 'number', description: 'Ground of the plot lying in forest-like blocks.' },
      forest_like_share: nullable({ type: 'number', description: 'That ground as a share of the plot (0..1).' }),
      forest_like_where: nullable({ type: 'string', description: 'Where it lies: `in the` and a compass direction from the plot\'s middle, or `across the plot`; null when no part is forest-like.' }),
    },
  },
  EvidenceObject: {
    type: 'object',
    description: 'The evidence object of one read (spec 2.7). Decision lines are never served; readings and categorical answers are.',
    additionalProperties: false,
    required: [
      'aoi_name', 'engine_version', 'operating_points_version', 'cutoff', 'issued', 'plot_area_km2', 'evidence_floor_km2', 'calibration', 'risk', 'settlement', 'history', 'footprint', 'read',
      'verdict', 'reason', 'reasons', 'finding', 'seasons', 'seasons_observed', 'seasons_with_dip', 'phase_locked', 'dip_blocks', 'phase_sd_days', 'mean_depth',
      'seasons_without_answer', 'structure', 'radar', 'height', 'terrain', 'scenes', 'skipped', 'posture', 'baseline_note', 'next_step',
      'post_cutoff_loss', 'forest_types', 'commodity_maps', 'whisp', 'synthetic',
    ],
    properties: {
      aoi_name: { type: 'string', description: 'The caller\'s reference; empty when the plot was registered without one.' },
      engine_version: { type: 'string', description: 'The version of the service that read the plot.' },
      operating_points_version: { type: 'string', description: 'The version of the decision lines the instruments were read against; the lines themselves are not served.' },
      cutoff: { type: 'string', format: 'date' },
      issued: timestamp,
      plot_area_km2: { type: 'number' },
      evidence_floor_km2: { type: 'number' },
      calibration: block('Where the decision margins were measured (spec 2.8.1).'),
      risk: block('Article 10 context; never a verdict (spec 2.8.2). `neighbourhood.coverage`: share of the ring read with data; under 0.95 `available: false`. The country is the producer\'s, else the plot\'s own uploaded country.'),
      settlement: block('Buildings; supporting evidence only (spec 2.8.3).'),
      history: block('The Landsat moist-forest record (spec 2.8.4). `coverage`: share of the plot\'s 30 m pixels carrying a class of the record; under 0.95 no share is given (`available: false`), and on Indonesian or Malaysian ground the finding is withheld with `landsat_record_unavailable`.'),
      footprint: { type: 'string', description: 'Whether the uploaded boundary (in parts, for a multi-part plot) or a circle drawn around a declared point was read, with its area: a circle\'s is the drawn polygon\'s measured area. A point with no declared area carries `plot_below_evidence_floor`: its own area is not known to reach the floor.' },
      read: {
        type: 'object',
        additionalProperties: false,
        required: ['pixels', 'pitch_m', 'scenes_searched', 'scenes_kept', 'min_clear_fraction', 'min_pixels', 'start', 'end', 'sensors', 'landsat'],
        properties: {
          pixels: integer,
          pitch_m: { type: 'number' },
          scenes_searched: integer,
          scenes_kept: { ...integer, description: 'Usable scenes read, each acquisition counted once however many items publish it.' },
          min_clear_fraction: { type: 'number' },
          min_pixels: integer,
          start: { type: 'string', format: 'date' },
          end: { type: 'string', format: 'date' },
          sensors: { type: 'array', items: { type: 'string' } },
          landsat: { type: 'object', additionalProperties: false, required: ['scenes_kept'], properties: { scenes_kept: integer } },
          coverage: coverage('that at least one kept scene had data for (cloud is not a gap); null when no scene was kept. Under 0.95 no positive finding is issued (`record_covers_part_of_plot`)'),
        },
      },
      verdict: { enum: VERDICTS },
      reason: { type: 'string', description: 'The reason code (spec 2.10), or `record_covers_part_of_plot`: the optical record had data for under 95% of the plot, so a positive finding is withheld.' },
      reasons: { type: 'array', items: { type: 'string' }, minItems: 1 },
      finding: { type: 'string' },
      seasons: { type: 'array', items: ref('EvidenceSeason') },
      seasons_observed: integer,
      seasons_with_dip: integer,
      phase_locked: { type: 'boolean', description: 'Every measured season dipped, in phase, over the whole plot: false too when a part of it larger than 0.5 ha or a tenth of the plot shows no dip at the plot\'s troughs (`dip_blocks`).' },
      dip_blocks: { ...instrumentBlocks, description: 'The dry-season dip tested block by block at the plot\'s troughs; here `forest_like` counts blocks without the in-phase dip. Null when no scene was read.' },
      phase_sd_days: num,
      mean_depth: num,
      seasons_without_answer: { type: 'array', items: { type: 'integer' } },
      structure: {
        type: 'object',
        additionalProperties: false,
        description: 'Shade read at the troughs of the same optical record as the seasonal cycle: it can withhold a finding, never carry one.',
        required: ['layer', 'shade_at_trough', 'seasons_matched', 'forest_like', 'confident', 'blocks', 'aot_at_trough', 'withheld_for_dust', 'refusal'],
        properties: {
          layer: { type: 'string' },
          shade_at_trough: num,
          seasons_matched: integer,
          forest_like: answer,
          confident,
          blocks: instrumentBlocks,
          aot_at_trough: num,
          withheld_for_dust: { type: 'boolean' },
          refusal: refusalText,
        },
      },
      radar: {
        type: 'object',
        additionalProperties: false,
        required: ['instrument', 'tile', 'mirror', 'years_read', 'plot_minus_local_forest_db', 'local_forest_baseline_db', 'sigma_db', 'hh_hv_db', 'forest_like', 'confident', 'blocks', 'refusal'],
        properties: {
          instrument: { type: 'string' },
          tile: nullable({ type: 'string' }),
          mirror: nullable({ type: 'string', description: 'Which of the two mirrors served the read.' }),
          years_read: { type: 'array', items: { type: 'integer' } },
          plot_minus_local_forest_db: num,
          local_forest_baseline_db: num,
          sigma_db: num,
          hh_hv_db: num,
          forest_like: answer,
          confident,
          blocks: instrumentBlocks,
          refusal: refusalText,
          coverage: coverage('with radar data in a mosaic read; null when none was read. Under 0.95 the radar does not answer'),
        },
      },
      height: {
        type: 'object',
        additionalProperties: false,
        description: 'A median between the crop and forest lines is read but gives no answer (`forest_like` null, `refusal` says so).',
        required: ['instrument', 'tile', 'median_m', 'p10_m', 'p90_m', 'pixels', 'forest_like', 'confident', 'blocks', 'refusal'],
        properties: {
          instrument: { type: 'string' },
          tile: nullable({ type: 'string' }),
          median_m: num,
          p10_m: num,
          p90_m: num,
          pixels: integer,
          forest_like: answer,
          confident,
          blocks: instrumentBlocks,
          refusal: refusalText,
          coverage: coverage('with a height; null when no tile was read. Under 0.95 the map does not answer'),
        },
      },
      terrain: {
        type: 'object',
        additionalProperties: false,
        required: ['mean_slope_deg', 'source', 'outside_characterised_range'],
        properties: {
          mean_slope_deg: num,
          source: { type: 'string' },
          outside_characterised_range: nullable({ type: 'boolean' }),
          coverage: coverage('with an elevation; null when no tile was read'),
        },
      },
      scenes: { type: 'array', items: { type: 'string' }, description: 'The kept scenes behind every figure.' },
      skipped: {
        type: 'array',
        description: 'Scenes found but not read, each with why: not clear enough, seen through thick haze, files unreadable, or another publication of an acquisition already read (a neighbouring MGRS tile or WRS-2 row, a reprocessing).',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['scene', 'at', 'why'],
          properties: { scene: { type: 'string' }, at: { type: 'string', format: 'date' }, why: { type: 'string' } },
        },
      },
      posture: { type: 'string' },
      baseline_note: { type: 'string' },
      next_step: nullable(ref('NextStep')),
      post_cutoff_loss: nullable(block('Loss of moist forest dated to 2021 or later (spec 2.8.4).')),
      forest_types: block('Shares of the 2020 forest-type map (spec 2.8.6), over the pixels read. `coverage`: share of the plot both maps were read over; under 0.95 `available: false` with a note, and nothing is withheld or overruled on their account.'),
      commodity_maps: block('Oil palm and rubber maps (spec 2.8.6). Each of `oil_palm` and `rubber` carries `coverage`, the share of the plot it was read over; under 0.95 `available: false` with a note.'),
      whisp: block('The perennial-crop rating; `available: false` unless the deployment switches it on.'),
      concession: block('Present only for plots whose centroid lies in Indonesia\'s extent (spec 2.8.7).'),
      parts: {
        type: 'array',
        items: ref('EvidencePart'),
        minItems: 2,
        description:
          'Present only for a plot uploaded as a MultiPolygon of more than one polygon (absent for a polygon or a point): each part is read and decided on its own. ' +
          'The plot takes its most cautious part\'s verdict, reason and reasons, so it carries a positive finding only when every part does. Caution rises from a positive ' +
          'finding, through a plantation reading withheld by a context block or the floor, a reading the instruments withheld themselves and a refusal (`insufficient_record`, ' +
          'also the answer of a part nothing was read on), to `no_prior_management_evidenced`; the first of equally cautious parts governs. The top-level blocks (record, ' +
          'instruments, context, scenes) are those of the most cautious part that was read; `plot_area_km2` and `footprint` are the whole plot\'s, and `finding` names the parts.',
      },
      archive_review: block('A dated reading from a sub-metre archive scene, filed with the document.'),
      synthetic: { type: 'boolean', description: 'True when read from the generated demo archive.' },
      synthetic_note: { type: 'string' },
    },
  },
  Integrity: {
    type: 'object',
    required: ['canonicalization', 'digest', 'signature', 'key_id'],
    additionalProperties: false,
    description:
      '`digest` is the lower-case hex SHA-256 of the RFC 8785 canonical JSON of `evidence`; `signature` the base64 Ed25519 signature of the digest\'s 32 bytes, verifiable with GET /evidence/public-key.',
    properties: {
      canonicalization: { const: 'RFC8785' },
      digest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      signature: { type: 'string' },
      key_id: { type: 'string' },
    },
  },
  EvidenceWrapper: {
    type: 'object',
    required: ['plot_id', 'external_ref', 'state', 'issued', 'evidence', 'integrity'],
    additionalProperties: false,
    properties: {
      plot_id: uuid,
      external_ref: nullable({ type: 'string' }),
      state: { enum: ['none', 'queued', 'running', 'done', 'failed'] },
      issued: timestamp,
      evidence: ref('EvidenceObject'),
      integrity: ref('Integrity'),
    },
  },
};

const plotId = { name: 'id', in: 'path', required: true, schema: uuid };

/** Listed before the plot family's paths: `/portal/plots/evidence` must not be taken for `/portal/plots/{id}`. */
export const evidencePaths = {
  '/portal/plots/evidence': {
    post: {
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
    },
  },
  '/portal/plots/evidence/summary': {
    get: {
      summary: 'Counts of the register by evidence state, verdict and reason, with the allowance; resolves plots left in flight by a job that died',
      responses: { '200': json(ref('EvidenceSummary')), ...authRefusals },
    },
  },
  '/portal/plots/{id}/evidence': {
    get: {
      summary: 'The plot\'s evidence: the wrapper of spec 2.6 with its integrity block',
      parameters: [plotId],
      responses: {
        '200': json(ref('EvidenceWrapper')),
        ...authRefusals,
        '404': refusal('No such plot in the workspace', ['not_found']),
        '409': refusal('The plot has no finished evidence (not read, queued, running, failed, or withdrawn by a changed boundary); the message names its state', ['no_evidence']),
      },
    },
  },
};
