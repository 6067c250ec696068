import type { Context } from 'koa';
import { notFound } from '../errors.ts';

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
