// Searches the Sentinel-2 catalogues and plans reads of their assets, signed where the host needs it (codes.ts holds items and encodings).
import type { Cog } from '../../cog.ts';
import type { PlannedLayer } from '../../raster-request.ts';
import type { Bbox } from '../../reproject.ts';
import { openCatalogue, parsedOnce } from '../../stac.ts';
import { archiveUrl } from '../archive-url.ts';
import { CogOpener, PlanetaryComputerSigner, type ProductDeps, sceneLayers } from '../cog-opener.ts';
import { parseS2Item, PC_SAS_TOKEN_URL, ProductItemError, S2_CATALOGUES, type S2Asset, type S2Catalogue, type S2Scene, sentinel2Provenance, type StacItemLike } from './codes.ts';

export interface SceneSearch {
  /** [west, south, east, north] in degrees. */
  bbox: [number, number, number, number];
  /** Inclusive dates, YYYY-MM-DD. */
  start: string;
  end: string;
  /** Items with at least this much cloud (percent of the tile) are not asked for. */
  maxCloudCover?: number;
}

export interface Sentinel2Adapter {
  search(q: SceneSearch, signal?: AbortSignal): Promise<S2Scene[]>;
  /**
   * Each asset's window over a box (lon/lat), with the encoding the item states: a reflectance
   * band's is settled where its pixels are read (`settleReflectanceEncoding` after `inferBoaOffset`).
   */
  sceneWindows<A extends S2Asset>(scene: S2Scene, box: Bbox, assets: readonly A[], signal?: AbortSignal): Promise<Record<A, PlannedLayer>>;
}

export function stacDatetime(start: string, end: string): string {
  return `${start}T00:00:00Z/${end}T23:59:59Z`;
}

export function createSentinel2Adapter(opts: ProductDeps & { catalogue: S2Catalogue }): Sentinel2Adapter {
  const { catalogue } = opts;
  const def = S2_CATALOGUES[catalogue];
  const cogs = new CogOpener(opts);
  const signer = new PlanetaryComputerSigner(opts);
  const stac = openCatalogue(archiveUrl(def.api, opts.where, { api: true }), { http: opts.http });
  // An asset's COG, signed where the host needs it.
  const openAsset = async (scene: S2Scene, asset: S2Asset, name: string, signal?: AbortSignal): Promise<Cog> => {
    const ref = scene.assets[asset];
    if (!ref) throw new ProductItemError(`scene ${scene.id} has no ${asset} asset`);
    const query = catalogue === 'planetary-computer' ? await signer.query(PC_SAS_TOKEN_URL, signal) : undefined;
    return cogs.open(ref.href, { name, query, signal });
  };
  const parse = parsedOnce((item: StacItemLike) => parseS2Item(item, catalogue));
  return {
    async search(q, signal) {
      const out: S2Scene[] = [];
      const query = q.maxCloudCover === undefined ? undefined : { 'eo:cloud_cover': { lt: q.maxCloudCover } };
      for await (const item of stac.search({ collections: [def.collection], bbox: q.bbox, datetime: stacDatetime(q.start, q.end), query }, signal)) {
        out.push(parse(item as unknown as StacItemLike));
      }
      return out.sort((a, b) => (a.datetime < b.datetime ? -1 : a.datetime > b.datetime ? 1 : 0));
    },
    sceneWindows(scene, box, assets, signal) {
      return sceneLayers(assets, box, (a, name) => openAsset(scene, a, name, signal), (a) => scene.assets[a]!.encoding, sentinel2Provenance(scene, opts.where));
    },
  };
}
