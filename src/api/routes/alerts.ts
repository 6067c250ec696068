import Router from '@koa/router';
import type { Context } from 'koa';
import { adjudicateAlerts, type AdjudicateDeps } from '../../alerts/adjudicate.ts';
import { getAlertAnswer } from '../../alerts/alert-answer.ts';
import { scanAndAdjudicate } from '../../alerts/scan-and-adjudicate.ts';
import { parseScanRequest, scanAlerts, type ScanDeps } from '../../alerts/scan.ts';
import { alertRefusal, type AlertCode } from '../../errors.ts';
import { authenticate, callerOf } from '../auth.ts';
import { readAlertBatch, readBody, scanAndAdjudicateBody } from '../bodies.ts';
import type { Services } from '../context.ts';
import { isUuid, pathId } from '../parse.ts';

/** The scan's query parameters, each with the refusal of a value given twice. */
const SCAN_QUERY: Record<'start' | 'end' | 'product' | 'min_area_ha', AlertCode> = { start: 'bad_window', end: 'bad_window', product: 'bad_product', min_area_ha: 'bad_min_area_ha' };

function queryText(ctx: Context, name: keyof typeof SCAN_QUERY): string | null {
  const value = ctx.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw alertRefusal(SCAN_QUERY[name], `${name} is given more than once`);
  return value.trim() === '' ? null : value.trim();
}

/** `plot_id`, repeated or comma-separated. */
function queryPlotIds(ctx: Context): string[] {
  const value = ctx.query.plot_id;
  const given = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return given.flatMap((v) => v.split(','));
}

/** Alert adjudication and scans (spec 4.4, 4.5), open to portal and workspace-member keys alike. */
export function alertRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const workspace = (ctx: Context) => {
    const caller = callerOf(ctx);
    return { id: caller.workspaceId, plan: caller.plan };
  };
  const adjudicateDeps = (): AdjudicateDeps => ({ em: services.store.em(), queue: services.queue, judge: services.pools.intake.judgeAlerts });
  const scanDeps = (): ScanDeps => ({ em: services.store.em(), source: services.alerts, clusters: services.pools.alerts.clusters });

  router.post('/eudr/alerts/adjudicate', auth, async (ctx) => {
    const batch = readAlertBatch(ctx);
    ctx.status = 202;
    ctx.body = await adjudicateAlerts(adjudicateDeps(), workspace(ctx), batch);
  });

  router.get('/eudr/alerts/scan', auth, async (ctx) => {
    const request = parseScanRequest({
      plotIds: queryPlotIds(ctx),
      start: queryText(ctx, 'start'),
      end: queryText(ctx, 'end'),
      product: queryText(ctx, 'product'),
      minAreaHa: queryText(ctx, 'min_area_ha'),
    });
    ctx.body = (await scanAlerts(scanDeps(), workspace(ctx).id, request)).answer;
  });

  router.post('/eudr/alerts/scan-and-adjudicate', auth, async (ctx) => {
    const body = readBody(ctx, scanAndAdjudicateBody);
    const request = parseScanRequest({ plotIds: body.plot_ids, start: body.start, end: body.end, product: body.product, minAreaHa: body.min_area_ha });
    const answer = await scanAndAdjudicate(scanDeps(), adjudicateDeps(), workspace(ctx), request);
    ctx.status = answer.adjudicated.length > 0 ? 202 : 200;
    ctx.body = answer;
  });

  // A segment that is no plot id is left to the routes registered for it.
  router.get('/eudr/alerts/:id', auth, async (ctx, next) => {
    if (!isUuid(ctx.params.id)) return next();
    ctx.body = await getAlertAnswer(services.store.em(), services.queue, callerOf(ctx).workspaceId, pathId(ctx, 'alert'));
  });
  return router;
}
