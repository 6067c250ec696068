// GFW integrated deforestation alerts and WUR RADD alerts, read through the GFW Data API at the
// newest version its catalogue reports (data-products.md §10). One row per 10 m alert pixel.

export type AlertProduct = 'integrated' | 'radd';
export type AlertConfidence = 'nominal' | 'high' | 'highest';

export const ALERT_PRODUCTS: Record<AlertProduct, {
  dataset: string; dateField: string; confidenceField: string; licence: string; attribution: string; citation: string; publishedAccuracy: string;
  /** Whether the licence lets an alert's place (centroid, bounding box) be passed on, with attribution. */
  redistributesGeometry: boolean;
  /** Published between this latitude south and north. */
  latitudeLimit: number;
}> = {
  integrated: {
    dataset: 'gfw_integrated_alerts',
    dateField: 'gfw_integrated_alerts__date',
    confidenceField: 'gfw_integrated_alerts__confidence',
    licence: 'CC BY 4.0',
    attribution: 'UMD/GLAD and WUR, accessed through Global Forest Watch',
    citation: 'Source: "Integrated Deforestation Alerts". UMD/GLAD and WUR, accessed through Global Forest Watch on [date]',
    publishedAccuracy: 'The publisher states no single accuracy figure for the integrated alerts.',
    redistributesGeometry: true,
    // The catalogue's `geographic_coverage`: "30°N to 30°S".
    latitudeLimit: 30,
  },
  radd: {
    dataset: 'wur_radd_alerts',
    dateField: 'wur_radd_alerts__date',
    confidenceField: 'wur_radd_alerts__confidence',
    licence: 'CC BY 4.0',
    attribution: 'Wageningen University (RADD), accessed through Global Forest Watch',
    citation: 'Reiche, J. et al. (2021) Forest disturbance alerts for the Congo Basin using Sentinel-1. Environmental Research Letters 16:024005',
    publishedAccuracy: 'Accuracy is reported by region in Reiche et al. (2021); no single global figure is stated.',
    redistributesGeometry: true,
    // Assumed: the publisher states "primary humid tropical forest", no band. That forest lies within the
    // integrated alerts' band, which is taken as the outer bound; forest type is not checked.
    latitudeLimit: 30,
  },
};

/** Whether the product is published at this latitude. */
export function alertsCover(product: AlertProduct, lat: number): boolean {
  return Math.abs(lat) <= ALERT_PRODUCTS[product].latitudeLimit;
}

/** Where the product is published, in words. */
export function alertsBand(product: AlertProduct): string {
  const limit = ALERT_PRODUCTS[product].latitudeLimit;
  return `the ${ALERT_PRODUCTS[product].dataset} alerts are published from ${limit}°S to ${limit}°N only`;
}

/** Confidence levels in rising order, as the alert clustering counts them (1, 2, 3). */
export const CONFIDENCE_LEVELS: readonly AlertConfidence[] = ['nominal', 'high', 'highest'];

/** The GFW alert grid: 10° tiles of 100000 pixels, 0.0001° a pixel. */
export const ALERT_PIXEL_DEG = 0.0001;

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
