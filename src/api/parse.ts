import type { Context } from 'koa';
import { notFound } from '../errors.ts';
import { isUuid } from '../store/ids.ts';

export { isUuid };

/** A path id; anything that cannot be an id of ours is simply not found. */
export function pathId(ctx: Context, what: string, name = 'id'): string {
  const value = (ctx as unknown as { params: Record<string, string> }).params[name];
  if (!value || !isUuid(value)) throw notFound(`no ${what} ${value ?? ''} in this workspace`);
  return value.toLowerCase();
}
