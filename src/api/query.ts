import type { Context } from 'koa';
import { invalid } from '../errors.ts';

/** Query helpers: a parameter is checked once, where it enters, and refused with its own `bad_<name>` code. */
type QueryName = 'country' | 'state' | 'q' | 'shipment_id' | 'limit' | 'offset' | 'status' | 'cursor' | 'endpoint_id' | 'post_cutoff_loss';

export function queryText(ctx: Context, name: QueryName): string | null {
  const value = ctx.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw invalid(`bad_${name}`, `${name} is given more than once`);
  return value.trim() === '' ? null : value.trim();
}

/** `true` or `false`; null when not given. */
export function queryBoolean(ctx: Context, name: 'post_cutoff_loss'): boolean | null {
  const text = queryText(ctx, name);
  if (text === null) return null;
  if (text !== 'true' && text !== 'false') throw invalid(`bad_${name}`, `${name} must be true or false`);
  return text === 'true';
}

export function queryInteger(ctx: Context, name: 'limit' | 'offset', fallback: number, min: number, max: number): number {
  const text = queryText(ctx, name);
  if (text === null) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw invalid(`bad_${name}`, `${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(text);
}
