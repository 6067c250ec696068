import Router from '@koa/router';
import type { Context } from 'koa';
import { archiveReviewPrice } from '../../accounts/archive-review-price.ts';
import { invalid, notFound } from '../../errors.ts';
import { ACCEPTED_COUNTRY_FORMS, recognisedCountries } from '../../intake/countries.ts';
import { fileTooLarge } from '../../intake/errors.ts';
import { importPlots, validatePlotFile } from '../../intake/import-plots.ts';
import { MAX_FILE_BYTES } from '../../intake/limits.ts';
import { attachProducer, createProducer, listProducers } from '../../intake/producer-register.ts';
import { listPlots, parseStateFilter, plotDetail, plotRow, PLOT_TONES } from '../../intake/register.ts';
import { EVIDENCE_STATES } from '../../store/entities/index.ts';
import { authenticate, callerOf } from '../auth.ts';
import type { Services } from '../context.ts';
import { attachProducerBody, producerBody, readBody } from '../bodies.ts';
import { isUuid, pathId } from '../parse.ts';
import { queryBoolean, queryInteger, queryText } from '../query.ts';
import { idempotent, requestDigest } from '../idempotency.ts';
import { streamedJson } from '../streamed-json.ts';
import { readUpload, uploadsPerWorkspace } from '../upload.ts';

export const PAGE = { defaultLimit: 50, maxLimit: 500 } as const;

/** The plot register family (spec 4.1): upload, list, detail, producers. */
export function plotRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const em = () => services.store.em();
  const uploads = uploadsPerWorkspace(services.config.uploadsPerWorkspace);

  const upload = async (ctx: Context) => {
    const caller = callerOf(ctx);
    const file = await readUpload(ctx, { field: 'file', maxBytes: MAX_FILE_BYTES, tooLarge: fileTooLarge, timeoutMs: services.config.uploadTimeoutMs });
    return { workspaceId: caller.workspaceId, bytes: file.bytes, filename: file.filename, country: queryText(ctx, 'country') };
  };

  // A report holds an entry per plot, up to 100,000: written out a slice at a time.
  router.post('/portal/plots/validate', auth, uploads, async (ctx) => {
    ctx.type = 'application/json';
    ctx.body = streamedJson(await validatePlotFile(em(), services.pools.intake.judge, await upload(ctx)), 'plots');
  });

  const sameImport = async (ctx: Context) => {
    const file = await upload(ctx);
    return requestDigest(ctx, file.filename ?? '', file.bytes);
  };
  router.post('/portal/plots/import', auth, uploads, idempotent(services.store, sameImport), async (ctx) => {
    ctx.type = 'application/json';
    ctx.body = streamedJson(await importPlots(em(), services.pools.intake.judge, await upload(ctx)), 'plots');
  });

  router.get('/portal/plots/countries', auth, (ctx) => {
    ctx.body = { countries: recognisedCountries(), accepted_forms: ACCEPTED_COUNTRY_FORMS };
  });

  router.get('/portal/plots/producers', auth, async (ctx) => {
    ctx.body = { producers: await listProducers(em(), callerOf(ctx).workspaceId) };
  });

  router.post('/portal/plots/producers', auth, async (ctx) => {
    const body = readBody(ctx, producerBody);
    ctx.status = 201;
    ctx.body = await createProducer(em(), callerOf(ctx).workspaceId, body);
  });

  router.get('/portal/plots', auth, async (ctx) => {
    const limit = queryInteger(ctx, 'limit', PAGE.defaultLimit, 1, PAGE.maxLimit);
    const offset = queryInteger(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const stateText = queryText(ctx, 'state');
    const state = stateText === null ? null : parseStateFilter(stateText);
    if (stateText !== null && state === null) {
      throw invalid('bad_state', `state must be an evidence state (${EVIDENCE_STATES.join(', ')}) or a tone (${PLOT_TONES.join(', ')})`);
    }
    const page = await listPlots(em(), callerOf(ctx).workspaceId, {
      limit,
      offset,
      state,
      q: queryText(ctx, 'q'),
      shipmentId: queryText(ctx, 'shipment_id'),
      postCutoffLoss: queryBoolean(ctx, 'post_cutoff_loss'),
    });
    ctx.body = { total: page.total, total_exact: page.exact, limit, offset, plots: page.rows, archive_review_price: archiveReviewPrice(services.config.archiveReview) };
  });

  // A segment that is no plot id is left to the routers mounted after this one (their own static
  // paths under /portal/plots); if none takes it, the answer is 404 not_found all the same.
  router.get('/portal/plots/:id', auth, async (ctx, next) => {
    if (!isUuid(ctx.params.id)) return next();
    ctx.body = await plotDetail(em(), callerOf(ctx).workspaceId, pathId(ctx, 'plot'));
  });

  router.post('/portal/plots/:id/producer', auth, async (ctx, next) => {
    if (!isUuid(ctx.params.id)) return next();
    const workspaceId = callerOf(ctx).workspaceId;
    const plotId = pathId(ctx, 'plot');
    const producerId = readBody(ctx, attachProducerBody).producer_id;
    await plotRow(em(), workspaceId, plotId); // the plot is looked for first
    if (producerId !== null && !isUuid(producerId)) throw notFound(`no producer ${producerId} in this workspace`);
    await attachProducer(em(), workspaceId, plotId, producerId === null ? null : producerId.toLowerCase());
    ctx.body = await plotRow(em(), workspaceId, plotId);
  });
  return router;
}
