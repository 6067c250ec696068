/**
 * Entity tags on the answers a client fetches again to learn whether they changed (the evidence and
 * its document): the tag is a digest of what the answer is made from, and a request whose
 * `If-None-Match` names it is answered 304 with no body (RFC 9110 13.1.2, weak comparison).
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/** A strong tag over the parts, in order. */
export function entityTag(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}\n`).update(part);
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

/**
 * Sets the tag; true, with the status set to 304, when the request's If-None-Match names it (or is `*`).
 * Compared here rather than by Koa's `ctx.fresh`, which answers 200 to any request with
 * `Cache-Control: no-cache`; fetch adds that to every request that sets If-None-Match itself, and the
 * directive speaks to caches, not to the server evaluating the condition (RFC 9110 13.2.1).
 */
export function answeredNotModified(ctx: Context, tag: string): boolean {
  ctx.set('ETag', tag);
  const held = ctx.get('If-None-Match');
  if (held === '') return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  if (held.trim() !== '*' && !held.split(',').some((t) => opaque(t) === tag)) return false;
  ctx.status = 304;
  return true;
}
