/**
 * The JSON request bodies as run-time schemas. A route reads its body through its schema here, and
 * the OpenAPI document's request schemas are generated from the same ones (src/api/openapi), so
 * what is checked and what is documented cannot drift. A field that fails answers the refusal
 * named beside it; rules across fields (one of two fields, ids that name nothing) stay with the
 * route's own parsing.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import { badRequest, invalid, type InputCode } from '../errors.ts';
import { JSON_TYPES } from './middleware.ts';

/**
 * A route that reads a JSON object takes no body at all as `{}`; a body of another media type is
 * refused rather than read as empty, and JSON that is no object (`null`, an array, a string) is
 * refused with `bad_body`.
 */
function objectBody(ctx: Context): Record<string, unknown> {
  const sent = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
  if (!sent) return {};
  if (!ctx.is(JSON_TYPES)) {
    throw badRequest('unsupported_media_type', `this route reads a JSON body sent with Content-Type: application/json; this one came as ${ctx.get('Content-Type') || 'no Content-Type'}`);
  }
  const body = (ctx.request as unknown as { body?: unknown }).body;
  if (body === undefined || body === '') return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('bad_body', `the request body must be a JSON object, not ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}`);
  }
  return body as Record<string, unknown>;
}

interface Refusal {
  code: InputCode;
  message: string;
}

interface FieldRefusals {
  /** A field present but not of its schema. */
  wrong: Refusal;
  /** A required field left out, where it has its own refusal. */
  missing?: Refusal;
}

export interface RequestBody<S extends z.ZodRawShape> {
  schema: z.ZodObject<S>;
  refusals: { [K in keyof S]: FieldRefusals };
}

function requestBody<S extends z.ZodRawShape>(shape: S, refusals: RequestBody<S>['refusals'], description: string): RequestBody<S> {
  return { schema: z.object(shape).describe(description), refusals };
}

/** The body of a JSON route, checked by its schema: no body is `{}`; a field that fails is refused with its own code. */
export function readBody<S extends z.ZodRawShape>(ctx: Context, body: RequestBody<S>): z.infer<z.ZodObject<S>> {
  const value = objectBody(ctx);
  const result = body.schema.safeParse(value);
  if (result.success) return result.data;
  const field = result.error.issues[0].path[0] as keyof S;
  const refusals = body.refusals[field];
  const refusal = value[field as string] === undefined && refusals.missing ? refusals.missing : refusals.wrong;
  throw invalid(refusal.code, refusal.message);
}

const nonBlank = z.string().regex(/\S/);

/** POST /portal/plots/evidence (spec 4.2). */
export const runEvidenceBody = requestBody(
  {
    all: z.boolean().optional().describe('true: every valid or repaired plot with a geometry and no evidence yet, failed reads included.'),
    plot_ids: z.array(z.string().describe('A plot id of the workspace.')).optional().describe('The plots to read; not with `all`.'),
    rerun: z.boolean().optional().describe('With `plot_ids`: read again a plot whose evidence exists or is in flight. Default false.'),
  },
  {
    all: { wrong: { code: 'bad_all', message: 'all must be true or false' } },
    plot_ids: { wrong: { code: 'bad_plot_ids', message: 'plot_ids must be an array of plot ids' } },
    rerun: { wrong: { code: 'bad_rerun', message: 'rerun must be true or false' } },
  },
  'Either `all: true` or `plot_ids` (with `rerun: true` to read again a plot whose evidence exists or is in flight).',
);

/** POST /auth/sign-in. */
export const signInBody = requestBody(
  {
    email: nonBlank,
    password: nonBlank,
  },
  {
    email: { wrong: { code: 'email_required', message: 'email is required' } },
    password: { wrong: { code: 'password_required', message: 'password is required' } },
  },
  'The account\'s email and password.',
);

export const KEY_LABEL_MAX = 200;

/** POST /api-keys and POST /portal/api-keys. */
export const keyBody = requestBody(
  {
    label: z.string().max(KEY_LABEL_MAX).nullable().optional().describe('A name for the key, shown in the key list.'),
  },
  {
    label: { wrong: { code: 'bad_label', message: `label must be a string of at most ${KEY_LABEL_MAX} characters` } },
  },
  'An optional label for the key.',
);

export const WEBHOOK_LABEL_MAX = 200;
const webhookUrl = z.string().describe('The receiver: https, no credentials, a host that resolves only to public addresses. Checked when saved and before every attempt.');
const webhookEvents = z.array(z.string()).describe('Event types to send (spec 6.2 names); all of them when left out.');
const webhookLabel = z.string().max(WEBHOOK_LABEL_MAX).nullable().optional().describe('A name for the endpoint, shown in lists.');
const webhookRefusals = {
  url: { wrong: { code: 'bad_url', message: 'url must be a string: an https URL' }, missing: { code: 'bad_url', message: 'url is required: the https URL of the receiver' } },
  events: { wrong: { code: 'bad_events', message: 'events must be an array of event type names' } },
  label: { wrong: { code: 'bad_label', message: `label must be a string of at most ${WEBHOOK_LABEL_MAX} characters` } },
} as const;

/** POST /portal/webhooks (spec 4.8). */
export const webhookBody = requestBody(
  { url: webhookUrl, events: webhookEvents.optional(), label: webhookLabel },
  webhookRefusals,
  'A webhook endpoint: where to send, which events, and a label.',
);

/** PATCH /portal/webhooks/{id} (spec 4.8): only the fields given change. */
export const webhookChangeBody = requestBody(
  {
    url: webhookUrl.optional(),
    events: webhookEvents.optional(),
    label: webhookLabel,
    active: z.boolean().optional().describe('false pauses deliveries to the endpoint: no new ones are made and pending ones wait.'),
  },
  { ...webhookRefusals, url: { wrong: webhookRefusals.url.wrong }, active: { wrong: { code: 'bad_active', message: 'active must be true or false' } } },
  'The fields of the endpoint to change.',
);

/** POST /portal/plots/producers (spec 4.1). */
export const producerBody = requestBody(
  {
    name: z.string().describe('Uploaded `producer` names are matched to it ignoring case and spacing.'),
    reference: z.string().nullable().optional().describe('Your reference; unique in the workspace.'),
    country: z.string().nullable().optional().describe('Any accepted form (see /portal/plots/countries); stored as alpha-2.'),
  },
  {
    name: { wrong: { code: 'name_required', message: 'name is required: the producer\'s name as uploads give it' } },
    reference: { wrong: { code: 'bad_body', message: 'reference must be a string' } },
    country: { wrong: { code: 'bad_country', message: 'country must be a string: an alpha-2 or alpha-3 code or an English or French name' } },
  },
  'A producer of the workspace.',
);

/** POST /portal/plots/{id}/producer. */
export const attachProducerBody = requestBody(
  {
    producer_id: z.string().nullable().describe('A producer of this workspace, or null to detach.'),
  },
  {
    producer_id: {
      wrong: { code: 'bad_producer_id', message: 'producer_id must be a producer id or null' },
      missing: { code: 'producer_id_required', message: 'producer_id is required: a producer of this workspace, or null to detach' },
    },
  },
  'The producer to attach.',
);
