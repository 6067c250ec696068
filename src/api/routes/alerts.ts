import Router from '@koa/router';
import type { Context } from 'koa';
import { adjudicateAlerts, type AdjudicateDeps } from '../../alerts/adjudicate.ts';
import { getAlertAnswer } from '../../alerts/alert-answer.ts';
import { closeCaseWithNote, createMonitor, getCase, listCases, listMonitors } from '../../alerts/monitors.ts';
import { scanAndAdjudicate } from '../../alerts/scan-and-adjudicate.ts';
import { parseScanRequest, scanAlerts, type ScanDeps } from '../../alerts/scan.ts';
import { alertRefusal, invalid, notFound, type AlertCode } from '../../errors.ts';
import { CASE_STATUSES, type CaseStatus } from '../../store/entities/index.ts';
import { authenticate, callerOf } from '../auth.ts';
import { closeCaseBody, monitorBody, readAlertBatch, readBody, scanAndAdjudicateBody } from '../bodies.ts';
import type { Services } from '../context.ts';
import { idempotent } from '../idempotency.ts';
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

/** One filter of the case list: a single value, or none. */
function caseQuery(ctx: Context, name: 'status' | 'monitor_id' | 'plot_id'): string | null {
  const value = ctx.query[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw invalid('bad_body', `${name} is given more than once`);
  return value.trim().toLowerCase();
}

/** `status` of the alert queue: open (the default), closed or all. */
function caseStatus(ctx: Context): CaseStatus | null {
  const status = caseQuery(ctx, 'status') ?? 'open';
  if (status === 'all') return null;
  if (!(CASE_STATUSES as readonly string[]).includes(status)) throw invalid('bad_state', `status must be ${CASE_STATUSES.join(', ')} or all`);
  return status as CaseStatus;
}

/** A filter naming an id: one that cannot be an id names nothing in the workspace. */
function idFilter(ctx: Context, name: 'monitor_id' | 'plot_id'): string | null {
  const value = caseQuery(ctx, name);
  if (value !== null && !isUuid(value)) throw notFound(`no ${name.replace('_id', '')} ${value} in this workspace`);
  return value;
}

/** Alert adjudication and scans (spec 4.4, 4.5), monitors and the alert queue; open to portal and workspace-member keys alike. */
export function alertRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const workspace = (ctx: Context) => {
    const caller = callerOf(ctx);
    return { id: caller.workspaceId, plan: caller.plan };
  };
  const adjudicateDeps = (): AdjudicateDeps => ({ em: services.store.em(), queue: services.queue, judge: services.pools.intake.judgeAlerts });
  const scanDeps = (): ScanDeps => ({ em: services.store.em(), source: services.alerts, clusters: services.pools.alerts.clusters });

  router.post('/eudr/alerts/adjudicate', auth, idempotent(services.store), async (ctx) => {
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

  router.post('/eudr/alerts/scan-and-adjudicate', auth, idempotent(services.store), async (ctx) => {
    const body = readBody(ctx, scanAndAdjudicateBody);
    const request = parseScanRequest({ plotIds: body.plot_ids, start: body.start, end: body.end, product: body.product, minAreaHa: body.min_area_ha });
    const answer = await scanAndAdjudicate(scanDeps(), adjudicateDeps(), workspace(ctx), request);
    ctx.status = answer.adjudicated.length > 0 ? 202 : 200;
    ctx.body = answer;
  });

  router.post('/eudr/alerts/monitors', auth, async (ctx) => {
    const body = readBody(ctx, monitorBody);
    ctx.status = 201;
    ctx.body = await createMonitor(services.store.em(), workspace(ctx).id, body);
  });

  router.get('/eudr/alerts/monitors', auth, async (ctx) => {
    ctx.body = { monitors: await listMonitors(services.store.em(), workspace(ctx).id) };
  });

  router.get('/eudr/alerts/cases', auth, async (ctx) => {
    const filter = { status: caseStatus(ctx), monitorId: idFilter(ctx, 'monitor_id'), plotId: idFilter(ctx, 'plot_id') };
    ctx.body = { cases: await listCases(services.store.em(), workspace(ctx).id, filter) };
  });

  router.get('/eudr/alerts/cases/:id', auth, async (ctx) => {
    ctx.body = await getCase(services.store.em(), workspace(ctx).id, pathId(ctx, 'alert case'));
  });

  router.post('/eudr/alerts/cases/:id/close', auth, async (ctx) => {
    const caseId = pathId(ctx, 'alert case');
    const { note } = readBody(ctx, closeCaseBody);
    ctx.body = await closeCaseWithNote(services.store.em(), workspace(ctx).id, caseId, note);
  });

  // A segment that is no plot id is left to the routes registered for it.
  router.get('/eudr/alerts/:id', auth, async (ctx, next) => {
    if (!isUuid(ctx.params.id)) return next();
    ctx.body = await getAlertAnswer(services.store.em(), services.queue, callerOf(ctx).workspaceId, pathId(ctx, 'alert'));
  });
  return router;
}
