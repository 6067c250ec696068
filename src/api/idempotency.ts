/**
 * `Idempotency-Key` on the routes that create or charge: a request sent again with the key it first
 * came with is answered with the first answer, and its work (and charge) is not done twice; the key
 * on another request is refused with 409. Only a 2xx answer is kept: a refused request wrote nothing,
 * so its key is free for the corrected one. Without the header a route behaves as it always has.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Context, Next } from 'koa';
import { canonicalJson } from '../engine/integrity.ts';
import { idempotencyKeyInFlight, idempotencyKeyReused, invalid } from '../errors.ts';
import { claimKey, KEEP_MS, recordAnswer, releaseKey } from '../store/idempotency-keys.ts';
import type { Store } from '../store/orm.ts';
import { callerOf } from './auth.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The header a repeat's answer carries, so a client can tell it from the first. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** Printable ASCII without spaces, as the IETF draft and the payment APIs that use the header take it. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const KEEP_HOURS = KEEP_MS / 3600_000;

/** What makes two requests the same: the route as called (method, path, query) and what it was sent. */
export function requestDigest(ctx: Context, ...sent: (string | Buffer)[]): string {
  const hash = createHash('sha256').update(`${ctx.method} ${ctx.path}?${ctx.querystring}`);
  for (const part of sent) hash.update(`\n${Buffer.byteLength(part)}\n`).update(part);
  return hash.digest('hex');
}

/** A JSON route's request: its body as parsed, canonical (RFC 8785), so key order and spacing do not count. */
export const jsonRequest = (ctx: Context) => requestDigest(ctx, canonicalJson((ctx.request as { body?: unknown }).body ?? null));

export function idempotent(store: Store, digestOf: (ctx: Context) => string | Promise<string> = jsonRequest) {
  return async (ctx: Context, next: Next) => {
    const key = ctx.get(IDEMPOTENCY_HEADER);
    if (key === '') return next();
    if (!KEY_PATTERN.test(key)) throw invalid('bad_idempotency_key', `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters without spaces`);
    const workspaceId = callerOf(ctx).workspaceId;
    const claim = await claimKey(store.em(), workspaceId, key, await digestOf(ctx), new Date());
    if (claim.kind === 'other_request') {
      throw idempotencyKeyReused(`${IDEMPOTENCY_HEADER} ${key} was sent with another request in the last ${KEEP_HOURS} hours; send a new key with a new request`);
    }
    if (claim.kind === 'in_flight') throw idempotencyKeyInFlight(`the first request with ${IDEMPOTENCY_HEADER} ${key} is still being answered; send it again once it has`);
    if (claim.kind === 'answered') {
      ctx.status = claim.status;
      if (claim.contentType) ctx.type = claim.contentType;
      ctx.body = claim.answer;
      ctx.set(REPLAYED_HEADER, 'true');
      return;
    }
    const release = () => releaseKey(store.em(), workspaceId, key);
    try {
      await next();
    } catch (err) {
      await release();
      throw err;
    }
    if (ctx.status < 200 || ctx.status > 299) return release();
    const contentType = ctx.response.get('Content-Type') || null;
    const record = (answer: string) => recordAnswer(store.em(), workspaceId, key, ctx.status, contentType, answer);
    const body: unknown = ctx.body;
    if (body instanceof Readable) {
      ctx.body = Readable.from(kept(body, record, release));
      return;
    }
    const answer = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body ?? null);
    await record(answer);
    ctx.body = answer;
  };
}

/** A streamed answer passed on as it comes, and recorded once whole; one cut short frees the key. */
async function* kept(source: Readable, record: (answer: string) => Promise<void>, release: () => Promise<void>) {
  const parts: Buffer[] = [];
  let whole = false;
  try {
    for await (const chunk of source) {
      parts.push(Buffer.from(chunk as string | Buffer));
      yield chunk;
    }
    whole = true;
  } finally {
    await (whole ? record(Buffer.concat(parts).toString('utf8')) : release());
  }
}
