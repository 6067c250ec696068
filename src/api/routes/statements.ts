import Router from '@koa/router';
import type { Context } from 'koa';
import { archiveReviewPrice } from '../../accounts/archive-review-price.ts';
import { invalid } from '../../errors.ts';
import { addPlots, changeShipment, createShipment, deleteShipment, listShipments, removePlot, removePlots, shipmentDetail, shipmentOf } from '../../statements/shipments.ts';
import { shipmentReport } from '../../statements/report.ts';
import { changeStatement, createStatement, listStatements, shipmentStatement, statementOf, storedStatement, type StatementCheck, type StatementDeps } from '../../statements/statements.ts';
import { STATEMENT_FORMATS, type StatementFormat } from '../../statements/statement-task.ts';
import { authenticate, callerOf } from '../auth.ts';
import type { Services } from '../context.ts';
import { addPlotsBody, readBody, removePlotsBody, shipmentBody, shipmentChangeBody, statementBody, statementChangeBody } from '../bodies.ts';
import { idempotent } from '../idempotency.ts';
import { isUuid, pathId } from '../parse.ts';

function formatOf(ctx: Context): StatementFormat {
  const value = ctx.query.format ?? 'json';
  if (typeof value !== 'string' || !(STATEMENT_FORMATS as readonly string[]).includes(value)) {
    throw invalid('bad_format', `format must be one of ${STATEMENT_FORMATS.join(', ')}`);
  }
  return value as StatementFormat;
}

const FILE_TYPES: Record<Exclude<StatementFormat, 'json'>, { type: string; extension: string }> = {
  // The envelope is SOAP 1.1 (schemas.xmlsoap.org/soap/envelope/), whose media type is text/xml; application/soap+xml is SOAP 1.2's.
  soap: { type: 'text/xml; charset=utf-8', extension: 'soap.xml' },
  xml: { type: 'application/xml; charset=utf-8', extension: 'xml' },
  geojson: { type: 'application/geo+json; charset=utf-8', extension: 'geojson' },
};

/** A file name that is safe in a header: the reference reduced to plain characters. */
const fileStem = (reference: string) => reference.replace(/[^\w.-]+/g, '_').slice(0, 80);

/** The check as JSON: spec 2.13's fields, and the evidence warnings added beside them. */
const checkOf = (r: StatementCheck) => ({
  ready: r.ready, schema_checked: r.schema_checked, problems: r.problems, evidence_warnings: r.evidence_warnings, evidence_summary: r.evidence_summary, payload: r.payload,
});

/** The check as JSON (spec 2.13), or the file under a name made of the reference. */
function answerStatement(ctx: Context, result: StatementCheck, format: StatementFormat, reference: string): void {
  if (format === 'json') {
    ctx.body = checkOf(result);
    return;
  }
  const file = FILE_TYPES[format];
  ctx.type = file.type;
  ctx.set('Content-Disposition', `attachment; filename="statement-${fileStem(reference)}.${file.extension}"`);
  ctx.body = result.file;
}

/** Shipments and due diligence statements (spec 4.9, 4.10). */
export function statementRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const em = () => services.store.em();
  const deps = (): StatementDeps => ({ em: em(), documents: services.pools.documents, schemaDir: services.config.tracesSchemaDir });
  const price = () => archiveReviewPrice(services.config.archiveReview);
  const workspaceOf = (ctx: Context) => callerOf(ctx).workspaceId;

  router.get('/portal/statements/shipments', auth, async (ctx) => {
    ctx.body = { shipments: await listShipments(em(), workspaceOf(ctx)), archive_review_price: price() };
  });

  router.post('/portal/statements/shipments', auth, idempotent(services.store), async (ctx) => {
    const body = readBody(ctx, shipmentBody);
    ctx.status = 201;
    ctx.body = { ...(await createShipment(em(), workspaceOf(ctx), body)), archive_review_price: price() };
  });

  router.get('/portal/statements/shipments/:id', auth, async (ctx) => {
    ctx.body = { ...(await shipmentDetail(em(), workspaceOf(ctx), pathId(ctx, 'shipment'))), archive_review_price: price() };
  });

  router.patch('/portal/statements/shipments/:id', auth, async (ctx) => {
    const id = pathId(ctx, 'shipment');
    ctx.body = { ...(await changeShipment(em(), workspaceOf(ctx), id, readBody(ctx, shipmentChangeBody))), archive_review_price: price() };
  });

  router.delete('/portal/statements/shipments/:id', auth, async (ctx) => {
    await deleteShipment(em(), workspaceOf(ctx), pathId(ctx, 'shipment'));
    ctx.status = 204;
  });

  router.post('/portal/statements/shipments/:id/plots', auth, async (ctx) => {
    const id = pathId(ctx, 'shipment');
    ctx.body = await addPlots(em(), workspaceOf(ctx), id, readBody(ctx, addPlotsBody));
  });

  router.post('/portal/statements/shipments/:id/plots/remove', auth, async (ctx) => {
    const id = pathId(ctx, 'shipment');
    ctx.body = await removePlots(em(), workspaceOf(ctx), id, readBody(ctx, removePlotsBody).plot_ids);
  });

  router.delete('/portal/statements/shipments/:id/plots/:plot_id', auth, async (ctx) => {
    const id = pathId(ctx, 'shipment');
    ctx.body = await removePlot(em(), workspaceOf(ctx), id, pathId(ctx, 'plot', 'plot_id'));
  });

  router.get('/portal/statements/shipments/:id/report.pdf', auth, async (ctx) => {
    const id = pathId(ctx, 'shipment');
    const shipment = await shipmentOf(em(), workspaceOf(ctx), id);
    const pdf = await shipmentReport({ em: em(), documents: services.pools.documents, baseUrl: services.config.baseUrl }, workspaceOf(ctx), id);
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="shipment-${fileStem(shipment.reference)}.pdf"`);
    ctx.body = pdf;
  });

  router.get('/portal/statements/shipments/:id/statement', auth, async (ctx) => {
    const id = pathId(ctx, 'shipment');
    const format = formatOf(ctx);
    const shipment = await shipmentOf(em(), workspaceOf(ctx), id);
    answerStatement(ctx, await shipmentStatement(deps(), workspaceOf(ctx), id, format), format, shipment.reference);
  });

  const storeStatement = async (ctx: Context) => {
    const body = readBody(ctx, statementBody);
    ctx.status = 201;
    ctx.body = await createStatement(em(), workspaceOf(ctx), body);
  };
  router.post('/portal/statements/from-shipment', auth, idempotent(services.store), storeStatement);
  router.post('/portal/statements', auth, idempotent(services.store), storeStatement);

  router.get('/portal/statements', auth, async (ctx) => {
    ctx.body = { statements: await listStatements(em(), workspaceOf(ctx)) };
  });

  // Segments that are no statement id are the family's own static paths (shipments).
  router.get('/portal/statements/:id', auth, async (ctx, next) => {
    if (!isUuid(ctx.params.id)) return next();
    const id = pathId(ctx, 'statement');
    const format = formatOf(ctx);
    const stored = await statementOf(em(), workspaceOf(ctx), id);
    const result = await storedStatement(deps(), workspaceOf(ctx), id, format);
    if (format === 'json') {
      ctx.body = { ...stored, check: checkOf(result) };
      return;
    }
    answerStatement(ctx, result, format, stored.internal_reference);
  });

  router.patch('/portal/statements/:id', auth, async (ctx, next) => {
    if (!isUuid(ctx.params.id)) return next();
    const id = pathId(ctx, 'statement');
    ctx.body = await changeStatement(em(), workspaceOf(ctx), id, readBody(ctx, statementChangeBody));
  });
  return router;
}
