import Router from '@koa/router';
import type { Context } from 'koa';
import type { ComplianceCover } from '../../documents/compliance-pdf.ts';
import { seasonCsv } from '../../documents/season-csv.ts';
import { exoneration, type Exoneration, layerOf } from '../../reading-service/exoneration.ts';
import type { EvidenceWrapper } from '../../reading-service/evidence-store.ts';
import { getBoundary, listBoundaries, readBoundaryAgain, removeBoundary, saveBoundary } from '../../reading-service/studio-boundaries.ts';
import { invalid, notFound } from '../../errors.ts';
import { admitStudio } from '../../accounts/allowance.ts';
import { authenticate, callerOf } from '../auth.ts';
import { BOUNDARY_MAX_VERTICES, boundaryBody, readBody } from '../bodies.ts';
import type { Services } from '../context.ts';
import { isUuid, pathId } from '../parse.ts';

export const EXPORT_FORMATS = ['pdf', 'compliance', 'csv', 'json'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const COVER_FIELDS = ['operator', 'plot_ref', 'commodity'] as const satisfies readonly (keyof ComplianceCover)[];
export const COVER_FIELD_MAX = 200;

/** One value of a query parameter; null when absent or blank. */
function queryValue(ctx: Context, name: string, refuse: () => Error): string | null {
  const value = ctx.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw refuse();
  return value.trim() === '' ? null : value.trim();
}

function aoiIdOf(ctx: Context): string {
  const value = queryValue(ctx, 'aoi_id', () => invalid('aoi_id_required', 'give aoi_id once: the id of a studio boundary'));
  if (value === null) throw invalid('aoi_id_required', 'aoi_id is required: the id of a studio boundary (GET /studio/boundaries lists them)');
  if (!isUuid(value)) throw notFound(`no studio boundary ${value} in this workspace`);
  return value.toLowerCase();
}

function formatOf(ctx: Context): ExportFormat {
  const refuse = () => invalid('bad_format', `format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const value = queryValue(ctx, 'format', refuse);
  if (value === null || !(EXPORT_FORMATS as readonly string[]).includes(value)) throw refuse();
  return value as ExportFormat;
}

function coverOf(ctx: Context): ComplianceCover {
  const field = (name: (typeof COVER_FIELDS)[number]) => {
    const refuse = () => invalid('bad_cover_field', `${name} must be given once, as text of at most ${COVER_FIELD_MAX} characters`);
    const value = queryValue(ctx, name, refuse);
    if (value !== null && value.length > COVER_FIELD_MAX) throw refuse();
    return value;
  };
  return { operator: field('operator'), plot_ref: field('plot_ref'), commodity: field('commodity') };
}

/** The served half as the evidence documents take it: the signed object, its integrity block and map, and the commodity the caller names. */
function documentInput(answer: Exoneration, commodity: string | null = null) {
  const wrapper: EvidenceWrapper = {
    plot_id: answer.boundary.id,
    external_ref: answer.boundary.name,
    state: 'done',
    issued: answer.signed.evidence.issued,
    evidence: answer.signed.evidence,
    integrity: answer.signed.integrity,
    // Archive readings are filed against register plots only.
    archive_review: null,
  };
  // The export's JSON of the same half is the object signed, once the two keys the route adds are removed.
  const subject = { noun: 'studio boundary', path: `/eudr/exoneration/export?aoi_id=${answer.boundary.id}&format=json&layer=${answer.layer}`, addedKeys: ['sensors', 'landsat'] };
  return { subject, wrapper, register: { commodity }, map: answer.signed.map };
}

/** A file name that is safe in a header: the boundary's name reduced to plain characters. */
const fileStem = (answer: Exoneration) => answer.boundary.name.replace(/[^\w.-]+/g, '_').slice(0, 80) || answer.boundary.id;

/** Studio boundaries and their single-boundary evidence (spec 1 capability 6, 4.6): workspace members only. */
export function studioRoutes(services: Services) {
  const router = new Router();
  // Every route of the family reads or queues a boundary's evidence: the plan is checked after the seat.
  const authenticated = authenticate(services);
  const auth = (ctx: Context, next: () => Promise<unknown>) => authenticated(ctx, () => {
    admitStudio(callerOf(ctx).plan);
    return next();
  });
  const em = () => services.store.em();
  const limits = { maxVertices: BOUNDARY_MAX_VERTICES, maxAreaHa: services.config.intakeCaps.plotAreaHa };

  router.post('/studio/boundaries', auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await saveBoundary(em(), services.queue, callerOf(ctx).workspaceId, readBody(ctx, boundaryBody), limits);
  });

  router.get('/studio/boundaries', auth, async (ctx) => {
    ctx.body = { boundaries: await listBoundaries(em(), callerOf(ctx).workspaceId) };
  });

  router.get('/studio/boundaries/:id', auth, async (ctx) => {
    ctx.body = await getBoundary(em(), callerOf(ctx).workspaceId, pathId(ctx, 'studio boundary'));
  });

  router.post('/studio/boundaries/:id/read', auth, async (ctx) => {
    ctx.body = await readBoundaryAgain(em(), services.queue, callerOf(ctx).workspaceId, pathId(ctx, 'studio boundary'));
  });

  router.delete('/studio/boundaries/:id', auth, async (ctx) => {
    await removeBoundary(em(), callerOf(ctx).workspaceId, pathId(ctx, 'studio boundary'));
    ctx.status = 204;
  });

  router.get('/eudr/exoneration', auth, async (ctx) => {
    ctx.body = (await exoneration(em(), services.queue, callerOf(ctx).workspaceId, aoiIdOf(ctx))).object;
  });

  // Built by calling what the JSON route calls: every format is the object the JSON route serves.
  router.get('/eudr/exoneration/export', auth, async (ctx) => {
    const aoiId = aoiIdOf(ctx);
    const format = formatOf(ctx);
    const layer = layerOf(queryValue(ctx, 'layer', () => invalid('bad_layer', 'give layer once')) ?? undefined);
    // Checked before the answer is fetched, so a bad field queues nothing.
    const cover = format === 'compliance' ? coverOf(ctx) : null;
    const answer = await exoneration(em(), services.queue, callerOf(ctx).workspaceId, aoiId, layer);
    const stem = `exoneration-${fileStem(answer)}-${answer.layer}`;
    const options = { baseUrl: services.config.baseUrl };
    if (cover !== null) {
      const read = { sensors: answer.object.sensors, landsat: answer.object.landsat.state };
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', `inline; filename="${stem}-compliance.pdf"`);
      ctx.body = await services.pools.documents.compliancePdf({ ...documentInput(answer, cover.commodity), cover, read }, options);
    } else if (format === 'json') {
      ctx.set('Content-Disposition', `attachment; filename="${stem}.json"`);
      ctx.body = answer.object;
    } else if (format === 'csv') {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="${stem}.csv"`);
      ctx.body = seasonCsv(answer.object);
    } else {
      ctx.type = 'application/pdf';
      ctx.set('Content-Disposition', `inline; filename="${stem}.pdf"`);
      ctx.body = await services.pools.documents.evidencePdf(documentInput(answer), options);
    }
  });
  return router;
}
