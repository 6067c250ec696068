/** Shared pieces of the OpenAPI 3.1 document: the error shape and response helpers. */
import { z } from 'zod';
import { KEEP_HOURS as IDEMPOTENCY_KEEP_HOURS } from '../idempotency.ts';
import { ACCEPTED_ENCODINGS, JSON_LIMIT_MB } from '../middleware.ts';

export type Schema = Record<string, unknown>;

/**
 * Run-time schemas as the document's components, by name (JSON Schema 2020-12, which OpenAPI 3.1
 * takes as it is); a named schema used inside another becomes a $ref to it. Request bodies are
 * generated as they may be sent (`input`: fields a route does not know are ignored), stored objects
 * as they are served (`output`: closed, so no undocumented field can appear).
 */
export function componentsFrom(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'throw', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $id: _id, $schema: _schema, ...schema }]) => [id, schema]));
}

export const ErrorSchema: Schema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export function json(schema: Schema, description = 'OK') {
  return { description, content: { 'application/json': { schema } } };
}

/** A refusal with the listed codes; the codes are documented so clients can branch on them. */
export function refusal(description: string, codes: string[]) {
  return {
    description: `${description}. Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    content: { 'application/json': { schema: ref('Error') } },
  };
}

export const authRefusals = {
  '401': refusal('Missing, malformed, unknown or revoked API key, or no valid session', ['unauthorized']),
  '403': refusal(
    'A portal-role seat on a studio route family, or no seat in the workspace; or a state-changing call with the session cookie from another site (Sec-Fetch-Site other than same-origin, or an Origin other than the service\'s)',
    ['forbidden', 'cross_site'],
  ),
};

export const timestamp: Schema = { type: 'string', format: 'date-time' };
export const uuid: Schema = { type: 'string', format: 'uuid' };
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

type Response = { description: string; content?: Record<string, unknown>; headers?: Record<string, unknown> };
type Operation = { requestBody?: { content: Record<string, unknown> }; responses: Record<string, Response> };

const codeList = (codes: string[]) => codes.map((c) => `\`${c}\``).join(', ');

/**
 * Refusals of the request as sent, met before a route reads a field: every operation can meet a
 * 400 for a request line Node's parser refuses and a 405 for a method its path does not take; one
 * that reads a JSON body adds what its body can be refused for, an upload its one-file rule.
 * Added to every operation here rather than listed in each family's file.
 */
export function withRequestRefusals<P extends object>(paths: P): P {
  const item = (operations: Record<string, Operation>) => Object.fromEntries(Object.entries(operations).map(([method, op]) => [method, withRefusals(op)]));
  return Object.fromEntries(Object.entries(paths).map(([path, operations]) => [path, item(operations)])) as P;
}

function withRefusals(op: Operation): Operation {
  const content = op.requestBody?.content ?? {};
  const json = 'application/json' in content;
  const upload = 'multipart/form-data' in content;
  const codes = ['bad_request', 'invalid_query', ...(json ? ['malformed_json', 'unstorable_text', 'bad_content_encoding'] : []), ...(upload ? ['one_file_per_upload'] : [])];
  const why = `the request as sent: a request line with bytes outside ASCII (percent-encode them as UTF-8)${json ? ', a body that is not JSON or not what its Content-Encoding says, or whose text holds a NUL or a lone surrogate' : ''}${upload ? ', a form with more than one `file` part (one file is one import)' : ''}`;
  const own = op.responses['400'];
  const responses: Record<string, Response> = {
    ...op.responses,
    '400': own ? { ...own, description: `${own.description} Or ${why}. Codes: ${codeList(codes)}.` } : refusal(`${why[0].toUpperCase()}${why.slice(1)}`, codes),
    '405': {
      ...refusal('The path does not take this method; the `Allow` header lists those it does', ['method_not_allowed']),
      headers: { Allow: { description: 'The methods the path takes', schema: { type: 'string' } } },
    },
  };
  if (json) {
    responses['413'] ??= refusal(`The JSON body is over ${JSON_LIMIT_MB} MB`, ['payload_too_large']);
    responses['415'] ??= refusal(
      `The body is not \`application/json\` (or a \`+json\` type), or is sent in a Content-Encoding other than ${ACCEPTED_ENCODINGS}`,
      ['unsupported_media_type', 'unsupported_content_encoding'],
    );
  }
  if (upload) responses['415'] ??= refusal('The upload was sent with a Content-Encoding: a form is read as it arrives, under its cap, so send it unencoded (zip the file itself)', ['unsupported_content_encoding']);
  return { ...op, responses };
}

type Parameter = Record<string, unknown>;

/**
 * A route that creates or charges takes `Idempotency-Key` (src/api/idempotency.ts): the header, the
 * replay's `Idempotent-Replayed`, and its two refusals beside the route's own.
 */
export function withIdempotencyKey<O extends Operation & { parameters?: Parameter[]; description?: string }>(op: O): O {
  const merged = (status: string, why: string, codes: string[]): Response => {
    const own = op.responses[status];
    return own ? { ...own, description: `${own.description} Or ${why}. Codes: ${codeList(codes)}.` } : refusal(`${why[0].toUpperCase()}${why.slice(1)}`, codes);
  };
  const responses = { ...op.responses };
  for (const [status, response] of Object.entries(op.responses)) {
    if (status.startsWith('2')) responses[status] = { ...response, headers: { ...response.headers, 'Idempotent-Replayed': { description: '`true` on an answer repeated from an earlier request with the same `Idempotency-Key`', schema: { const: 'true' } } } };
  }
  responses['409'] = merged('409', `the \`Idempotency-Key\` came with another request in the last ${IDEMPOTENCY_KEEP_HOURS} hours, or its first request is still being answered`, ['idempotency_key_reused', 'idempotency_key_in_flight']);
  responses['422'] = merged('422', 'the `Idempotency-Key` is not 1 to 255 printable ASCII characters without spaces', ['bad_idempotency_key']);
  const header = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: `Any token of yours, unique per request. The same request sent again with it within ${IDEMPOTENCY_KEEP_HOURS} hours answers the first answer (with \`Idempotent-Replayed: true\`) and does and charges nothing again; another request with it is refused. Keys are per workspace; only a 2xx answer is kept, so a refused request leaves its key free.`,
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  };
  return { ...op, parameters: [...(op.parameters ?? []), header], responses };
}

/**
 * An answer tagged for conditional requests (src/api/entity-tag.ts): `ETag` on the 200, and a 304
 * with no body to an `If-None-Match` that names the current tag.
 */
export function withEntityTag<O extends Operation & { parameters?: Parameter[] }>(op: O, what: string): O {
  const etag = { ETag: { description: `A digest of ${what}; it changes exactly when the answer would`, schema: { type: 'string' } } };
  const header = {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The `ETag` of an answer already held (or several, comma-separated, or `*`): answered 304 with no body while it is current.',
    schema: { type: 'string' },
  };
  const responses = { ...op.responses, '200': { ...op.responses['200'], headers: { ...op.responses['200'].headers, ...etag } }, '304': { description: 'Not modified: the answer held is current', headers: etag } };
  return { ...op, parameters: [...(op.parameters ?? []), header], responses };
}
