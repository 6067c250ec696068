import { ALERT_OUTCOMES } from '../../alerts/outcome.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema } from './common.ts';

const hectares: Schema = { type: 'number', minimum: 0 };
const date: Schema = { type: 'string', format: 'date' };

export const alertSchemas: Record<string, Schema> = {
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
  '503': refusal('The queue could not take the job: nothing was registered and no reference taken; send the same request again', ['queue_unavailable']),
};

export const alertPaths = {
  '/eudr/alerts/adjudicate': {
    post: {
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
          'The batch is refused whole: not an array, empty or over 500 alerts; a reference repeated in the batch or already in the register; a geometry that is no Point, Polygon or MultiPolygon or cannot be read; a coordinate off the Earth; coordinates that fit the alert\'s country (its own, else its producer\'s) only with longitude and latitude exchanged; a footprint over 5 km2; an `alert_date` before 2021-01-01; a field of the wrong type; an unrecognised country',
          ['bad_body', 'no_alerts', 'too_many_alerts', 'ref_in_use', 'bad_geometry', 'coordinates_out_of_range', 'axis_order_swapped', 'footprint_too_large', 'alert_before_cutoff', 'bad_alert', 'unknown_country'],
        ),
      },
    },
  },
  '/eudr/alerts/{plot_id}': {
    get: {
      operationId: 'getAlert',
      summary: 'The alert answer: outcome and statement, jobs ahead, and the evidence object once read',
      parameters: [{ name: 'plot_id', in: 'path', required: true, schema: uuid }],
      responses: {
        '200': json(ref('AlertAnswer')),
        ...authRefusals,
        '404': refusal('The plot is not in the workspace or was not made from an alert', ['not_found']),
      },
    },
  },
};
