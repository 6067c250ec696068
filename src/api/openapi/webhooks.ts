import { EVENT_TYPES, type EventType } from '../../store/outbox.ts';
import { DELIVERY_STATUSES, SEVERITIES } from '../../store/entities/index.ts';
import { VERDICTS } from './evidence.ts';
import { authRefusals, json, nullable, ref, refusal, timestamp, uuid, type Schema } from './common.ts';

const endpointProperties = {
  id: uuid,
  url: { type: 'string', format: 'uri' },
  events: { type: 'array', items: { enum: [...EVENT_TYPES] }, description: 'The event types sent to this endpoint.' },
  label: nullable({ type: 'string' }),
  active: { type: 'boolean', description: 'false: paused; no deliveries are made for it and its pending ones wait.' },
  secret_hint: { type: 'string', description: 'The end of the signing secret, to tell secrets apart; the secret itself is shown only on create and rotate.' },
  created_at: timestamp,
  updated_at: timestamp,
};

const deliveryProperties = {
  id: { ...uuid, description: 'The `X-Service-Delivery` header: one per endpoint per event.' },
  endpoint_id: uuid,
  event_id: { type: 'string', pattern: '^evt_', description: 'The `X-Service-Event-Id` header; identical on every attempt.' },
  event_type: { enum: [...EVENT_TYPES] },
  status: {
    enum: [...DELIVERY_STATUSES],
    description: '`pending`: waiting for its next attempt (`next_attempt_at`). `sending`: an attempt is being made now. `delivered`: a 2xx answer. `failed`: the seventh attempt failed.',
  },
  attempts: { type: 'integer', minimum: 0, description: 'Attempts made in this round; a retry by hand starts a new round of up to seven.' },
  last_status_code: nullable({ type: 'integer', description: 'The receiver\'s last HTTP status; null when no answer came (time-out, refused connection, refused address).' }),
  last_error: nullable({ type: 'string', description: 'Why the last attempt did not deliver, in words.' }),
  last_attempt_at: nullable(timestamp),
  next_attempt_at: nullable({ ...timestamp, description: 'Set while `pending`.' }),
  delivered_at: nullable(timestamp),
  created_at: timestamp,
};
const deliveryRequired = Object.keys(deliveryProperties);

const url: Schema = { type: 'string', format: 'uri' };
const count: Schema = { type: 'integer', minimum: 0 };
const plotRef: Schema = nullable({ type: 'string', description: 'The caller\'s reference of the plot.' });
const closed = (description: string, properties: Record<string, Schema>): Schema => ({ type: 'object', required: Object.keys(properties), additionalProperties: false, description, properties });

/** The `data` of each event type (spec 6.2), under the schema name its event's `type` maps to. */
const EVENT_DATA: Record<EventType, { name: string; data: Schema }> = {
  'plot.evidence.completed': {
    name: 'PlotEvidenceCompleted',
    data: closed('A plot\'s evidence is stored.', {
      plot_id: uuid,
      ref: plotRef,
      commodity: nullable({ type: 'string' }),
      area_ha: nullable({ type: 'number', minimum: 0 }),
      state: ref('PlotState'),
      result: { enum: VERDICTS, description: 'The verdict code.' },
      finding: { type: 'boolean', description: 'true on a positive finding.' },
      reason: { type: 'string', description: 'The single reason code (spec 2.10).' },
      reasons: { type: 'array', items: { type: 'string' }, description: 'Every reason code.' },
      next_step: nullable({ ...ref('NextStep'), description: 'null on a positive finding.' }),
      issued_at: timestamp,
      evidence_url: url,
      document_url: url,
    }),
  },
  'plot.evidence.failed': {
    name: 'PlotEvidenceFailed',
    data: closed('A plot could not be read; nothing was charged.', {
      plot_id: uuid,
      ref: plotRef,
      error: { type: 'string', description: 'Why, in words.' },
      next_step: { ...ref('NextStep'), description: 'Code `run_again`, or `check_location` when no archive covers the plot, which a second read cannot mend.' },
      failed_at: timestamp,
    }),
  },
  'batch.completed': {
    name: 'BatchCompleted',
    data: closed('Every plot of a shipment is read or failed.', {
      shipment_id: uuid,
      reference: { type: 'string' },
      commodity: nullable({ type: 'string' }),
      plots: count,
      read: count,
      failed: count,
      findings: { ...count, description: 'Plots read with a positive finding.' },
      without_finding: { ...count, description: 'Plots read without one.' },
      shipment_url: url,
      report_url: url,
    }),
  },
  'alert.opened': {
    name: 'AlertOpened',
    data: closed('A monitor opened a case on the alert queue.', {
      alert_id: uuid,
      plot_id: uuid,
      ref: plotRef,
      monitor_id: uuid,
      opened_at: timestamp,
      severity: { enum: [...SEVERITIES] },
      flagged_area_km2: { type: 'number', minimum: 0 },
      alert_url: url,
    }),
  },
  'archive.reading.filed': {
    name: 'ArchiveReadingFiled',
    data: closed('A reviewer filed an archive review reading.', { plot_id: uuid, ref: plotRef, reading: ref('ArchiveReview'), evidence_url: url, document_url: url }),
  },
  'webhook.test': {
    name: 'WebhookTest',
    data: closed('Sent from the webhook settings; it reports nothing.', { endpoint_id: uuid, message: { type: 'string' } }),
  },
};

const eventSchema = (type: EventType): Schema => closed(`The \`${type}\` event.`, {
  id: { type: 'string', pattern: '^evt_' },
  type: { const: type },
  created: timestamp,
  workspace_id: uuid,
  data: ref(`${EVENT_DATA[type].name}Data`),
});

const eventRefs = EVENT_TYPES.map((type) => ref(`${EVENT_DATA[type].name}Event`));

const eventSchemas: Record<string, Schema> = Object.fromEntries(EVENT_TYPES.flatMap((type) => {
  const { name, data } = EVENT_DATA[type];
  return [[`${name}Event`, eventSchema(type)], [`${name}Data`, data]];
}));

export const webhookSchemas: Record<string, Schema> = {
  WebhookEndpoint: { type: 'object', required: Object.keys(endpointProperties), additionalProperties: false, properties: endpointProperties },
  WebhookEndpointWithSecret: {
    type: 'object',
    required: [...Object.keys(endpointProperties), 'secret', 'note'],
    additionalProperties: false,
    properties: {
      ...endpointProperties,
      secret: { type: 'string', description: 'The signing secret, shown this once. The previous secret, if any, stopped verifying at once.' },
      note: { type: 'string' },
    },
  },
  WebhookList: {
    type: 'object',
    required: ['endpoints', 'max_endpoints', 'event_types', 'signing', 'delivery'],
    additionalProperties: false,
    properties: {
      endpoints: { type: 'array', items: ref('WebhookEndpoint') },
      max_endpoints: { const: 5 },
      event_types: { type: 'array', items: { enum: [...EVENT_TYPES] }, description: 'Every event type, the names `events` takes.' },
      signing: {
        type: 'object',
        required: ['header', 'scheme', 'signed_text', 'algorithm', 'timestamp_header', 'tolerance_seconds', 'standard_webhooks'],
        description: 'How a receiver verifies a delivery (spec 6.3).',
        properties: {
          header: { const: 'X-Service-Signature' },
          scheme: { const: 'v1' },
          signed_text: { type: 'string' },
          algorithm: { type: 'string' },
          timestamp_header: { const: 'X-Service-Timestamp' },
          tolerance_seconds: { const: 300 },
          standard_webhooks: { type: 'string', description: 'The Standard Webhooks headers each delivery also carries, for the verifier libraries of standardwebhooks.com.' },
        },
      },
      delivery: {
        type: 'object',
        required: ['timeout_seconds', 'retry_after_seconds', 'max_attempts', 'redirects_followed', 'retention_days'],
        description: 'When a delivery is retried (spec 6.4, 8): after each wait in `retry_after_seconds` in turn, `max_attempts` in all, then `failed`.',
        properties: {
          timeout_seconds: { const: 10 },
          retry_after_seconds: { type: 'array', items: { type: 'integer' } },
          max_attempts: { const: 7 },
          redirects_followed: { const: false },
          retention_days: { const: 30 },
        },
      },
    },
  },
  WebhookEvent: {
    description: 'The body of a delivery (spec 6.1), exactly as it is signed and sent: `type` names the event and the shape of its `data`.',
    oneOf: eventRefs,
    discriminator: { propertyName: 'type', mapping: Object.fromEntries(EVENT_TYPES.map((type) => [type, `#/components/schemas/${EVENT_DATA[type].name}Event`])) },
  },
  ...eventSchemas,
  WebhookDelivery: { type: 'object', required: deliveryRequired, additionalProperties: false, properties: deliveryProperties },
  WebhookDeliveryDetail: {
    type: 'object',
    required: [...deliveryRequired, 'event'],
    additionalProperties: false,
    // The event types listed with null rather than a nullable $ref to the discriminated WebhookEvent,
    // which openapi-typescript 6 would read as a subtype of this schema.
    properties: { ...deliveryProperties, event: { oneOf: [...eventRefs, { type: 'null' }], description: 'The event as it is sent (WebhookEvent); null when the event is no longer kept.' } },
  },
  WebhookDeliveryPage: {
    type: 'object',
    required: ['deliveries', 'next_cursor'],
    additionalProperties: false,
    properties: {
      deliveries: { type: 'array', items: ref('WebhookDelivery') },
      next_cursor: nullable({ type: 'string', description: 'Pass as `cursor` for the next page; null on the last.' }),
    },
  },
  WebhookTestResult: {
    type: 'object',
    required: ['delivered', 'status_code', 'error', 'answer', 'duration_ms', 'delivery'],
    additionalProperties: false,
    description: 'What the receiver answered to a `webhook.test` event sent now. The delivery is logged like any other, and retried on the schedule when it failed.',
    properties: {
      delivered: { type: 'boolean' },
      status_code: nullable({ type: 'integer' }),
      error: nullable({ type: 'string' }),
      answer: nullable({ type: 'string', description: 'The first KiB of the receiver\'s answer body.' }),
      duration_ms: { type: 'integer', minimum: 0 },
      delivery: ref('WebhookDelivery'),
    },
  },
};

const idParameter = (what: string) => ({ name: 'id', in: 'path', required: true, schema: uuid, description: `The ${what}'s id.` });
const BAD_URL = 'The URL is refused (`bad_url`: not https, credentials in it, or a host that resolves to a non-public address, an IPv6 address carrying a non-public IPv4 address included; the message says which rule), or an event name is unknown (`bad_events`)';
const notFound = (what: string) => ({ '404': refusal(`No such ${what} in the workspace`, ['not_found']) });

export const webhookPaths = {
  '/portal/webhooks': {
    get: {
      operationId: 'listWebhooks',
      summary: 'The webhook endpoints (secrets as hints), the event names, and the signing and retry rules',
      responses: { '200': json(ref('WebhookList')), ...authRefusals },
    },
    post: {
      operationId: 'createWebhook',
      summary: 'Register an endpoint; answers it with its signing secret, shown once',
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookRequest') } } },
      responses: {
        '201': json(ref('WebhookEndpointWithSecret'), 'The endpoint and its secret, shown once'),
        ...authRefusals,
        '409': refusal('The workspace has five endpoints', ['webhook_limit']),
        '422': refusal(BAD_URL, ['bad_url', 'bad_events', 'bad_label']),
      },
    },
  },
  '/portal/webhooks/{id}': {
    patch: {
      operationId: 'updateWebhook',
      summary: 'Change an endpoint\'s url, events, label or active',
      parameters: [idParameter('endpoint')],
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookChangeRequest') } } },
      responses: { '200': json(ref('WebhookEndpoint')), ...authRefusals, ...notFound('endpoint'), '422': refusal(BAD_URL, ['bad_url', 'bad_events', 'bad_label', 'bad_active']) },
    },
    delete: {
      operationId: 'deleteWebhook',
      summary: 'Remove an endpoint and its delivery log',
      parameters: [idParameter('endpoint')],
      responses: { '200': json(ref('WebhookEndpoint'), 'The endpoint as it was'), ...authRefusals, ...notFound('endpoint') },
    },
  },
  '/portal/webhooks/{id}/rotate-secret': {
    post: {
      operationId: 'rotateWebhookSecret',
      summary: 'A new signing secret, shown once; the old one stops verifying at once, from the next attempt',
      parameters: [idParameter('endpoint')],
      responses: { '200': json(ref('WebhookEndpointWithSecret')), ...authRefusals, ...notFound('endpoint') },
    },
  },
  '/portal/webhooks/{id}/test': {
    post: {
      operationId: 'testWebhook',
      summary: 'Send a `webhook.test` event now and answer what the receiver answered',
      parameters: [idParameter('endpoint')],
      responses: { '200': json(ref('WebhookTestResult')), ...authRefusals, ...notFound('endpoint') },
    },
  },
  '/portal/webhooks/deliveries': {
    get: {
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log, newest first, a page at a time (kept 30 days)',
      parameters: [
        { name: 'endpoint_id', in: 'query', required: false, schema: uuid, description: 'Only this endpoint\'s deliveries.' },
        { name: 'status', in: 'query', required: false, schema: { enum: [...DELIVERY_STATUSES] } },
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
        { name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: 'The `next_cursor` of the previous page.' },
      ],
      responses: {
        '200': json(ref('WebhookDeliveryPage')),
        ...authRefusals,
        '404': refusal('`endpoint_id` names no endpoint of the workspace', ['not_found']),
        '422': refusal('A filter is not one the log takes', ['bad_endpoint_id', 'bad_status', 'bad_limit', 'bad_cursor']),
      },
    },
  },
  '/portal/webhooks/deliveries/{id}': {
    get: {
      operationId: 'getWebhookDelivery',
      summary: 'One delivery with the event it carries',
      parameters: [idParameter('delivery')],
      responses: { '200': json(ref('WebhookDeliveryDetail')), ...authRefusals, ...notFound('delivery') },
    },
  },
  '/portal/webhooks/deliveries/{id}/retry': {
    post: {
      operationId: 'retryWebhookDelivery',
      summary: 'Send a delivered or failed delivery again now, with a new round of up to seven attempts',
      parameters: [idParameter('delivery')],
      responses: {
        '202': json(ref('WebhookDelivery'), 'The delivery, due at once'),
        ...authRefusals,
        ...notFound('delivery'),
        '409': refusal('The delivery is still pending or being tried', ['in_flight']),
      },
    },
  },
};

const header = (description: string, schema: Schema = { type: 'string' }) => ({ required: true, description, schema });

/** The deliveries themselves, as OpenAPI 3.1 describes calls the service makes (spec 6.1). */
export const webhookEvents = {
  event: {
    post: {
      operationId: 'receiveWebhookEvent',
      summary: 'A delivery to your endpoint',
      description:
        'Verify before parsing: HMAC-SHA256 under the endpoint secret of `X-Service-Timestamp`, a full stop and the raw body, lower-case hex, against any `v1=` entry of `X-Service-Signature`; refuse a timestamp more than 300 s from your clock; deduplicate on the event id (delivery is at least once). Answer 2xx at once and work afterwards: anything else, a redirect or no answer within 10 s is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h.',
      parameters: [
        { name: 'User-Agent', in: 'header', ...header('`Service-Webhooks/1`') },
        { name: 'X-Service-Event', in: 'header', ...header('The event type', { enum: [...EVENT_TYPES] }) },
        { name: 'X-Service-Event-Id', in: 'header', ...header('The event id; identical on every attempt') },
        { name: 'X-Service-Delivery', in: 'header', ...header('One per endpoint per event', uuid) },
        { name: 'X-Service-Timestamp', in: 'header', ...header('Unix seconds at which this attempt was signed', { type: 'string', pattern: '^[0-9]+$' }) },
        { name: 'X-Service-Signature', in: 'header', ...header('`v1=<hex>`, one or more, comma-separated') },
        { name: 'webhook-id', in: 'header', ...header('Standard Webhooks: the event id, identical on every attempt') },
        { name: 'webhook-timestamp', in: 'header', ...header('Standard Webhooks: the same Unix seconds as `X-Service-Timestamp`', { type: 'string', pattern: '^[0-9]+$' }) },
        { name: 'webhook-signature', in: 'header', ...header('Standard Webhooks: `v1,<base64>`, the HMAC-SHA256 of `webhook-id`, a full stop, `webhook-timestamp`, a full stop and the raw body, keyed with the bytes of the base64 after `whsec_` in the secret; the standard\'s verifier libraries take the secret as shown') },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEvent') } } },
      responses: { '200': { description: 'Any 2xx delivers the event' } },
    },
  },
};
