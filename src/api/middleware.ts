import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../log.ts';
import { DomainError, notFound } from '../errors.ts';
import { HTTP_STATUS } from './errors.ts';

/** Request id (echoed in X-Request-Id), one JSON log line per request, and the one place refusals are shaped. */
export function requestLifecycle(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
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
      } else {
        log.error({ err, requestId, method: ctx.method, path: ctx.path }, 'request failed');
        ctx.status = 500;
        ctx.body = { error: { code: 'internal', message: `internal error; quote request id ${requestId} when reporting it` } };
      }
    } finally {
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
