/**
 * Scanning published alerts (spec 4.5, 2.12): for each named plot, the alert pixels another
 * institution published inside it, read from the provider at the newest version its catalogue
 * reports as loaded, clustered into alerts on the alert pool's threads. Read-only and free:
 * nothing is queued or written and the allowance is not touched.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import type { AlertCluster, AlertPixels } from '../engine/kernels/alert-clusters.ts';
import { isoDate, utcDay } from '../engine/kernels/days.ts';
import type { AlertsAdapter, AlertsRead } from '../engine/sources/products/gfw-alerts/reader.ts';
import { ALERT_PIXEL_DEG, ALERT_PRODUCTS, alertsBand, alertsCover, CONFIDENCE_LEVELS, type AlertConfidence, type AlertProduct } from '../engine/sources/products/gfw-alerts/codes.ts';
import { footprintBox } from '../engine/context/plot.ts';
import { alertRefusal, DomainError, invalid, notFound } from '../errors.ts';
import type { Em } from '../store/orm.ts';
import { takingTurns } from '../turns.ts';
import { plotsToScan, type ScannedPlot } from '../store/register/alerts.ts';
import { ALERT_LIMITS } from './limits.ts';
import { squareAround } from './read-window.ts';

export const SCAN_PRODUCTS: readonly AlertProduct[] = ['integrated', 'radd'];

/** A scan as asked, before its checks: what the query string or the body gave. */
export interface ScanInput {
  plotIds: string[];
  start?: string | null;
  end?: string | null;
  product?: string | null;
  minAreaHa?: string | number | null;
}

export interface ScanRequest {
  plotIds: string[];
  start: string;
  end: string;
  product: AlertProduct;
  minAreaHa: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (d: string) => DATE.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && isoDate(utcDay(d)) === d;

/** The checks of 7.5 on a scan's parameters, with the defaults of 4.5 (start 2021-01-01, end today, product integrated, no minimum area). */
export function parseScanRequest(input: ScanInput, today = new Date()): ScanRequest {
  const ids = [...new Set(input.plotIds.map((id) => id.trim().toLowerCase()).filter((id) => id !== ''))];
  if (ids.length === 0) throw invalid('no_plots', 'name 1 to 50 plots to scan with plot_id (repeated or comma-separated)');
  if (ids.length > ALERT_LIMITS.maxScanPlots) {
    throw new DomainError('too_many_plots', `${ids.length} plots were named; one scan reads at most ${ALERT_LIMITS.maxScanPlots}, so split them`);
  }
  return { plotIds: ids, ...parseScanWindow(input, today) };
}

/** The window, product and smallest alert of a scan (or of a monitor's scans). */
export function parseScanWindow(input: Omit<ScanInput, 'plotIds'>, today = new Date()): Omit<ScanRequest, 'plotIds'> {
  const product = input.product ?? 'integrated';
  if (!(SCAN_PRODUCTS as readonly string[]).includes(product)) throw alertRefusal('bad_product', `product must be ${SCAN_PRODUCTS.join(' or ')}, not ${JSON.stringify(product)}`);
  const start = input.start ?? ALERT_LIMITS.earliestDate;
  const end = input.end ?? today.toISOString().slice(0, 10);
  for (const [name, value] of [['start', start], ['end', end]]) {
    if (!isDate(value)) throw alertRefusal('bad_window', `${name} must be a date written YYYY-MM-DD, not ${JSON.stringify(value)}`);
  }
  if (start < ALERT_LIMITS.earliestDate) throw alertRefusal('alert_before_cutoff', `start ${start} is before ${ALERT_LIMITS.earliestDate}, the earliest a scan reads`);
  if (end < start) throw alertRefusal('bad_window', `end ${end} is before start ${start}`);
  const min = input.minAreaHa ?? 0;
  const minAreaHa = typeof min === 'number' ? min : /^\d+(\.\d+)?$/.test(min.trim()) ? Number(min) : NaN;
  if (!Number.isFinite(minAreaHa) || minAreaHa < 0) throw alertRefusal('bad_min_area_ha', `min_area_ha must be a number of hectares, 0 or more, not ${JSON.stringify(min)}`);
  return { start, end, product: product as AlertProduct, minAreaHa };
}

/** The `source` block of spec 2.12. */
export interface AlertSource {
  product: AlertProduct;
  dataset: string;
  version: string;
  publisher: string;
  licence: string;
  attribution: string;
  citation: string;
  published_accuracy: string;
  geometry_withheld: boolean;
}

export interface ScannedAlert {
  first_date: string;
  last_date: string;
  confidence: AlertConfidence;
  confidence_pixels: Record<AlertConfidence, number>;
  pixels: number;
  area_ha: number;
  /** Absent when the licence withholds the alert's place. */
  centroid?: { type: 'Point'; coordinates: [number, number] };
  bbox?: [number, number, number, number];
  source: AlertSource;
  /** Scan-and-adjudicate only: which of the bounding box or the centroid was adjudicated. */
  adjudicated_as?: 'bbox' | 'centroid';
}

export type PlotScan = {
  plot_id: string;
  ref: string | null;
  area_ha: number | null;
  truncated: boolean;
  /** Null only when the read failed before the provider named a version. */
  source: AlertSource | null;
} & ({ alerts: ScannedAlert[] } | { refusal: string });

export interface ScanAnswer {
  window: { start: string; end: string };
  product: AlertProduct;
  plots: PlotScan[];
  plots_with_alerts: number;
  alerts_found: number;
}

export interface ScanDeps {
  em: Em;
  source: AlertsAdapter;
  /** Clusters one plot's pixels off the event loop (the alert pool). */
  clusters: (pixels: AlertPixels, pixelDeg: number) => Promise<AlertCluster[]>;
}

/** Plots read from the provider at once. */
const PLOTS_AT_ONCE = 8;

function sourceOf(read: Pick<AlertsRead, 'product' | 'dataset' | 'version' | 'publisher' | 'publishedAccuracy'>): AlertSource {
  const p = ALERT_PRODUCTS[read.product];
  return {
    product: read.product,
    dataset: read.dataset,
    version: read.version,
    publisher: read.publisher,
    licence: p.licence,
    attribution: p.attribution,
    citation: p.citation,
    published_accuracy: read.publishedAccuracy,
    geometry_withheld: !p.redistributesGeometry,
  };
}

/** The area the provider is asked over: the plot's boundary, or a point plot's square of its area (4 ha when none was declared). */
function scannedArea(plot: ScannedPlot): Polygon | MultiPolygon | null {
  const g = plot.geometry;
  if (g === null) return null;
  if (g.type === 'Point') return { type: 'Polygon', coordinates: [squareAround(g.coordinates, plot.area_ha ?? ALERT_LIMITS.windowHa)] };
  return g;
}

/**
 * The provider's rows as the typed arrays the clustering thread takes. The rows were parsed on this
 * thread with the response; copying them out takes turns with the event loop, a slice at a time.
 */
async function pixelsOf(read: AlertsRead, count: number): Promise<AlertPixels> {
  const px: AlertPixels = { lon: new Float64Array(count), lat: new Float64Array(count), day: new Int32Array(count), level: new Uint8Array(count) };
  const turn = takingTurns();
  for (let i = 0; i < count; i++) {
    const p = read.pixels[i];
    px.lon[i] = p.longitude;
    px.lat[i] = p.latitude;
    px.day[i] = utcDay(p.date);
    px.level[i] = CONFIDENCE_LEVELS.indexOf(p.confidence) + 1;
    if ((i & 1023) === 0) await turn();
  }
  return px;
}

const round = (x: number, places: number) => Number(x.toFixed(places));

function alertOf(c: AlertCluster, source: AlertSource): ScannedAlert {
  const alert: ScannedAlert = {
    first_date: isoDate(c.firstDay),
    last_date: isoDate(c.lastDay),
    confidence: CONFIDENCE_LEVELS[c.level - 1],
    confidence_pixels: { nominal: c.byLevel[0], high: c.byLevel[1], highest: c.byLevel[2] },
    pixels: c.pixels,
    area_ha: round(c.areaM2 / 10_000, 4),
    source,
  };
  if (!source.geometry_withheld) {
    alert.centroid = { type: 'Point', coordinates: [round(c.lon, 6), round(c.lat, 6)] };
    alert.bbox = [round(c.bbox[0], 6), round(c.bbox[1], 6), round(c.bbox[2], 6), round(c.bbox[3], 6)];
  }
  return alert;
}

/**
 * Why the product can never be read over the plot, in words, or null when it can: no usable boundary,
 * or a place outside the product's published band (the middle of the plot's extent decides, as archive
 * coverage reads it). Such a plot would otherwise scan clear for ever.
 */
export function unwatchableWhy(plot: ScannedPlot, product: AlertProduct): string | null {
  const area = scannedArea(plot);
  if (area === null) return 'the plot has no usable boundary (it was rejected at upload)';
  const box = footprintBox(area);
  const lat = (box[1] + box[3]) / 2;
  return alertsCover(product, lat) ? null : `${alertsBand(product)}, and this plot lies at ${lat.toFixed(2)}°`;
}

/** One plot's scan: its alerts, or a refusal in words when it could not be read. */
export async function scanPlot(deps: Pick<ScanDeps, 'source' | 'clusters'>, plot: ScannedPlot, request: Omit<ScanRequest, 'plotIds'>): Promise<PlotScan> {
  const head = { plot_id: plot.id, ref: plot.external_ref, area_ha: plot.area_ha, truncated: false };
  const why = unwatchableWhy(plot, request.product);
  if (why !== null) return { ...head, source: null, refusal: `No alerts can be read over this plot: ${why}. An empty list would wrongly read as clear.` };
  const area = scannedArea(plot)!;
  let read: AlertsRead;
  try {
    read = await deps.source.read(request.product, area, request.start, request.end);
  } catch (err) {
    return { ...head, source: null, refusal: `The published alerts could not be read over this plot: ${(err as Error).message}. Scan it again later.` };
  }
  const source = sourceOf(read);
  const count = Math.min(read.pixels.length, ALERT_LIMITS.maxPixelsPerPlot);
  const clusters = await deps.clusters(await pixelsOf(read, count), ALERT_PIXEL_DEG);
  const alerts = clusters.map((c) => alertOf(c, source)).filter((a) => a.area_ha >= request.minAreaHa);
  return { ...head, truncated: read.pixels.length > count, source, alerts };
}

/** Scans the named plots of the workspace; not_found names the first plot outside it. */
export async function scanAlerts(deps: ScanDeps, workspaceId: string, request: ScanRequest): Promise<{ answer: ScanAnswer; plots: ScannedPlot[] }> {
  const plots = await plotsToScan(deps.em, workspaceId, request.plotIds);
  const found = new Set(plots.map((p) => p.id));
  const missing = request.plotIds.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`no plot ${missing} in this workspace`);
  const scans: PlotScan[] = new Array(plots.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < plots.length; i = next++) scans[i] = await scanPlot(deps, plots[i], request);
  };
  await Promise.all(Array.from({ length: Math.min(PLOTS_AT_ONCE, plots.length) }, lane));
  let alertsFound = 0;
  for (const s of scans) if ('alerts' in s) alertsFound += s.alerts.length;
  if (alertsFound > ALERT_LIMITS.maxScanAlerts) {
    throw alertRefusal('too_many_alerts', `${alertsFound} published alerts lie in the window, more than the ${ALERT_LIMITS.maxScanAlerts} one scan reports; narrow the window, send fewer plots or raise min_area_ha`);
  }
  return {
    answer: {
      window: { start: request.start, end: request.end },
      product: request.product,
      plots: scans,
      plots_with_alerts: scans.filter((s) => 'alerts' in s && s.alerts.length > 0).length,
      alerts_found: alertsFound,
    },
    plots,
  };
}
