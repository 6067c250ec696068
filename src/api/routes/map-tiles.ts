import Router from '@koa/router';
import type { Context } from 'koa';
import { invalid } from '../../errors.ts';
import { CHANGE_LAYERS, CHANGE_LEGENDS, type ChangeLayer, IMAGERY_LAYERS, type ImageryLayer, isChangeLayer, isImageryLayer, ZOOMS } from '../../engine/map-layers.ts';
import type { TileRequest } from '../../reading-service/map-tiles.ts';
import type { ImageryChoice, TileAddress } from '../../engine/plan/map-tile.ts';
import { authenticate } from '../auth.ts';
import type { Services } from '../context.ts';

const params = (ctx: Context) => (ctx as unknown as { params: Record<string, string> }).params;

function imageryLayer(ctx: Context): ImageryLayer {
  const layer = params(ctx).layer;
  if (!isImageryLayer(layer)) throw invalid('bad_layer', `"${layer}" is not an imagery layer; the layers under /tiles are ${IMAGERY_LAYERS.join(', ')} (change layers are under /change/tiles)`);
  return layer;
}

function changeLayer(ctx: Context): ChangeLayer {
  const layer = params(ctx).layer;
  if (!isChangeLayer(layer)) throw invalid('bad_layer', `"${layer}" is not a change layer; the layers under /change/tiles are ${CHANGE_LAYERS.join(', ')} (imagery is under /tiles)`);
  return layer;
}

/** z/x/y of the XYZ grid, z within the layer's zooms. */
function tileAddress(ctx: Context, layer: ImageryLayer | ChangeLayer): TileAddress {
  const { z, x, y } = params(ctx);
  const { min, max } = ZOOMS[layer];
  if (!/^\d{1,2}$/.test(z) || Number(z) < min || Number(z) > max) throw invalid('bad_zoom', `the ${layer} layer is drawn from zoom ${min} to ${max}; ${z} is outside it`);
  const n = 2 ** Number(z);
  for (const [name, v] of [['x', x], ['y', y]] as const) {
    if (!/^\d{1,9}$/.test(v) || Number(v) >= n) throw invalid('bad_tile', `${name} must be a whole number from 0 to ${n - 1} at zoom ${z}, got "${v}"`);
  }
  return { z: Number(z), x: Number(x), y: Number(y) };
}

/** `scene=<id>` or `season=<YYYY>`, exactly one. */
function imageryChoice(ctx: Context): ImageryChoice {
  const { scene, season } = ctx.query;
  if (scene !== undefined && season !== undefined) throw invalid('bad_scene', 'give scene=<scene id> or season=<year>, not both');
  if (typeof scene === 'string' && scene !== '') {
    if (!/^[\w.-]{1,200}$/.test(scene)) throw invalid('bad_scene', 'scene must be a scene identifier as the evidence\'s scenes list names it (letters, digits, _ . -)');
    return { scene };
  }
  if (typeof season === 'string' && season !== '') {
    const year = Number(season);
    const thisYear = new Date().getUTCFullYear();
    if (!/^\d{4}$/.test(season) || year < 2015 || year > thisYear) throw invalid('bad_season', `season must be a year from 2015 (the first Sentinel-2 season) to ${thisYear}, got "${season}"`);
    return { season: year };
  }
  if (scene !== undefined) throw invalid('bad_scene', 'scene must name one scene, once');
  if (season !== undefined) throw invalid('bad_season', 'season must name one year, once');
  throw invalid('bad_scene', 'name what to draw: scene=<scene id> (one scene, as the timeline lists them) or season=<year> (the median of that year\'s clear scenes)');
}

/** Map tiles (spec 4.10, last paragraph): imagery under /tiles, change layers under /change/tiles, reachable with a portal key (spec 5.5). */
export function mapTileRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);

  const answer = async (ctx: Context, req: TileRequest) => {
    const tag = await services.mapTiles.name(req);
    const current = ctx.get('If-None-Match').split(/\s*,\s*/).includes(tag.etag);
    const png = current ? null : await tag.render();
    // Set once the tile is in hand, so a refusal is never kept as a tile.
    ctx.set('ETag', tag.etag);
    ctx.set('Cache-Control', `private, max-age=${tag.maxAgeS}`);
    if (png === null) ctx.status = 304;
    else {
      ctx.type = 'image/png';
      ctx.body = png;
    }
  };

  router.get('/tiles/:layer/:z/:x/:y.png', auth, async (ctx) => {
    const layer = imageryLayer(ctx);
    await answer(ctx, { family: 'imagery', layer, tile: tileAddress(ctx, layer), choice: imageryChoice(ctx) });
  });

  router.get('/change/tiles/:layer/legend', auth, (ctx) => {
    ctx.body = CHANGE_LEGENDS[changeLayer(ctx)];
  });

  router.get('/change/tiles/:layer/:z/:x/:y.png', auth, async (ctx) => {
    const layer = changeLayer(ctx);
    await answer(ctx, { family: 'change', layer, tile: tileAddress(ctx, layer) });
  });
  return router;
}
