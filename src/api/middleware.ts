import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import { SESSION_COOKIE } from '../accounts/sessions.ts';
import type { Logger } from '../log.ts';
import { badRequest, crossSite, DomainError, notFound } from '../errors.ts';
import { isStorableText } from '../intake/text.ts';
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
      if (ctx.body === undefined) unrouted(ctx);
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

/**
 * The router's own answers when no route took the request, which it leaves without a body: no path
 * (404), a path that does not take the method (405, with the Allow header the router set), a method
 * no route takes at all (501).
 */
function unrouted(ctx: Context): void {
  const allowed = ctx.response.get('Allow');
  if (ctx.status === 404) throw notFound(`no route ${ctx.method} ${ctx.path}`);
  if (ctx.status === 405) throw badRequest('method_not_allowed', `${ctx.path} does not take ${ctx.method}; it takes ${allowed}`);
  if (ctx.status === 501) throw badRequest('not_implemented', `the service answers no ${ctx.method} request; ${ctx.path} takes ${allowed}`);
}

/** A refusal as answered: a domain error through the status table, or an error Koa raised with a client status. */
interface Refusal {
  status: number;
  code: string;
  message: string;
}

function refusalOf(err: unknown): Refusal | null {
  const known = err instanceof DomainError ? err : clientError(err);
  return known ? { status: HTTP_STATUS[known.code], code: known.code, message: known.message } : null;
}

/** An error Koa or a library raised with a 4xx status of its own: the client's fault, answered as a bad request. */
function clientError(err: unknown): DomainError | null {
  const e = err as { status?: number; statusCode?: number; message?: string };
  const status = e?.status ?? e?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? badRequest('bad_request', e.message ?? 'bad request') : null;
}

/** The media types a JSON route reads; any other body is refused with 415 rather than read as empty. */
export const JSON_TYPES = ['application/json', '+json'];
/** The Content-Encodings a body may be sent with (what the body parser inflates). */
export const ACCEPTED_ENCODINGS = 'identity, gzip, deflate or br';
export const JSON_LIMIT_MB = 2;

// Not strict: a body of `null`, a string or a number parses, so the route refuses it with its own validation code.
const parseJson = koaBody({ jsonLimit: `${JSON_LIMIT_MB}mb`, jsonStrict: false, jsonTypes: JSON_TYPES, text: false, urlencoded: false, multipart: false });

/** The JSON body parser; routes run it after authentication (src/api/auth.ts) or, on public routes, themselves. */
export async function jsonBody(ctx: Context, next: Next) {
  try {
    await parseJson(ctx, async () => {});
  } catch (err) {
    throw bodyRefusal(ctx, err);
  }
  const where = unstorableTextIn(ctx.request.body);
  if (where !== null) {
    throw badRequest('unstorable_text', `the request body's text at ${where} holds a NUL (\\u0000) or a lone surrogate (an unpaired \\ud800–\\udfff escape), which no field can store; nothing was written`);
  }
  return next();
}

/**
 * Where the first string of a parsed body (a value or a key) holds text no field can store, as a path
 * (`$.plots[2].ref`); null when all can. Walked with a stack, not recursion, since a 2 MB body can nest
 * deeper than the call stack goes; each step keeps only its parent and its key, so a deep body costs no
 * path strings until one is named.
 */
function unstorableTextIn(body: unknown): string | null {
  const steps: { parent: number; step: string }[] = [{ parent: -1, step: '$' }];
  const pathOf = (at: number): string => {
    let path = '';
    for (let i = at; i >= 0; i = steps[i]!.parent) path = steps[i]!.step + path;
    return path.length > 200 ? `${path.slice(0, 200)}…` : path;
  };
  const stack: [unknown, number][] = [[body, 0]];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return pathOf(at);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], steps.push({ parent: at, step: `[${i}]` }) - 1]);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value).reverse()) {
        if (!isStorableText(key)) return `${pathOf(at)} (a key)`;
        stack.push([item, steps.push({ parent: at, step: `.${key}` }) - 1]);
      }
    }
  }
  return null;
}

/** What the body parser's failure means to the caller: each is a refusal of the body as sent. */
function bodyRefusal(ctx: Context, err: unknown): unknown {
  const e = err as { status?: number; type?: string; code?: unknown; message?: string };
  if (e.type === 'entity.too.large') return badRequest('payload_too_large', `a JSON body may have at most ${JSON_LIMIT_MB} MB`);
  if (e.type === 'charset.unsupported') return badRequest('unsupported_media_type', `${e.message}; send JSON as UTF-8`);
  // The only other 415 the parser raises: an encoding it cannot inflate.
  if (e.status === 415) {
    return badRequest('unsupported_content_encoding', `Content-Encoding ${ctx.get('Content-Encoding')} is not accepted; send the body as ${ACCEPTED_ENCODINGS}`);
  }
  // zlib's errors carry its own codes (Z_DATA_ERROR, ERR_BROTLI_...); they mean the bytes are not what the header says.
  if (typeof e.code === 'string' && /^(Z_|ERR_(BROTLI|_ERROR))/.test(e.code)) {
    return badRequest('bad_content_encoding', `the body is not valid ${ctx.get('Content-Encoding')} data: ${e.message}`);
  }
  if (err instanceof SyntaxError) return badRequest('malformed_json', `the request body is not valid JSON: ${err.message}`);
  return clientError(err) ?? err;
}

/**
 * Answers a request Node's HTTP parser refused before Koa saw it (raw bytes outside ASCII in the
 * request line, headers over Node's size limit, a request that took too long) in the error shape,
 * rather than Node's bare status line, and closes the connection: the parser cannot go on from there.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal = parserRefusal(err);
  const status = HTTP_STATUS[refusal.code];
  const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
  const headers = { ...ANSWER_HEADERS, 'Cache-Control': 'no-store', 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' };
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`);
}

function parserRefusal(err: Error & { code?: string }): DomainError {
  if (err.code === 'HPE_HEADER_OVERFLOW') return badRequest('header_too_large', `the request headers are larger than the service reads (${Math.round(maxHeaderSize / 1024)} KB in all)`);
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return badRequest('request_timeout', 'the request did not arrive in time');
  const outsideAscii = 'characters outside ASCII must be percent-encoded as UTF-8 (café is caf%C3%A9)';
  if (err.code === 'HPE_INVALID_URL' && /query/i.test(err.message)) return badRequest('invalid_query', `the query string holds a byte an address may not carry; ${outsideAscii}`);
  if (err.code === 'HPE_INVALID_URL') return badRequest('bad_request', `the path holds a byte an address may not carry; ${outsideAscii}`);
  return badRequest('bad_request', `the request is not valid HTTP/1.1 (${err.message})`);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Where a request came from when a browser says it came from another site, else null: Sec-Fetch-Site
 * when sent (only same-origin or a user's own navigation pass; a sibling subdomain is same-site, not
 * same-origin), else Origin against the service's public origin or the request's own. A request with
 * neither header does not come from a browser page and is let through.
 */
function crossSiteSource(ctx: Context, publicOrigin: string): string | null {
  const site = ctx.get('Sec-Fetch-Site');
  const origin = ctx.get('Origin');
  // The request's own origin from its Host (Koa's ctx.origin is the Origin header itself).
  const sameOrigin = site ? site === 'same-origin' || site === 'none' : !origin || origin === publicOrigin || origin === `${ctx.protocol}://${ctx.host}`;
  return sameOrigin ? null : origin || `a ${site} page`;
}

/**
 * Refuses a state-changing request that carries the session cookie and comes from another site. An
 * API key is never sent by a browser on its own, so key-authenticated calls need no check.
 */
export function refuseCrossSiteWrites(baseUrl: string) {
  const publicOrigin = new URL(baseUrl).origin;
  return async (ctx: Context, next: Next) => {
    if (SAFE_METHODS.has(ctx.method) || ctx.get('Authorization') || !ctx.cookies.get(SESSION_COOKIE)) return next();
    const source = crossSiteSource(ctx, publicOrigin);
    if (source !== null) throw crossSite(`a signed-in session changes things only from the service's own pages (${publicOrigin}); this request came from ${source}`);
    return next();
  };
}

/**
 * Refuses a sign-in from another site's page, which could sign the browser in to an account of that
 * site's choosing. It carries no session cookie yet, so refuseCrossSiteWrites lets it by.
 */
export function refuseCrossSiteSignIn(baseUrl: string) {
  const publicOrigin = new URL(baseUrl).origin;
  return async (ctx: Context, next: Next) => {
    const source = crossSiteSource(ctx, publicOrigin);
    if (source !== null) throw crossSite(`sign-in is accepted only from the service's own pages (${publicOrigin}); this request came from ${source}`);
    return next();
  };
}
