import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import { SESSION_COOKIE } from '../accounts/sessions.ts';
import type { Logger } from '../log.ts';
import { crossSite, DomainError, notFound } from '../errors.ts';
import { HTTP_STATUS } from './errors.ts';

/** Headers on every answer: no type sniffing, never framed, and not kept by caches unless a route says otherwise. */
const ANSWER_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "frame-ancestors 'none'",
};

/** Request id (echoed in X-Request-Id), one JSON log line per request, and the one place refusals are shaped. */
export function requestLifecycle(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    ctx.set(ANSWER_HEADERS);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw notFound(`no route ${ctx.method} ${ctx.path}`);
      }
    } catch (err) {
      const known = refusalOf(err);
      if (known) {
        ctx.status = known.status;
        ctx.body = { error: { code: known.code, message: known.message } };
        if (err instanceof DomainError && err.retryAfterSeconds !== null) ctx.set('Retry-After', String(err.retryAfterSeconds));
      } else {
        log.error({ err, requestId, method: ctx.method, path: ctx.path }, 'request failed');
        ctx.status = 500;
        ctx.body = { error: { code: 'internal', message: `internal error; quote request id ${requestId} when reporting it` } };
      }
    } finally {
      // Answers carry workspace data or credentials; a route whose answer may be cached says so itself.
      if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, workspace: ctx.state.caller?.workspaceId }, 'request');
    }
  };
}

/** A refusal as answered: a domain error through the status table, or an error Koa or its body parser raised with its own status. */
interface Refusal {
  status: number;
  code: string;
  message: string;
}

function refusalOf(err: unknown): Refusal | null {
  if (err instanceof DomainError) return { status: HTTP_STATUS[err.code], code: err.code, message: err.message };
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string; code?: string };
  const status = e?.status ?? e?.statusCode;
  // Errors raised by the body parser and Koa itself (bad JSON, too large) carry an exposable status.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return { status: 413, code: 'payload_too_large', message: e.message ?? 'request body too large' };
    if (e.type === 'entity.parse.failed' || /JSON/i.test(e.message ?? '')) {
      return { status: 400, code: 'bad_json', message: `the request body is not valid JSON: ${e.message}` };
    }
    return { status, code: 'bad_request', message: e.message ?? 'bad request' };
  }
  return null;
}

/** The JSON body parser; routes run it after authentication (src/api/auth.ts) or, on public routes, themselves. */
export const jsonBody = koaBody({ jsonLimit: '2mb', text: false, urlencoded: false, multipart: false });

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that carries the session cookie and comes from another site, as a
 * browser says it: Sec-Fetch-Site when sent (only same-origin or a user's own navigation pass; a sibling
 * subdomain is same-site, not same-origin), else Origin against the service's public origin or the
 * request's own. A request with neither header does not come from a browser page and is let through;
 * an API key is never sent by a browser on its own, so key-authenticated calls need no check.
 */
export function refuseCrossSiteWrites(baseUrl: string) {
  const publicOrigin = new URL(baseUrl).origin;
  return async (ctx: Context, next: Next) => {
    if (SAFE_METHODS.has(ctx.method) || ctx.get('Authorization') || !ctx.cookies.get(SESSION_COOKIE)) return next();
    const site = ctx.get('Sec-Fetch-Site');
    const origin = ctx.get('Origin');
    // The request's own origin from its Host (Koa's ctx.origin is the Origin header itself).
    const sameOrigin = site ? site === 'same-origin' || site === 'none' : !origin || origin === publicOrigin || origin === `${ctx.protocol}://${ctx.host}`;
    if (!sameOrigin) {
      throw crossSite(`a signed-in session changes things only from the service's own pages (${publicOrigin}); this request came from ${origin || `a ${site} page`}`);
    }
    return next();
  };
}
