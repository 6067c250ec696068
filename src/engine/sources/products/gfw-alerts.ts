// GFW integrated deforestation alerts and WUR RADD alerts, read through the GFW Data API at the
// newest version its catalogue reports (data-products.md §10). One row per 10 m alert pixel.
import type { Geometry } from 'geojson';
import { type GfwApiConfig, createGfwDataApi, sqlDate } from './gfw-data-api.ts';
import type { Provenance } from './provenance.ts';
import { withSynthetic } from './provenance.ts';

export type AlertProduct = 'integrated' | 'radd';
export type AlertConfidence = 'nominal' | 'high' | 'highest';

export const ALERT_PRODUCTS: Record<AlertProduct, {
  dataset: string; dateField: string; confidenceField: string; licence: string; attribution: string; citation: string; publishedAccuracy: string;
}> = {
  integrated: {
    dataset: 'gfw_integrated_alerts',
    dateField: 'gfw_integrated_alerts__date',
    confidenceField: 'gfw_integrated_alerts__confidence',
    licence: 'CC BY 4.0',
    attribution: 'UMD/GLAD and WUR, accessed through Global Forest Watch',
    citation: 'Source: "Integrated Deforestation Alerts". UMD/GLAD and WUR, accessed through Global Forest Watch on [date]',
    publishedAccuracy: 'The publisher states no single accuracy figure for the integrated alerts.',
  },
  radd: {
    dataset: 'wur_radd_alerts',
    dateField: 'wur_radd_alerts__date',
    confidenceField: 'wur_radd_alerts__confidence',
    licence: 'CC BY 4.0',
    attribution: 'Wageningen University (RADD), accessed through Global Forest Watch',
    citation: 'Reiche, J. et al. (2021) Forest disturbance alerts for the Congo Basin using Sentinel-1. Environmental Research Letters 16:024005',
    publishedAccuracy: 'Accuracy is reported by region in Reiche et al. (2021); no single global figure is stated.',
  },
};

/** Raster `date_conf` codes: 2 nominal, 3 high, 4 highest (integrated only), 0 no alert. */
const CONFIDENCE_CODES: Record<number, AlertConfidence> = { 2: 'nominal', 3: 'high', 4: 'highest' };

/**
 * Decodes a `date_conf` pixel (`conf × 10000 + days`), the date being `origin + days`. WRI's own
 * code disagrees on the origin: its SQL adds the days to 2015-01-01, its tile cache to 2014-12-31
 * (20001 = 2015-01-01). The caller names the origin; queries read the `__date` string instead.
 */
export function decodeDateConf(v: number, origin: '2014-12-31' | '2015-01-01'): { date: string; confidence: AlertConfidence } | null {
  const confidence = CONFIDENCE_CODES[Math.floor(v / 10000)];
  if (v === 0 || confidence === undefined) return null;
  const date = new Date(Date.parse(`${origin}T00:00:00Z`) + (v % 10000) * 86_400_000).toISOString().slice(0, 10);
  return { date, confidence };
}

export interface AlertPixel {
  latitude: number;
  longitude: number;
  date: string;
  confidence: AlertConfidence;
}

// --- Adapter -----------------------------------------------------------------------------------

export interface AlertsRead {
  product: AlertProduct;
  dataset: string;
  version: string;
  pixels: AlertPixel[];
  publisher: string;
  publishedAccuracy: string;
  provenance: Provenance;
}

export interface AlertsAdapter {
  /** Alert pixels inside a Polygon or MultiPolygon detected between two dates (inclusive). */
  read(product: AlertProduct, geometry: Geometry, start: string, end: string, signal?: AbortSignal): Promise<AlertsRead>;
}

export function createAlertsAdapter(cfg: GfwApiConfig): AlertsAdapter {
  const api = createGfwDataApi(cfg);
  return {
    async read(product, geometry, start, end, signal) {
      const p = ALERT_PRODUCTS[product];
      const { version } = await api.latest(p.dataset, signal);
      const sql = `SELECT latitude, longitude, ${p.dateField}, ${p.confidenceField} FROM results WHERE ${p.dateField} >= ${sqlDate(start)} AND ${p.dateField} <= ${sqlDate(end)}`;
      const rows = await api.query<Record<string, unknown>>(p.dataset, version, sql, geometry, signal);
      const pixels: AlertPixel[] = [];
      for (const r of rows) {
        const confidence = r[p.confidenceField];
        if (confidence !== 'nominal' && confidence !== 'high' && confidence !== 'highest') continue;
        pixels.push({ latitude: Number(r.latitude), longitude: Number(r.longitude), date: String(r[p.dateField]).slice(0, 10), confidence });
      }
      return {
        product, dataset: p.dataset, version, pixels, publisher: 'Global Forest Watch (World Resources Institute)', publishedAccuracy: p.publishedAccuracy,
        provenance: withSynthetic({ dataset: p.dataset, version, tile: null, licence: p.licence, attribution: p.attribution, citation: p.citation }, cfg.where),
      };
    },
  };
}
