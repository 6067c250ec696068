import type { Context } from 'koa';
import { invalid, notFound, type InputCode } from '../errors.ts';

/** Request-body helpers: each input is checked once, where it enters, with a message naming the field. */
export function objectBody(ctx: Context): Record<string, unknown> {
  const body = (ctx.request as unknown as { body?: unknown }).body;
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0 && !ctx.request.length)) {
    return {};
  }
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid('bad_body', 'the request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function requiredString(body: Record<string, unknown>, field: string, code: InputCode): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(code, `${field} is required`);
  return value;
}

export function optionalString(body: Record<string, unknown>, field: 'label', maxLength = 200): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`bad_${field}`, `${field} must be a string`);
  if (value.length > maxLength) throw invalid(`bad_${field}`, `${field} is longer than ${maxLength} characters`);
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A path id; anything that cannot be an id of ours is simply not found. */
export function pathId(ctx: Context, what: string, name = 'id'): string {
  const value = (ctx as unknown as { params: Record<string, string> }).params[name];
  if (!value || !UUID.test(value)) throw notFound(`no ${what} ${value ?? ''} in this workspace`);
  return value.toLowerCase();
}
