import Router from '@koa/router';
import { adjudicateAlerts } from '../../alerts/adjudicate.ts';
import { getAlertAnswer } from '../../alerts/alert-answer.ts';
import { authenticate, callerOf } from '../auth.ts';
import { readAlertBatch } from '../bodies.ts';
import type { Services } from '../context.ts';
import { isUuid, pathId } from '../parse.ts';

/** Alert adjudication (spec 4.4), open to portal and workspace-member keys alike. */
export function alertRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const em = () => services.store.em();

  router.post('/eudr/alerts/adjudicate', auth, async (ctx) => {
    const caller = callerOf(ctx);
    const batch = readAlertBatch(ctx);
    const deps = { em: em(), queue: services.queue, judge: services.pools.intake.judgeAlerts };
    ctx.status = 202;
    ctx.body = await adjudicateAlerts(deps, { id: caller.workspaceId, plan: caller.plan }, batch);
  });

  // A segment that is no plot id (the scan routes) is left to the routes registered for it.
  router.get('/eudr/alerts/:id', auth, async (ctx, next) => {
    if (!isUuid(ctx.params.id)) return next();
    ctx.body = await getAlertAnswer(em(), services.queue, callerOf(ctx).workspaceId, pathId(ctx, 'alert'));
  });
  return router;
}
