import Router from '@koa/router';
import type { z } from 'zod';
import { getEvidenceWrapper } from '../../reading-service/evidence-store.ts';
import { evidenceSummary, runEvidence, type RunRequest } from '../../reading-service/evidence-runs.ts';
import { authenticate, callerOf } from '../auth.ts';
import { answeredNotModified, entityTag } from '../entity-tag.ts';
import type { Services } from '../context.ts';
import { invalid, notFound } from '../../errors.ts';
import { isUuid, pathId } from '../parse.ts';
import { readBody, runEvidenceBody } from '../bodies.ts';
import { idempotent } from '../idempotency.ts';

/** `{all: true}` or `{plot_ids, rerun}` (spec 4.2); neither is `no_plots`. */
export function parseRunRequest(body: z.infer<typeof runEvidenceBody.schema>): RunRequest {
  const { all, plot_ids: ids, rerun } = body;
  if (all === true && ids !== undefined) throw invalid('bad_body', 'give either all: true or plot_ids, not both');
  if (all === true) return { all: true };
  if (ids === undefined || ids.length === 0) {
    throw invalid('no_plots', 'name the plots to read: {"all": true} for every plot without evidence, or {"plot_ids": [...]}');
  }
  const odd = ids.find((id) => !isUuid(id));
  if (odd !== undefined) throw notFound(`no plot ${odd} in this workspace`);
  return { plotIds: ids, rerun: rerun === true };
}

/** Running and reading evidence (spec 4.2, 4.3). */
export function evidenceRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const em = () => services.store.em();
  const workspace = (ctx: Parameters<typeof callerOf>[0]) => {
    const caller = callerOf(ctx);
    return { id: caller.workspaceId, plan: caller.plan };
  };

  router.post('/portal/plots/evidence', auth, idempotent(services.store), async (ctx) => {
    const answer = await runEvidence(em(), services.queue, workspace(ctx), parseRunRequest(readBody(ctx, runEvidenceBody)));
    ctx.status = answer.job_id === null ? 200 : 202;
    ctx.body = answer;
  });

  router.get('/portal/plots/evidence/summary', auth, async (ctx) => {
    ctx.body = await evidenceSummary(em(), services.queue, workspace(ctx), { baseUrl: services.config.baseUrl });
  });

  router.get('/portal/plots/:id/evidence', auth, async (ctx) => {
    // The tag is the answer's own digest: it moves with the evidence and with a reading filed or withdrawn beside it.
    const answer = JSON.stringify(await getEvidenceWrapper(em(), callerOf(ctx).workspaceId, pathId(ctx, 'plot')));
    if (answeredNotModified(ctx, entityTag(answer))) return;
    ctx.type = 'application/json';
    ctx.body = answer;
  });
  return router;
}
