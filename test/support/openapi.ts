import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/api/openapi/index.ts';

/** Checks a response against the served OpenAPI document: the route, the status and the body's schema. */
const doc = openApiDocument('http://localhost/api/v1');
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };

function rewriteRefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
}

/** The documented template of a path; a literal segment beats a parameter, as the router decides. */
export function matchPath(path: string): string | null {
  const bare = path.split('?')[0].replace(/^\/api\/v1/, '');
  const matches = Object.keys(doc.paths).filter((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare));
  const params = (t: string) => (t.match(/\{/g) ?? []).length;
  matches.sort((a, b) => params(a) - params(b));
  return matches[0] ?? null;
}

export function assertDocumented(method: string, path: string, status: number, body: unknown): void {
  const template = matchPath(path);
  if (!template) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  const op = (doc.paths as Record<string, Record<string, Operation>>)[template][method.toLowerCase()];
  if (!op) throw new Error(`${method} ${template} is not in the OpenAPI document`);
  const response = op.responses[String(status)];
  if (!response) throw new Error(`${method} ${template} does not document status ${status} (body ${JSON.stringify(body).slice(0, 300)})`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return;
  const validate = ajv.compile(rewriteRefs(schema) as object);
  if (!validate(body)) {
    throw new Error(`${method} ${template} ${status} does not match its schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}

const webhookEvent = ajv.compile({ $ref: 'doc#/components/schemas/WebhookEvent' });

/** Checks an event as the outbox holds it against the document's schema for its type (`WebhookEvent`, one schema per type). */
export function assertEventDocumented(type: string, data: unknown): void {
  const event = { id: 'evt_check', type, created: new Date().toISOString(), workspace_id: '00000000-0000-4000-8000-000000000000', data: typeof data === 'string' ? JSON.parse(data) : data };
  if (!webhookEvent(event)) throw new Error(`a ${type} event does not match its schema: ${ajv.errorsText(webhookEvent.errors)}\n${JSON.stringify(data).slice(0, 500)}`);
}
