// Reads alert pixels through the GFW Data API (codes.ts holds the products and their encodings).
import type { Geometry } from 'geojson';
import { type GfwApiConfig, createGfwDataApi, sqlDate } from '../gfw-data-api.ts';
import type { Provenance } from '../provenance.ts';
import { withSynthetic } from '../provenance.ts';
import { ALERT_PRODUCTS, type AlertPixel, type AlertProduct } from './codes.ts';

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
  /** The product's dataset and the newest version its catalogue reports as loaded (the one `read` queries). */
  catalogue(product: AlertProduct, signal?: AbortSignal): Promise<{ dataset: string; version: string }>;
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
    async catalogue(product, signal) {
      const { dataset } = ALERT_PRODUCTS[product];
      return { dataset, version: (await api.latest(dataset, signal)).version };
    },
  };
}
