import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import type { AppState, Services } from './context.ts';
import { gateRouteFamilies } from './auth.ts';
import { answerClientError, refuseCrossSiteWrites, requestLifecycle } from './middleware.ts';
import { openApiDocument } from './openapi/index.ts';
import { servePortal } from './portal.ts';
import { spreadAcrossTurns } from './turn-budget.ts';
import { alertRoutes } from './routes/alerts.ts';
import { archiveReadingRoutes } from './routes/archive-readings.ts';
import { documentRoutes } from './routes/documents.ts';
import { evidenceRoutes } from './routes/evidence.ts';
import { healthRoutes } from './routes/health.ts';
import { imageryRoutes } from './routes/imagery.ts';
import { keyRoutes } from './routes/keys.ts';
import { mapTileRoutes } from './routes/map-tiles.ts';
import { plotRoutes } from './routes/plots.ts';
import { referenceRoutes } from './routes/reference.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { statementRoutes } from './routes/statements.ts';
import { studioRoutes } from './routes/studio.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { workspaceRoutes } from './routes/workspace.ts';

export const API_PREFIX = '/api/v1';

export function createApp(services: Services): Koa<AppState> {
  const app = new Koa<AppState>();
  // X-Forwarded-* are believed only from the proxies the operator declared; the last of them names the client.
  app.proxy = services.config.trustProxy > 0;
  app.maxIpsCount = services.config.trustProxy;
  app.silent = true;
  // Requests that land together are begun over several turns, so none of them holds the loop long.
  app.use(spreadAcrossTurns());
  app.use(requestLifecycle(services.log));
  app.use(refuseCrossSiteWrites(services.config.baseUrl));
  // The browser portal at `/` and its files; everything else is the API's.
  app.use(servePortal());
  // Before routing: a portal seat is refused on every family it may not reach, whether or not a route exists there.
  app.use(gateRouteFamilies(services));
  // Bodies are parsed by the routes that take one, after authentication (src/api/auth.ts): an anonymous or unrouted request costs no parsing.

  const api = new Router({ prefix: API_PREFIX });
  const document = openApiDocument(services.config.baseUrl);
  api.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });
  for (const family of [healthRoutes(services), sessionRoutes(services), keyRoutes(services), workspaceRoutes(services), referenceRoutes(services), documentRoutes(services), evidenceRoutes(services), archiveReadingRoutes(services), plotRoutes(services), statementRoutes(services), studioRoutes(services), imageryRoutes(services), mapTileRoutes(services), alertRoutes(services), webhookRoutes(services)]) {
    api.use(family.routes(), family.allowedMethods());
  }
  app.use(api.routes());
  app.use(api.allowedMethods());
  // A route with a parameter (GET /portal/plots/:id) matches a sibling's static path and declines it;
  // the router then counts the method as allowed. The static path's own methods decide: 405.
  app.use(async (ctx, next) => {
    await next();
    // A method no route takes at all is the router's 501.
    if (ctx.status !== 404 || ctx.body !== undefined || !api.methods.includes(ctx.method)) return;
    const methods = api.match(ctx.path, ctx.method).path.filter((layer) => layer.paramNames.length === 0).flatMap((layer) => layer.methods);
    if (methods.length === 0) return;
    ctx.status = 405;
    ctx.set('Allow', [...new Set(methods)].join(', '));
  });
  return app;
}

/**
 * How long an idle kept-alive connection stays open: past the 60 s idle timeout of the common load
 * balancers, so the server is never the side that closes a connection a proxy or client is about to
 * reuse. At Node's 5 s a client whose own idle timer ran late (a busy machine) sent its next request
 * as the server closed the socket, and the request was reset (ECONNRESET).
 */
const KEEP_ALIVE_MS = 65_000;

/** The API's HTTP server, listening; a request Node's parser refuses is answered in the error shape as well. */
export function serveApi(app: Koa<AppState>, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Headers must be allowed longer than a connection may idle, or a kept-alive request's headers could time out first.
    const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1_000 }, app.callback());
    server.on('clientError', answerClientError);
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
