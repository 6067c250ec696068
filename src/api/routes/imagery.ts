import Router from '@koa/router';
import type { Context } from 'koa';
import { archiveReviewPrice } from '../../accounts/archive-review-price.ts';
import { invalid, notFound } from '../../errors.ts';
import { type Place, placeCoverage } from '../../reading-service/archive-coverage.ts';
import { imageryTimeline } from '../../reading-service/imagery-timeline.ts';
import { authenticate, callerOf } from '../auth.ts';
import type { Services } from '../context.ts';
import { isUuid, pathId } from '../parse.ts';

const NUMBER = /^-?\d+(\.\d+)?$/;

/** `plot_id=<id>` or `lat=…&lon=…` in degrees. */
function placeOf(ctx: Context): Place {
  const { plot_id: plotId, lat, lon } = ctx.query;
  if (plotId !== undefined) {
    if (lat !== undefined || lon !== undefined) throw invalid('bad_place', 'give plot_id=<id> or lat and lon, not both');
    if (typeof plotId !== 'string' || !isUuid(plotId)) throw notFound(`no plot ${String(plotId)} in this workspace`);
    return { plotId: plotId.toLowerCase() };
  }
  if (typeof lat !== 'string' || typeof lon !== 'string' || !NUMBER.test(lat) || !NUMBER.test(lon)) {
    throw invalid('bad_place', 'name the place: plot_id=<plot id>, or lat=<degrees north>&lon=<degrees east> as decimal numbers');
  }
  const [y, x] = [Number(lat), Number(lon)];
  if (y < -90 || y > 90 || x < -180 || x > 180) throw invalid('bad_place', `lat must lie from -90 to 90 and lon from -180 to 180, got lat ${lat}, lon ${lon}`);
  return { lat: y, lon: x };
}

/** A plot's imagery timeline and the archive coverage of a place (spec 4.10, last paragraph). */
export function imageryRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const em = () => services.store.em();

  router.get('/portal/plots/:id/timeline', auth, async (ctx) => {
    ctx.body = await imageryTimeline(em(), callerOf(ctx).workspaceId, pathId(ctx, 'plot'), services.config.baseUrl);
  });

  router.get('/portal/coverage', auth, async (ctx) => {
    const place = placeOf(ctx);
    const coverage = await placeCoverage(em(), services.archive, callerOf(ctx).workspaceId, place, new Date().toISOString().slice(0, 10));
    ctx.body = { ...coverage, review_price: archiveReviewPrice(services.config.archiveReview) };
  });
  return router;
}
