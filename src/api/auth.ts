import type { Context, Next } from 'koa';
import { resolveSession, seatOf, SESSION_COOKIE } from '../accounts/sessions.ts';
import { Workspace } from '../store/entities/index.ts';
import type { Caller, Services } from './context.ts';
import { DomainError, forbidden, sessionRequired, unauthorized, workspaceRequired } from '../errors.ts';
import { jsonBody } from './middleware.ts';
import { isUuid } from './parse.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Route families a portal-role seat reaches (spec 5.5); every other authenticated family is the studio's. */
const PORTAL_FAMILIES = ['/portal', '/eudr/alerts', '/tiles', '/change/tiles'];
/** Paths open without a seat: they take no credentials, or sign a person in and out. */
const OPEN_FAMILIES = ['/health', '/openapi.json', '/auth', '/evidence/public-key', '/reference'];

const inFamily = (families: string[], path: string) => families.some((f) => path === f || path.startsWith(`${f}/`));

export function isPortalFamily(path: string): boolean {
  return inFamily(PORTAL_FAMILIES, path);
}

/** The path below /api/v1; null outside the API. */
const routePathOf = (ctx: Context): string | null => (/^\/api\/v1(\/|$)/.test(ctx.path) ? ctx.path.slice('/api/v1'.length) : null);

/** Spec 5.5: a portal seat on a family it may not reach. */
function refusePortalSeat(caller: Caller, routePath: string): void {
  if (caller.role === 'portal' && !isPortalFamily(routePath)) {
    throw forbidden('portal members use the portal endpoints: this route family is for workspace members; use the routes under /portal (and /eudr/alerts) with a portal key');
  }
}

/**
 * The family gate, before routing: a portal seat on any family it may not reach is refused 403
 * forbidden whether or not a route exists there, so a portal key learns nothing of the studio's
 * routes. Credentials that do not resolve pass on, to be answered by the route (or its absence).
 * The caller resolved here is the one `authenticate` uses.
 */
export function gateRouteFamilies(services: Services) {
  return async (ctx: Context, next: Next) => {
    const routePath = routePathOf(ctx);
    const credentials = ctx.get('Authorization') !== '' || ctx.cookies.get(SESSION_COOKIE) !== undefined;
    if (routePath === null || !credentials || isPortalFamily(routePath) || inFamily(OPEN_FAMILIES, routePath)) return next();
    let caller: Caller;
    try {
      caller = await resolveCaller(services, ctx);
    } catch (err) {
      if (err instanceof DomainError) return next();
      throw err;
    }
    refusePortalSeat(caller, routePath);
    ctx.state.caller = caller;
    return next();
  };
}

/**
 * Resolves the caller from `Authorization: Bearer <key>` or the session cookie (+ X-Workspace-Id, or
 * ?workspace= on a GET download), unless the family gate already did, then applies the family gate:
 * a portal seat on a studio family is refused with 403 forbidden. Only then is a JSON body read.
 */
export function authenticate(services: Services, opts: { sessionOnly?: boolean } = {}) {
  return async (ctx: Context, next: Next) => {
    const caller = (ctx.state.caller as Caller | undefined) ?? (await resolveCaller(services, ctx));
    if (opts.sessionOnly && caller.via === 'key') throw sessionRequired('API keys are minted and revoked from a signed-in session, not with an API key');
    refusePortalSeat(caller, routePathOf(ctx) ?? ctx.path);
    ctx.state.caller = caller;
    await jsonBody(ctx, next);
  };
}

/** Whether the request carries a valid API key or a live session, for a public route that tells such a caller more; false while the database cannot say. */
export async function hasCredentials(services: Services, ctx: Context): Promise<boolean> {
  try {
    const em = services.store.em();
    const bearer = BEARER.exec(ctx.get('Authorization'));
    if (bearer) return (await services.keys.verify(em, bearer[1])) !== null;
    const token = ctx.cookies.get(SESSION_COOKIE);
    return token ? (await resolveSession(em, token)) !== null : false;
  } catch {
    return false;
  }
}

async function resolveCaller(services: Services, ctx: Context): Promise<Caller> {
  const em = services.store.em();
  const header = ctx.get('Authorization');
  if (header) {
    const match = BEARER.exec(header);
    if (!match) throw unauthorized('the Authorization header must be "Bearer <API key>"');
    const key = await services.keys.verify(em, match[1]);
    if (!key) throw unauthorized('the API key is not recognised or has been revoked');
    return { workspaceId: key.workspaceId, plan: key.plan, role: key.role, via: 'key', userId: null, keyId: key.keyId };
  }
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) throw unauthorized();
  const session = await resolveSession(em, token);
  if (!session) throw unauthorized('the session has expired or was signed out; sign in again');
  const workspaceId = ctx.get('X-Workspace-Id') || workspaceFromQuery(ctx);
  if (!workspaceId) throw workspaceRequired('a signed-in session names its workspace with the X-Workspace-Id header or ?workspace=<id>');
  if (!isUuid(workspaceId)) throw workspaceRequired(`"${workspaceId}" is not a workspace id`);
  const seat = await seatOf(em, session.userId, workspaceId);
  if (!seat) throw forbidden('you have no seat in this workspace');
  const workspace = await em.findOneOrFail(Workspace, { id: workspaceId });
  return { workspaceId, plan: workspace.plan, role: seat.role, via: 'session', userId: session.userId, keyId: null };
}

/**
 * ?workspace= lets a plain link download a document; a link or form cannot set a header, so a state
 * change must name its workspace with X-Workspace-Id, which a cross-site page cannot send unasked.
 */
function workspaceFromQuery(ctx: Context): string {
  const value = typeof ctx.query.workspace === 'string' ? ctx.query.workspace : '';
  if (value && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    throw workspaceRequired(`?workspace= names the workspace only on GET downloads; send ${ctx.method} with the X-Workspace-Id header`);
  }
  return value;
}

export function callerOf(ctx: Context): Caller {
  const caller = ctx.state.caller as Caller | undefined;
  if (!caller) throw unauthorized();
  return caller;
}
