// Reads wood-fibre concessions through the GFW Data API (codes.ts holds the dataset and its fields).
import type { Geometry, Polygon, MultiPolygon } from 'geojson';
import { type GfwApiConfig, createGfwDataApi } from '../gfw-data-api.ts';
import type { Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';
import { type ConcessionFeature, DEFAULT_LICENCE_TYPE, LICENCE_FIELD_CANDIDATES, WOOD_FIBRE_DATASET } from './codes.ts';

export interface ConcessionsRead {
  version: string;
  features: ConcessionFeature[];
  provenance: Provenance;
}

export interface ConcessionsAdapter {
  /** Concessions intersecting a plot (the API intersects the posted geometry). */
  read(geometry: Geometry, signal?: AbortSignal): Promise<ConcessionsRead>;
}

export function createConcessionsAdapter(cfg: GfwApiConfig): ConcessionsAdapter {
  const api = createGfwDataApi(cfg);
  return {
    async read(geometry, signal) {
      const { version } = await api.latest(WOOD_FIBRE_DATASET, signal);
      const names = new Set((await api.fields(WOOD_FIBRE_DATASET, version, signal)).map((f) => f.name));
      const classField = LICENCE_FIELD_CANDIDATES.find((f) => names.has(f));
      const sql = `SELECT gfw_geojson${classField ? `, ${classField}` : ''} FROM data`;
      const rows = await api.query<Record<string, unknown>>(WOOD_FIBRE_DATASET, version, sql, geometry, signal);
      const features: ConcessionFeature[] = [];
      for (const r of rows) {
        const g = typeof r.gfw_geojson === 'string' ? (JSON.parse(r.gfw_geojson) as Geometry) : (r.gfw_geojson as Geometry);
        if (g?.type !== 'Polygon' && g?.type !== 'MultiPolygon') continue;
        features.push({ geometry: g, licenceType: classField && typeof r[classField] === 'string' ? (r[classField] as string) : DEFAULT_LICENCE_TYPE });
      }
      return {
        version,
        features,
        provenance: withSynthetic({
          dataset: WOOD_FIBRE_DATASET,
          version,
          tile: null,
          licence: 'Varies by source (Ministry of Environment and Forestry of Indonesia, company maps)',
          attribution: 'Wood fiber concessions, accessed through Global Forest Watch',
          citation: 'Global Forest Watch, Wood fiber concessions (gfw_wood_fiber), https://data-api.globalforestwatch.org/dataset/gfw_wood_fiber',
        }, cfg.where),
      };
    },
  };
}
