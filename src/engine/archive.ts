/**
 * The archive a worker process reads (design decision 7): every product adapter of
 * src/engine/sources/products, configured once with one HTTP client and one range cache.
 * `ARCHIVE=public` reads the real hosts of data-products.md; a demo archive reads a generated
 * world in place (`file:` URLs, every provenance synthetic), its API-shaped sources (GFW Data API,
 * Overpass) asked through the client its caller gives (`api`), since files cannot answer a query.
 * Tests and benchmarks point the same adapters at a local archive server (`root` = its URL) to
 * read over HTTP with latency and faults.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ArchiveKind } from '../config.ts';
import { createHttpClient, type HttpClient } from './sources/http-client.ts';
import { createCanopyHeightAdapter, type CanopyHeightAdapter } from './sources/products/canopy-height/reader.ts';
import { createOilPalmAdapter, createRubberAdapter, type OilPalmAdapter, type RubberAdapter } from './sources/products/commodity-maps/reader.ts';
import { createDemAdapter, type DemAdapter } from './sources/products/copernicus-dem/reader.ts';
import { createEuForestMapsAdapter, type EuForestMapsAdapter } from './sources/products/eu-forest-maps/reader.ts';
import { createAlertsAdapter, type AlertsAdapter } from './sources/products/gfw-alerts/reader.ts';
import { createHansenAdapter, type HansenAdapter } from './sources/products/hansen/reader.ts';
import { createLandsatAdapter, type LandsatAdapter } from './sources/products/landsat/reader.ts';
import { createOpenBuildingsAdapter, type OpenBuildingsAdapter } from './sources/products/open-buildings/reader.ts';
import { createPalsarAdapter, type PalsarAdapter } from './sources/products/palsar/reader.ts';
import { createProtectedAreasAdapter, type ProtectedAreasAdapter } from './sources/products/protected-areas/reader.ts';
import type { ArchiveLocation } from './sources/products/provenance.ts';
import type { S2Catalogue } from './sources/products/sentinel-2/codes.ts';
import { createSentinel2Adapter, type Sentinel2Adapter } from './sources/products/sentinel-2/reader.ts';
import { createTmfAdapter, type TmfAdapter } from './sources/products/tmf/reader.ts';
import { createConcessionsAdapter, type ConcessionsAdapter } from './sources/products/wood-fibre-concessions/reader.ts';
import { DEFAULT_RANGE_CACHE_BYTES, RangeCache } from './sources/range-cache.ts';

export interface ArchiveOptions {
  kind: ArchiveKind;
  dataDir: string;
  /**
   * Where the archive's files are: a folder or `file:` URL, or the URL of a local archive server.
   * Required for demo; default for public: the real hosts.
   */
  root?: string;
  /** Where and through what the API-shaped sources (GFW Data API, Overpass) are asked; default: `root` through `http`. */
  api?: { root: string; http: HttpClient };
  /** Bytes the shared range cache keeps (default 256 MiB). */
  rangeCacheBytes?: number;
  http?: HttpClient;
  /** The GFW Data API key (alerts, concessions); absent, those sources answer `api_key_missing`. */
  gfwApiKey?: string;
}

export interface Archive {
  readonly kind: ArchiveKind;
  /** Every value read from it is generated, none observed. */
  readonly synthetic: boolean;
  /** Where raster products are read. */
  readonly where: ArchiveLocation;
  readonly http: HttpClient;
  readonly cache: RangeCache;
  readonly sentinel2: Sentinel2Adapter;
  readonly s2Catalogue: S2Catalogue;
  readonly landsat: LandsatAdapter;
  readonly palsar: PalsarAdapter;
  readonly canopyHeight: CanopyHeightAdapter;
  readonly dem: DemAdapter;
  readonly tmf: TmfAdapter;
  readonly euForestMaps: EuForestMapsAdapter;
  readonly hansen: HansenAdapter;
  readonly openBuildings: OpenBuildingsAdapter;
  readonly oilPalm: OilPalmAdapter;
  readonly rubber: RubberAdapter;
  readonly alerts: AlertsAdapter;
  readonly concessions: ConcessionsAdapter;
  readonly protectedAreas: ProtectedAreasAdapter;
  close(): Promise<void>;
}

const asRoot = (root: string) => (/^(https?|file):/i.test(root) ? root : pathToFileURL(root).href);

export async function openArchive(options: ArchiveOptions): Promise<Archive> {
  const demo = options.kind === 'demo';
  if (demo && options.root === undefined) throw new TypeError('archive option "root" is required for a demo archive (the folder it was generated into)');
  const http = options.http ?? createHttpClient();
  const ownsHttp = options.http === undefined;
  const cache = new RangeCache({ maxBytes: options.rangeCacheBytes ?? DEFAULT_RANGE_CACHE_BYTES });
  const where: ArchiveLocation = options.root === undefined ? { synthetic: demo } : { root: asRoot(options.root), synthetic: demo };
  const api = options.api === undefined ? { where, http } : { where: { root: asRoot(options.api.root), synthetic: demo }, http: options.api.http };
  const deps = { where, http, cache };
  const gfw = { ...api, apiKey: options.gfwApiKey };
  const s2Catalogue: S2Catalogue = 'earth-search-v1';
  return {
    kind: options.kind,
    synthetic: demo,
    where,
    http,
    cache,
    sentinel2: createSentinel2Adapter({ ...deps, catalogue: s2Catalogue }),
    s2Catalogue,
    landsat: createLandsatAdapter(deps),
    palsar: createPalsarAdapter(deps),
    canopyHeight: createCanopyHeightAdapter(deps),
    dem: createDemAdapter(deps),
    tmf: createTmfAdapter({ ...deps, cacheDir: join(options.dataDir, 'cache') }),
    euForestMaps: createEuForestMapsAdapter(deps),
    hansen: createHansenAdapter(deps),
    openBuildings: createOpenBuildingsAdapter(deps),
    oilPalm: createOilPalmAdapter(deps),
    rubber: createRubberAdapter(deps),
    alerts: createAlertsAdapter(gfw),
    concessions: createConcessionsAdapter(gfw),
    protectedAreas: createProtectedAreasAdapter(api),
    async close() {
      if (ownsHttp) http.close();
    },
  };
}
