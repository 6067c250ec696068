// Searches the Landsat catalogue and plans reads of its band files, signed on the real host (codes.ts holds items, bands and QA bits).
import type { PlannedLayer } from '../../raster-request.ts';
import type { Bbox } from '../../reproject.ts';
import { openCatalogue, parsedOnce } from '../../stac.ts';
import { archiveUrl } from '../archive-url.ts';
import { CogOpener, PlanetaryComputerSigner, type ProductDeps, sceneLayers } from '../cog-opener.ts';
import type { StacItemLike } from '../sentinel-2/codes.ts';
import type { SceneSearch } from '../sentinel-2/reader.ts';
import { ProductItemError } from '../sentinel-2/codes.ts';
import { stacDatetime } from '../sentinel-2/reader.ts';
import { LANDSAT_CATALOGUE, LANDSAT_SAS_TOKEN_URL, type LandsatAsset, landsatProvenance, type LandsatScene, parseLandsatItem } from './codes.ts';

export interface LandsatAdapter {
  search(q: SceneSearch, signal?: AbortSignal): Promise<LandsatScene[]>;
  /** Each asset's window over a box (lon/lat), with the encoding the item states. */
  sceneWindows<A extends LandsatAsset>(scene: LandsatScene, box: Bbox, assets: readonly A[], signal?: AbortSignal): Promise<Record<A, PlannedLayer>>;
}

/** Landsat 8 and 9 (OLI/TIRS) only: the scenes whose band files this adapter names. */
const OLI_PLATFORMS = ['landsat-8', 'landsat-9'];

export function createLandsatAdapter(opts: ProductDeps): LandsatAdapter {
  const cogs = new CogOpener(opts);
  const signer = new PlanetaryComputerSigner(opts);
  const stac = openCatalogue(archiveUrl(LANDSAT_CATALOGUE.api, opts.where, { api: true }), { http: opts.http });
  const openAsset = async (scene: LandsatScene, asset: LandsatAsset, name: string, signal?: AbortSignal) => {
    const ref = scene.assets[asset];
    if (!ref) throw new ProductItemError(`scene ${scene.id} has no ${asset} asset`);
    return cogs.open(ref.href, { name, query: await signer.query(LANDSAT_SAS_TOKEN_URL, signal), signal });
  };
  const parse = parsedOnce(parseLandsatItem);
  return {
    async search(q, signal) {
      const out: LandsatScene[] = [];
      const query: Record<string, Record<string, unknown>> = { platform: { in: OLI_PLATFORMS } };
      if (q.maxCloudCover !== undefined) query['eo:cloud_cover'] = { lt: q.maxCloudCover };
      for await (const item of stac.search({ collections: [LANDSAT_CATALOGUE.collection], bbox: q.bbox, datetime: stacDatetime(q.start, q.end), query }, signal)) {
        out.push(parse(item as unknown as StacItemLike));
      }
      return out.sort((a, b) => (a.datetime < b.datetime ? -1 : a.datetime > b.datetime ? 1 : 0));
    },
    sceneWindows(scene, box, assets, signal) {
      return sceneLayers(assets, box, (a, name) => openAsset(scene, a, name, signal), (a) => scene.assets[a]!.encoding, landsatProvenance(scene, opts.where));
    },
  };
}
