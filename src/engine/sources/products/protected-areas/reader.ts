// Asks Overpass for protected areas (codes.ts holds the queries and how an answer reads).
import type { HttpClient } from '../../http-client.ts';
import { archiveUrl } from '../archive-url.ts';
import type { ArchiveLocation, Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';
import { aroundQuery, containingQuery, OVERPASS_INTERPRETER, type OverpassAnswer, type ProtectedArea, toProtectedArea } from './codes.ts';

export interface ProtectedAreasRead {
  areas: ProtectedArea[];
  /** The database's own timestamp (`osm3s.timestamp_osm_base`). */
  snapshot: string | null;
  provenance: Provenance;
}

export interface ProtectedAreasAdapter {
  around(lon: number, lat: number, radiusM: number, signal?: AbortSignal): Promise<ProtectedAreasRead>;
  containing(lon: number, lat: number, signal?: AbortSignal): Promise<ProtectedAreasRead>;
}

export function createProtectedAreasAdapter(opts: { where: ArchiveLocation; http: HttpClient; interpreter?: string }): ProtectedAreasAdapter {
  const endpoint = opts.interpreter ?? OVERPASS_INTERPRETER;
  const ask = async (query: string, signal?: AbortSignal): Promise<ProtectedAreasRead> => {
    const url = archiveUrl(`${endpoint}?data=${encodeURIComponent(query)}`, opts.where, { api: true });
    const answer = await opts.http.getJson<OverpassAnswer>(url, { signal });
    const snapshot = answer.osm3s?.timestamp_osm_base ?? null;
    return {
      areas: (answer.elements ?? []).map(toProtectedArea),
      snapshot,
      provenance: withSynthetic({
        dataset: 'OpenStreetMap protected areas (Overpass API)',
        version: snapshot ?? 'unknown',
        tile: null,
        licence: 'ODbL 1.0',
        attribution: '© OpenStreetMap contributors',
        citation: 'OpenStreetMap contributors, retrieved through the Overpass API',
      }, opts.where),
    };
  };
  return {
    around: (lon, lat, radiusM, signal) => ask(aroundQuery(lon, lat, radiusM), signal),
    containing: (lon, lat, signal) => ask(containingQuery(lon, lat), signal),
  };
}
