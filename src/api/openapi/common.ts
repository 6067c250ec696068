/** Shared pieces of the OpenAPI 3.1 document: the error shape and response helpers. */
export type Schema = Record<string, unknown>;

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
