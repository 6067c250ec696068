import Router from '@koa/router';
import { ALLOWANCE_WINDOW_DAYS, allowanceStatus } from '../../accounts/allowance.ts';
import { getWorkspace } from '../../accounts/workspaces.ts';
import { authenticate, callerOf } from '../auth.ts';
import type { Services } from '../context.ts';

/** GET /workspace (studio family): the caller's workspace, seat and evidence allowance. */
export function workspaceRoutes(services: Services) {
  const router = new Router();
  router.get('/workspace', authenticate(services), async (ctx) => {
    const caller = callerOf(ctx);
    const em = services.store.em();
    const workspace = await getWorkspace(em, caller.workspaceId);
    const allowance = await allowanceStatus(em, workspace);
    ctx.body = {
      id: workspace.id,
      name: workspace.name,
      plan: workspace.plan,
      seat: { role: caller.role, via: caller.via },
      allowance: { cap: allowance.cap, used: allowance.used, window_days: ALLOWANCE_WINDOW_DAYS },
    };
  });
  return router;
}
