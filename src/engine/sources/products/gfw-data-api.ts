// The Global Forest Watch Data API (data-products.md §10, §13): dataset versions from its
// catalogue, and SQL queries posted with a geometry and an `x-api-key`. The old `/query` path
// answers 308 to `/query/json`; the HTTP client follows it and sends the POST body again.
import type { Geometry } from 'geojson';
import type { HttpClient } from '../http-client.ts';
import { archiveUrl } from './archive-url.ts';
import type { ArchiveLocation } from './provenance.ts';

export const GFW_DATA_API = 'https://data-api.globalforestwatch.org';

export interface GfwApiConfig {
  where: ArchiveLocation;
  http: HttpClient;
  /** Required on query and download; a key minted with POST /auth/apikey (valid a year). */
  apiKey?: string;
  /** Sent as Origin for a key restricted to domains. */
  origin?: string;
  /** How long a dataset's newest version is kept before the catalogue is asked again (ms). */
  versionTtlMs?: number;
}

export class GfwApiError extends Error {
  readonly code: 'api_key_missing' | 'no_version' | 'invalid_response';
  constructor(code: GfwApiError['code'], message: string) {
    super(message);
    this.name = 'GfwApiError';
    this.code = code;
  }
}

interface DatasetAnswer {
  data: { dataset: string; versions?: string[]; metadata?: Record<string, unknown> };
}
interface VersionAnswer {
  data: { status?: string };
}

/** Versions sorted newest first (`vYYYYMMDD` and `vYYYYMM` sort as text). */
export function newestFirst(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

export interface GfwDataApi {
  /** The newest version the catalogue reports as loaded (status `saved`), with the dataset's metadata. */
  latest(dataset: string, signal?: AbortSignal): Promise<{ version: string; metadata: Record<string, unknown> }>;
  fields(dataset: string, version: string, signal?: AbortSignal): Promise<Array<{ name: string }>>;
  query<T = Record<string, unknown>>(dataset: string, version: string, sql: string, geometry: Geometry | null, signal?: AbortSignal): Promise<T[]>;
}

const LOADED = 'saved';
const VERSIONS_TRIED = 3;

export function createGfwDataApi(cfg: GfwApiConfig): GfwDataApi {
  const url = (path: string) => archiveUrl(`${GFW_DATA_API}${path}`, cfg.where, { api: true });
  const ttl = cfg.versionTtlMs ?? 60 * 60_000;
  const latest = new Map<string, { at: number; value: Promise<{ version: string; metadata: Record<string, unknown> }> }>();
  const keyHeaders = (): Record<string, string> => {
    if (!cfg.apiKey) throw new GfwApiError('api_key_missing', 'the GFW Data API needs an API key (x-api-key) for queries');
    return { 'x-api-key': cfg.apiKey, ...(cfg.origin ? { origin: cfg.origin } : {}) };
  };
  return {
    latest(dataset, signal) {
      const kept = latest.get(dataset);
      if (kept && Date.now() - kept.at < ttl) return kept.value;
      const value = (async () => {
        const answer = await cfg.http.getJson<DatasetAnswer>(url(`/dataset/${encodeURIComponent(dataset)}`), { signal });
        const versions = newestFirst(answer?.data?.versions ?? []);
        for (const version of versions.slice(0, VERSIONS_TRIED)) {
          const v = await cfg.http.getJson<VersionAnswer>(url(`/dataset/${encodeURIComponent(dataset)}/${encodeURIComponent(version)}`), { signal });
          if (v?.data?.status === undefined || v.data.status === LOADED) return { version, metadata: answer.data.metadata ?? {} };
        }
        throw new GfwApiError('no_version', `the GFW catalogue reports no loaded version of ${dataset}`);
      })();
      latest.set(dataset, { at: Date.now(), value });
      value.catch(() => latest.delete(dataset));
      return value;
    },
    async fields(dataset, version, signal) {
      const answer = await cfg.http.getJson<{ data: Array<{ name?: string; pixel_meaning?: string }> }>(
        url(`/dataset/${encodeURIComponent(dataset)}/${encodeURIComponent(version)}/fields`), { signal });
      if (!Array.isArray(answer?.data)) throw new GfwApiError('invalid_response', `fields of ${dataset} ${version} are not a list`);
      return answer.data.map((f) => ({ name: String(f.name ?? f.pixel_meaning ?? '') }));
    },
    async query<T>(dataset: string, version: string, sql: string, geometry: Geometry | null, signal?: AbortSignal) {
      const body: Record<string, unknown> = { sql };
      if (geometry !== null) body.geometry = geometry;
      const answer = await cfg.http.postJson<{ data: T[] }>(
        url(`/dataset/${encodeURIComponent(dataset)}/${encodeURIComponent(version)}/query/json`), body, { headers: keyHeaders(), signal });
      if (!Array.isArray(answer?.data)) throw new GfwApiError('invalid_response', `query of ${dataset} ${version} answered no data list`);
      return answer.data;
    },
  };
}

/** A SQL date literal; only `YYYY-MM-DD` is ever put into a query. */
export function sqlDate(d: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) throw new RangeError(`not a date: ${d}`);
  return `'${d}'`;
}
