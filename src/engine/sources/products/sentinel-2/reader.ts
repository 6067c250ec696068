// Searches the Sentinel-2 catalogues and opens their assets, signed where the host needs it (codes.ts holds items and encodings).
import type { Cog, RasterWindow } from '../../cog.ts';
import { openCatalogue } from '../../stac.ts';
import { archiveUrl } from '../archive-url.ts';
import { CogOpener, PlanetaryComputerSigner, type ProductDeps } from '../cog-opener.ts';
import type { Provenance } from '../provenance.ts';
import { type BoaOffsetInference, inferBoaOffset, parseS2Item, PC_SAS_TOKEN_URL, ProductItemError, S2_CATALOGUES, type S2Asset, type S2Catalogue, type S2Scene, sentinel2Provenance, settleReflectanceEncoding, type StacItemLike, type ValueEncoding } from './codes.ts';

export interface SceneSearch {
  /** [west, south, east, north] in degrees. */
  bbox: [number, number, number, number];
  /** Inclusive dates, YYYY-MM-DD. */
  start: string;
  end: string;
  /** Items with at least this much cloud (percent of the tile) are not asked for. */
  maxCloudCover?: number;
}

export interface BandRead {
  window: RasterWindow;
  /** The encoding to read this band with: for reflectance, after the BOA offset is settled. */
  encoding: ValueEncoding;
}

export interface S2SceneRead {
  scene: S2Scene;
  bands: Partial<Record<S2Asset, BandRead>>;
  boa: { inference: BoaOffsetInference; flagOverruled: boolean };
  provenance: Provenance;
}

export interface Sentinel2Adapter {
  search(q: SceneSearch, signal?: AbortSignal): Promise<S2Scene[]>;
  /** Opens an asset's COG (for engines that fetch and decode tiles themselves). */
  openAsset(scene: S2Scene, asset: S2Asset, signal?: AbortSignal): Promise<Cog>;
  /** Reads assets over a box (lon/lat); reflectance comes with its settled encoding. */
  readScene(scene: S2Scene, bbox: [number, number, number, number], assets: S2Asset[], signal?: AbortSignal): Promise<S2SceneRead>;
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
  const openAsset = async (scene: S2Scene, asset: S2Asset, signal?: AbortSignal) => {
    const ref = scene.assets[asset];
    if (!ref) throw new ProductItemError(`scene ${scene.id} has no ${asset} asset`);
    const query = catalogue === 'planetary-computer' ? await signer.query(PC_SAS_TOKEN_URL, signal) : undefined;
    return cogs.open(ref.href, { query, signal });
  };
  return {
    async search(q, signal) {
      const out: S2Scene[] = [];
      const query = q.maxCloudCover === undefined ? undefined : { 'eo:cloud_cover': { lt: q.maxCloudCover } };
      for await (const item of stac.search({ collections: [def.collection], bbox: q.bbox, datetime: stacDatetime(q.start, q.end), query }, signal)) {
        out.push(parseS2Item(item as unknown as StacItemLike, catalogue));
      }
      return out.sort((a, b) => (a.datetime < b.datetime ? -1 : a.datetime > b.datetime ? 1 : 0));
    },
    openAsset,
    async readScene(scene, bbox, assets, signal) {
      const wanted = [...new Set(assets)];
      // The pixel check needs a visible band; read blue for it when reflectance is asked for.
      const check = scene.assets.blue?.reflectance?.verifyWithPixels && wanted.some((a) => scene.assets[a]?.reflectance) ? 'blue' : null;
      if (check && !wanted.includes(check)) wanted.push(check);
      const windows = await Promise.all(wanted.map(async (a) => (await openAsset(scene, a, signal)).readBbox(bbox, 'EPSG:4326', signal)));
      const byAsset = Object.fromEntries(wanted.map((a, i) => [a, windows[i]])) as Record<S2Asset, RasterWindow>;
      const inference = check ? inferBoaOffset(byAsset[check].raw, scene.assets[check]!.encoding.nodata ?? 0) : 'undecided';
      let flagOverruled = false;
      const bands: S2SceneRead['bands'] = {};
      for (const a of assets) {
        const ref = scene.assets[a]!;
        let encoding = ref.encoding;
        if (ref.reflectance) {
          const settled = settleReflectanceEncoding(ref.reflectance, inference);
          flagOverruled ||= settled.flagOverruled;
          encoding = { scale: settled.scale, offset: settled.offset, nodata: settled.nodata };
        }
        bands[a] = { window: byAsset[a], encoding };
      }
      return { scene, bands, boa: { inference, flagOverruled }, provenance: sentinel2Provenance(scene, opts.where) };
    },
  };
}
