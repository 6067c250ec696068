import { UNWATCHABLE_NAMED } from '../../alerts/monitor-run.ts';
import { ALERT_OUTCOMES } from '../../alerts/outcome.ts';
import { CASE_STATUSES, MONITOR_SCOPES, SEVERITIES } from '../../store/entities/index.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema, withIdempotencyKey } from './common.ts';

const hectares: Schema = { type: 'number', minimum: 0 };
const date: Schema = { type: 'string', format: 'date' };

const CONFIDENCES = ['nominal', 'high', 'highest'];
const count: Schema = { type: 'integer', minimum: 0 };

const SEVERITY_TEXT = 'From the cluster\'s strongest confidence and its area: `high` at confidence `highest` or 5 ha or more; `medium` at confidence `high` or 1 ha or more; `low` otherwise (`nominal` under 1 ha).';

const plotScanProperties = {
  plot_id: uuid,
  ref: nullable({ type: 'string' }),
  area_ha: nullable(hectares),
  truncated: { type: 'boolean', description: 'true when the plot held more than 1,000,000 alert pixels: the alerts are those of the first million the provider returned.' },
  source: nullable({ ...ref('AlertSource'), description: 'null only on a refusal met before the provider named a version.' }),
};

/** A plot's scan with its alerts, or with the refusal that kept it unread. */
const plotScan = (field: 'alerts' | 'refusal', schema: Schema): Schema => ({
  type: 'object',
  required: [...Object.keys(plotScanProperties), field],
  additionalProperties: false,
  properties: { ...plotScanProperties, [field]: schema },
});

export const alertSchemas: Record<string, Schema> = {
  AlertMonitor: {
    type: 'object',
    required: ['id', 'label', 'scope', 'plot_ids', 'shipment_id', 'product', 'min_area_ha', 'since', 'active', 'last_run_at', 'created_at', 'open_cases', 'unwatchable'],
    additionalProperties: false,
    description: 'A watch over plots for newly published alerts. A scheduled run (hourly) scans its plots from `since` to the day of the run and opens a case on the alert queue for each alert cluster no case of the monitor holds yet (the same product, first detected within 90 days, overlapping bounds), sending `alert.opened`. A cluster seen again, grown, updates its case and sends nothing.',
    properties: {
      id: uuid,
      label: nullable({ type: 'string' }),
      scope: {
        enum: [...MONITOR_SCOPES],
        description: '`all`: every plot of the register with a boundary, plots made from alerts aside, as the register grows; `plots`: the listed plots; `shipment`: the plots with a boundary on the shipment at each run, so a plot added to it later is watched from the next run and one taken off it is watched no more.',
      },
      plot_ids: nullable({ type: 'array', items: uuid, description: 'The listed plots when `scope` is `plots`.' }),
      shipment_id: nullable({ ...uuid, description: 'The watched shipment when `scope` is `shipment`.' }),
      product: { enum: ['integrated', 'radd'] },
      min_area_ha: hectares,
      since: date,
      active: { type: 'boolean', description: 'False once the watched shipment is deleted: the monitor scans no more, and its cases stay on the queue to be worked and closed.' },
      last_run_at: nullable(timestamp),
      created_at: timestamp,
      open_cases: { type: 'integer', minimum: 0 },
      unwatchable: {
        type: 'object',
        required: ['count', 'plots'],
        additionalProperties: false,
        description: `The watched plots the product can never be read over, found when the monitor is made and again at each run: outside the band it is published in (30°S to 30°N), or without a usable boundary. They open no case, so they are not watched; \`count\` counts them all, \`plots\` names the first ${UNWATCHABLE_NAMED}.`,
        properties: {
          count: { type: 'integer', minimum: 0 },
          plots: {
            type: 'array',
            items: {
              type: 'object',
              required: ['plot_id', 'ref', 'why'],
              additionalProperties: false,
              properties: { plot_id: uuid, ref: nullable({ type: 'string' }), why: { type: 'string', description: 'Why, in words.' } },
            },
          },
        },
      },
    },
  },
  AlertCase: {
    type: 'object',
    required: ['alert_id', 'monitor_id', 'plot_id', 'ref', 'product', 'first_date', 'last_date', 'confidence', 'pixels', 'area_ha', 'flagged_area_km2', 'severity', 'centroid', 'bbox', 'source', 'status', 'opened_at', 'updated_at', 'closed_at', 'note'],
    additionalProperties: false,
    description: 'A case on the workspace\'s alert queue: one published alert cluster a monitor found on one plot. `alert_id` is the id `alert.opened` carries.',
    properties: {
      alert_id: uuid,
      monitor_id: uuid,
      plot_id: uuid,
      ref: nullable({ type: 'string', description: 'The plot\'s reference.' }),
      product: { enum: ['integrated', 'radd'] },
      first_date: date,
      last_date: date,
      confidence: { enum: CONFIDENCES },
      pixels: count,
      area_ha: hectares,
      flagged_area_km2: { type: 'number', minimum: 0, description: 'The cluster\'s area in km2.' },
      severity: { enum: [...SEVERITIES], description: SEVERITY_TEXT },
      centroid: nullable({ ...ref('GeoJsonPoint'), description: 'The cluster\'s centre; null when the licence withholds the place.' }),
      bbox: nullable({ type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 }),
      source: ref('AlertSource'),
      status: { enum: [...CASE_STATUSES] },
      opened_at: timestamp,
      updated_at: timestamp,
      closed_at: nullable(timestamp),
      note: nullable({ type: 'string', description: 'The note it was closed with.' }),
    },
  },
  AlertSource: {
    type: 'object',
    required: ['product', 'dataset', 'version', 'publisher', 'licence', 'attribution', 'citation', 'published_accuracy', 'geometry_withheld'],
    additionalProperties: false,
    description: 'Where the alerts were read: the product, its dataset and the newest version the provider\'s catalogue reports as loaded, with the attribution its licence asks for.',
    properties: {
      product: { enum: ['integrated', 'radd'] },
      dataset: { type: 'string' },
      version: { type: 'string' },
      publisher: { type: 'string' },
      licence: { type: 'string' },
      attribution: { type: 'string' },
      citation: { type: 'string' },
      published_accuracy: { type: 'string', description: 'The publisher\'s own statement of accuracy, in words; no figure is invented.' },
      geometry_withheld: { type: 'boolean', description: 'true when the licence no longer permits passing an alert\'s place on: `centroid` and `bbox` are then omitted, and the alerts cannot be adjudicated.' },
    },
  },
  ScannedAlert: {
    type: 'object',
    required: ['first_date', 'last_date', 'confidence', 'confidence_pixels', 'pixels', 'area_ha', 'source'],
    additionalProperties: false,
    description: 'One alert: 10 m pixels that touch (eight neighbours) and were detected within 90 days of one another.',
    properties: {
      first_date: date,
      last_date: date,
      confidence: { enum: CONFIDENCES, description: 'The strongest level among its pixels.' },
      confidence_pixels: { type: 'object', required: CONFIDENCES, additionalProperties: false, properties: Object.fromEntries(CONFIDENCES.map((c) => [c, count])) },
      pixels: count,
      area_ha: { ...hectares, description: 'Summed ground area of its pixels.' },
      centroid: ref('GeoJsonPoint'),
      bbox: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4, description: '[min lon, min lat, max lon, max lat] of its pixels\' edges.' },
      source: ref('AlertSource'),
      adjudicated_as: { enum: ['bbox', 'centroid'], description: 'Scan-and-adjudicate: the bounding box when it is 4 ha to 5 km2, otherwise the centroid read over the 4 ha window.' },
    },
  },
  PlotScan: {
    description: 'One plot\'s scan: `alerts` (empty when none, the product still named in `source`), or `refusal` in words when the plot could not be read.',
    oneOf: [plotScan('alerts', { type: 'array', items: ref('ScannedAlert') }), plotScan('refusal', { type: 'string' })],
  },
  ScanAnswer: {
    type: 'object',
    required: ['window', 'product', 'plots', 'plots_with_alerts', 'alerts_found'],
    additionalProperties: false,
    properties: {
      window: { type: 'object', required: ['start', 'end'], additionalProperties: false, properties: { start: date, end: date } },
      product: { enum: ['integrated', 'radd'] },
      plots: { type: 'array', items: ref('PlotScan') },
      plots_with_alerts: count,
      alerts_found: count,
    },
  },
  ScanAndAdjudicateAnswer: {
    type: 'object',
    required: ['window', 'product', 'plots', 'plots_with_alerts', 'alerts_found', 'adjudicated'],
    additionalProperties: false,
    properties: {
      window: { type: 'object', required: ['start', 'end'], additionalProperties: false, properties: { start: date, end: date } },
      product: { enum: ['integrated', 'radd'] },
      plots: { type: 'array', items: ref('PlotScan') },
      plots_with_alerts: count,
      alerts_found: count,
      adjudicated: { type: 'array', items: ref('AdjudicatedAlert'), description: 'One element per alert found, references `<plot ref>-<product>-<first date>-<n>`.' },
      statement: { type: 'string', description: 'Present when nothing was found: nothing was queued.' },
    },
  },
  ReadWindow: {
    type: 'object',
    required: ['area_ha', 'constructed'],
    additionalProperties: false,
    properties: {
      area_ha: { ...hectares, description: 'The area read.' },
      constructed: { type: 'boolean', description: 'true when the alert was a point or a polygon under 4 ha and a 4 ha square centred on it is read instead, as a drawn boundary.' },
    },
  },
  AdjudicatedAlert: {
    type: 'object',
    required: ['ref', 'plot_id', 'job_id', 'read_window'],
    additionalProperties: false,
    properties: { ref: { type: 'string' }, plot_id: uuid, job_id: uuid, read_window: ref('ReadWindow') },
  },
  AlertAnswer: {
    type: 'object',
    required: ['plot_id', 'ref', 'state', 'issued', 'alert', 'adjudication', 'ahead', 'evidence'],
    additionalProperties: false,
    properties: {
      plot_id: uuid,
      ref: nullable({ type: 'string' }),
      state: { enum: ['none', 'queued', 'running', 'done', 'failed'], description: 'The alert plot\'s evidence state.' },
      issued: nullable({ ...timestamp, description: 'When the evidence was issued; null until it is stored.' }),
      alert: {
        type: 'object',
        required: ['alert_date', 'footprint_area_ha', 'window_area_ha', 'window_constructed'],
        additionalProperties: false,
        properties: {
          alert_date: date,
          footprint_area_ha: { ...hectares, description: 'The footprint as sent; 0 for a point.' },
          window_area_ha: hectares,
          window_constructed: { type: 'boolean' },
        },
      },
      adjudication: {
        type: 'object',
        required: ['outcome', 'statement'],
        additionalProperties: false,
        properties: {
          outcome: {
            enum: [...ALERT_OUTCOMES],
            description: '`prior_management` after a `prior_management_evidenced` verdict; `pending` while a job holds the alert; `unresolved` after any other finished state (a withheld verdict, a failed read) or when the read was never queued (the statement then says to submit it again).',
          },
          statement: { type: 'string' },
        },
      },
      ahead: { type: 'integer', minimum: 0, description: 'Evidence jobs of the workspace queued in front of the alert\'s; 0 once it is read.' },
      evidence: nullable({ ...ref('EvidenceObject'), description: 'The evidence object (spec 2.7, with calibration) once stored; null before.' }),
    },
  },
};

const gateRefusals = {
  '403': refusal('The plan includes no plot evidence, or its allowance is reached (one alert is one plot; the message states used and remaining); or a seat problem', ['plan_tier_required', 'evidence_cap', 'forbidden', 'cross_site']),
  '503': refusal('The queue could not take the job: nothing was registered and no reference taken; send the same request again. Or the service\'s threads for checking batches or clustering scans are all busy; send it again shortly', ['queue_unavailable', 'intake_busy', 'busy']),
};

const scanRefusals = {
  '404': refusal('A named plot is not in the workspace', ['not_found']),
  '422': refusal(
    'No plot named, more than 50, a product other than `integrated` or `radd`, a date that is none or an `end` before `start`, a `start` before 2021-01-01, a `min_area_ha` that is no number of hectares, or more than 500 published alerts in the window (narrow it, send fewer plots or raise `min_area_ha`)',
    ['no_plots', 'too_many_plots', 'bad_product', 'bad_window', 'alert_before_cutoff', 'bad_min_area_ha', 'too_many_alerts'],
  ),
};

const caseNotFound = refusal('No such case in the workspace', ['not_found']);
const caseId = { name: 'id', in: 'path', required: true, description: 'The case\'s `alert_id`.', schema: uuid };

export const alertPaths = {
  '/eudr/alerts/monitors': {
    post: {
      operationId: 'createAlertMonitor',
      summary: 'Watch plots (all, a shipment\'s, or a list) for newly published alerts: each new cluster opens a case and sends alert.opened',
      description: 'Free: a monitor scans, it reads no evidence. Adjudicate a case\'s alert with `POST /eudr/alerts/adjudicate` from its `bbox` or `centroid`.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('AlertMonitorRequest') } } },
      responses: {
        '201': json(ref('AlertMonitor'), 'Watching'),
        ...authRefusals,
        '404': refusal('A listed plot, or the shipment, is not in the workspace', ['not_found']),
        '422': refusal(
          'Nothing named to watch, more than one of `all`, `plot_ids` and `shipment_id`, over 5,000 plots, a product other than `integrated` or `radd`, a `since` that is no date or is before 2021-01-01, a negative `min_area_ha`, or a field of the wrong type',
          ['no_plots', 'bad_body', 'too_many_plots', 'bad_product', 'bad_window', 'alert_before_cutoff', 'bad_min_area_ha', 'bad_all', 'bad_plot_ids', 'bad_shipment_id', 'bad_label'],
        ),
      },
    },
    get: {
      operationId: 'listAlertMonitors',
      summary: 'The workspace\'s monitors, oldest first, with their open cases',
      responses: { '200': json({ type: 'object', required: ['monitors'], additionalProperties: false, properties: { monitors: { type: 'array', items: ref('AlertMonitor') } } }), ...authRefusals },
    },
  },
  '/eudr/alerts/cases': {
    get: {
      operationId: 'listAlertCases',
      summary: 'The alert queue: cases newest first (open ones unless `status` says), at most 500',
      parameters: [
        { name: 'status', in: 'query', schema: { enum: ['open', 'closed', 'all'], default: 'open' } },
        { name: 'monitor_id', in: 'query', schema: uuid },
        { name: 'plot_id', in: 'query', schema: uuid },
      ],
      responses: {
        '200': json({ type: 'object', required: ['cases'], additionalProperties: false, properties: { cases: { type: 'array', items: ref('AlertCase') } } }),
        ...authRefusals,
        '404': refusal('`monitor_id` names no monitor of the workspace, or `plot_id` is no plot id', ['not_found']),
        '422': refusal('`status` is not open, closed or all, or a filter is given twice', ['bad_state', 'bad_body']),
      },
    },
  },
  '/eudr/alerts/cases/{id}': {
    get: {
      operationId: 'getAlertCase',
      summary: 'One case of the alert queue (the `alert_url` of `alert.opened`)',
      parameters: [caseId],
      responses: { '200': json(ref('AlertCase')), ...authRefusals, '404': caseNotFound },
    },
  },
  '/eudr/alerts/cases/{id}/close': {
    post: {
      operationId: 'closeAlertCase',
      summary: 'Close a case with a note saying what was found',
      parameters: [caseId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('CloseAlertCaseRequest') } } },
      responses: {
        '200': json(ref('AlertCase'), 'Closed'),
        ...authRefusals,
        '404': caseNotFound,
        '409': refusal('The case is already closed', ['case_closed']),
        '422': refusal('No note, a blank one, or one that is not a string', ['note_required', 'bad_body']),
      },
    },
  },
  '/eudr/alerts/scan': {
    get: {
      operationId: 'scanAlerts',
      summary: 'Alerts other institutions published over 1 to 50 plots: read-only and free',
      description:
        'Reads the product at the newest version its provider\'s catalogue reports as loaded and groups its 10 m pixels into alerts (touching, detected within 90 days of one another). Nothing is queued or written and the allowance is not touched. A plot with no alerts answers `alerts: []`; a plot that could not be read answers `refusal` instead.',
      parameters: [
        { name: 'plot_id', in: 'query', required: true, description: '1 to 50 plot ids, repeated or comma-separated.', schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true },
        { name: 'start', in: 'query', schema: { ...date, default: '2021-01-01' }, description: 'Not before 2021-01-01.' },
        { name: 'end', in: 'query', schema: date, description: 'Default today.' },
        { name: 'product', in: 'query', schema: { enum: ['integrated', 'radd'], default: 'integrated' } },
        { name: 'min_area_ha', in: 'query', schema: { type: 'number', minimum: 0, default: 0 }, description: 'Drops alerts smaller than this.' },
      ],
      responses: { '200': json(ref('ScanAnswer')), ...authRefusals, ...scanRefusals, '503': refusal('The service is clustering as many scans as it takes at once; scan again shortly', ['busy']) },
    },
  },
  '/eudr/alerts/scan-and-adjudicate': {
    post: withIdempotencyKey({
      operationId: 'scanAndAdjudicateAlerts',
      summary: 'Scan, then adjudicate every alert found as one batch: each costs one plot of evidence',
      description:
        'The scan of `GET /eudr/alerts/scan`, then the adjudication of `POST /eudr/alerts/adjudicate` on each alert found, under its rules (plan gate, allowance, references, axis order, size, date, read window, the workspace lock, and nothing written when the queue cannot take the job). An alert is adjudicated from its bounding box when that is 4 ha to 5 km2, otherwise from its centroid read over the 4 ha window. References are `<plot ref>-<product>-<first date>-<n>`, so the same scan made again answers 422 `ref_in_use`. A scan that finds nothing answers 200 with an empty `adjudicated` and a `statement`; use `min_area_ha` to adjudicate larger alerts first.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('ScanAndAdjudicateRequest') } } },
      responses: {
        '202': json(ref('ScanAndAdjudicateAnswer'), 'Alerts found, registered and queued'),
        '200': json(ref('ScanAndAdjudicateAnswer'), 'Nothing found; nothing queued'),
        '401': authRefusals['401'],
        ...gateRefusals,
        '404': scanRefusals['404'],
        '422': refusal(
          'As the scan; or a reference built by the adjudication already exists (the scan was adjudicated before); or the product\'s licence no longer permits passing geometry on; or a field of the wrong type',
          ['no_plots', 'too_many_plots', 'bad_product', 'bad_window', 'alert_before_cutoff', 'bad_min_area_ha', 'too_many_alerts', 'ref_in_use', 'geometry_not_redistributable', 'bad_plot_ids', 'bad_body'],
        ),
      },
    }),
  },
  '/eudr/alerts/adjudicate': {
    post: withIdempotencyKey({
      operationId: 'adjudicateAlerts',
      summary: 'Adjudicate 1 to 500 canopy-change alerts: each becomes a plot read for prior management, one job for the batch',
      description:
        'Every alert is checked before any is written: the batch lands whole or is refused whole, with the first rule an alert breaks (in the order geometry, coordinates, axis order, footprint, date, reference) and a message naming up to ten of the alerts that break it. A polygon of 4 ha or more is read as sent; a point or a smaller polygon over a 4 ha square centred on it (`read_window.constructed`). Each alert costs one plot of evidence. Poll `GET /eudr/alerts/{plot_id}` for the outcome.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('AlertBatch') } } },
      responses: {
        '202': json({ type: 'array', items: ref('AdjudicatedAlert') }, 'Registered and queued, in the order sent'),
        '401': authRefusals['401'],
        ...gateRefusals,
        '404': refusal('A `producer_id` names no producer of the workspace', ['not_found']),
        '422': refusal(
          'The batch is refused whole: not an array, empty or over 500 alerts; a reference repeated in the batch or already in the register; a geometry that is no Point, Polygon or MultiPolygon or cannot be read; a coordinate off the Earth; coordinates that fit the alert\'s country (its own, else its producer\'s) only with longitude and latitude exchanged; a footprint over 5 km2; an `alert_date` before 2021-01-01; a field of the wrong type; an unrecognised country; checking it took longer than FILE_TIME_BUDGET_MS',
          ['bad_body', 'no_alerts', 'too_many_alerts', 'ref_in_use', 'bad_geometry', 'coordinates_out_of_range', 'axis_order_swapped', 'footprint_too_large', 'alert_before_cutoff', 'bad_alert', 'unknown_country', 'judging_over_budget'],
        ),
      },
    }),
  },
  '/eudr/alerts/{id}': {
    get: {
      operationId: 'getAlert',
      summary: 'The alert answer: outcome and statement, jobs ahead, and the evidence object once read',
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The alert\'s `plot_id`.', schema: uuid }],
      responses: {
        '200': json(ref('AlertAnswer')),
        ...authRefusals,
        '404': refusal('The plot is not in the workspace or was not made from an alert', ['not_found']),
      },
    },
  },
};
