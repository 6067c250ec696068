import type { Context } from 'koa';
import { invalid, notFound } from '../errors.ts';

/** Path helpers: an id is checked once, where it enters. */
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

/** The query parameters the routes read; each is refused with its own `bad_<name>` code. */
type QueryName = 'country' | 'state' | 'q' | 'shipment_id' | 'limit' | 'offset' | 'status' | 'cursor' | 'endpoint_id';

export function queryText(ctx: Context, name: QueryName): string | null {
  const value = ctx.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw invalid(`bad_${name}`, `${name} is given more than once`);
  return value.trim() === '' ? null : value.trim();
}

export function queryInteger(ctx: Context, name: 'limit' | 'offset', fallback: number, min: number, max: number): number {
  const text = queryText(ctx, name);
  if (text === null) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw invalid(`bad_${name}`, `${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(text);
}
