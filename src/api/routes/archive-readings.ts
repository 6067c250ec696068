import Router from '@koa/router';
import type { Context } from 'koa';
import { fileReading, plotReadings, withdrawReading, type Filer } from '../../reading-service/archive-readings.ts';
import { authenticate, callerOf } from '../auth.ts';
import { fileReadingBody, readBody, withdrawReadingBody } from '../bodies.ts';
import type { Services } from '../context.ts';
import { pathId } from '../parse.ts';

/** The caller as a filer: a session files as its user, a key as itself; a reviewer seat may file. */
function filerOf(ctx: Context): Filer {
  const caller = callerOf(ctx);
  return { id: caller.via === 'session' ? `user:${caller.userId}` : `key:${caller.keyId}`, reviewer: caller.role === 'reviewer' };
}

/** Archive review readings of a plot (spec 2.7 `archive_review`, 2.14, 6.2). */
export function archiveReadingRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const em = () => services.store.em();
  const signing = { key: services.signingKey, links: { baseUrl: services.config.baseUrl } };

  router.post('/portal/plots/:id/archive-readings', auth, async (ctx) => {
    const target = { workspaceId: callerOf(ctx).workspaceId, plotId: pathId(ctx, 'plot') };
    const input = readBody(ctx, fileReadingBody);
    ctx.status = 201;
    ctx.body = await fileReading(em(), signing, target, filerOf(ctx), input);
  });

  router.get('/portal/plots/:id/archive-readings', auth, async (ctx) => {
    ctx.body = { readings: await plotReadings(em(), callerOf(ctx).workspaceId, pathId(ctx, 'plot')) };
  });

  router.post('/portal/plots/:id/archive-readings/:reading_id/withdraw', auth, async (ctx) => {
    const target = { workspaceId: callerOf(ctx).workspaceId, plotId: pathId(ctx, 'plot'), readingId: pathId(ctx, 'archive reading', 'reading_id') };
    const reason = readBody(ctx, withdrawReadingBody).reason ?? null;
    ctx.body = await withdrawReading(em(), target, filerOf(ctx), reason);
  });
  return router;
}
