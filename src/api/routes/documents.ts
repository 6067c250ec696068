import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { archiveReviewPrice } from '../../accounts/archive-review-price.ts';
import { bookSummary, bookSummaryCsv } from '../../documents/book-summary.ts';
import { dashboard } from '../../documents/dashboard.ts';
import { getEvidenceDocument } from '../../reading-service/evidence-store.ts';
import { evidenceDocumentParts } from '../../documents/evidence-document-parts.ts';
import { authenticate, callerOf } from '../auth.ts';
import { answeredNotModified, entityTag } from '../entity-tag.ts';
import type { Services } from '../context.ts';
import { invalid } from '../../errors.ts';
import { pathId } from '../parse.ts';

const FORMATS = ['json', 'csv'] as const;

function formatOf(ctx: Context): (typeof FORMATS)[number] {
  const value = ctx.query.format ?? 'json';
  if (typeof value !== 'string' || !(FORMATS as readonly string[]).includes(value)) {
    throw invalid('bad_format', `format must be one of ${FORMATS.join(', ')}`);
  }
  return value as (typeof FORMATS)[number];
}

/** A file name that is safe in a header: the caller's reference reduced to plain characters. */
const fileStem = (ref: string | null, id: string) => (ref ? ref.replace(/[^\w.-]+/g, '_').slice(0, 80) : id);

/** Documents of the plot register (spec 4.2 book summary, 4.3 evidence PDF) and the dashboard (4.10). */
export function documentRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const em = () => services.store.em();

  router.get('/portal/plots/summary', auth, async (ctx) => {
    const { workspaceId } = callerOf(ctx);
    if (formatOf(ctx) === 'json') {
      ctx.body = await bookSummary(em(), workspaceId, archiveReviewPrice(services.config.archiveReview));
      return;
    }
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', 'attachment; filename="plots-summary.csv"');
    ctx.body = Readable.from(bookSummaryCsv(em(), workspaceId, services.config.baseUrl));
  });

  router.get('/portal/dashboard', auth, async (ctx) => {
    const { workspaceId, plan } = callerOf(ctx);
    ctx.body = await dashboard(em(), { id: workspaceId, plan }, archiveReviewPrice(services.config.archiveReview));
  });

  router.get('/portal/plots/:id/evidence.pdf', auth, async (ctx) => {
    const { workspaceId } = callerOf(ctx);
    const plotId = pathId(ctx, 'plot');
    const source = await getEvidenceDocument(em(), workspaceId, plotId);
    const options = { baseUrl: services.config.baseUrl };
    if (answeredNotModified(ctx, entityTag(...evidenceDocumentParts(source, options)))) return;
    const pdf = await services.pools.documents.evidencePdf(source, options);
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="evidence-${fileStem(source.wrapper.external_ref, plotId)}.pdf"`);
    ctx.body = pdf;
  });
  return router;
}
