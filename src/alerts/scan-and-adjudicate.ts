/**
 * Scan-and-adjudicate (spec 4.5): the scan, then each alert found adjudicated as one batch under
 * every rule of adjudication (src/alerts/adjudicate.ts). An alert is adjudicated from its bounding
 * box when the box is between the evidence floor and 5 km2, otherwise from its centroid (read over
 * the 4 ha window), under the reference `<plot ref>-<product>-<first date>-<n>`, so the same scan
 * made again answers `ref_in_use`. A scan that finds nothing queues nothing.
 */
import { ALERT_PRODUCTS } from '../engine/sources/products/gfw-alerts/codes.ts';
import { alertRefusal } from '../errors.ts';
import { polygonsAreaHa } from '../intake/geodesic.ts';
import type { Position } from '../intake/types.ts';
import type { Plan } from '../store/entities/index.ts';
import { adjudicateAlerts, type AdjudicateDeps, type AdjudicatedAlert, type AlertInput } from './adjudicate.ts';
import { ALERT_LIMITS } from './limits.ts';
import { scanAlerts, type ScanAnswer, type ScanDeps, type ScannedAlert, type ScanRequest } from './scan.ts';

export interface ScanAndAdjudicateAnswer extends ScanAnswer {
  adjudicated: AdjudicatedAlert[];
  /** Present when nothing was found. */
  statement?: string;
}

function bboxRing([w, s, e, n]: [number, number, number, number]): Position[] {
  return [[w, s], [e, s], [e, n], [w, n], [w, s]];
}

/** Which of its bounding box or its centroid an alert is adjudicated from, and that geometry. */
export function adjudicatedShape(alert: Required<Pick<ScannedAlert, 'bbox' | 'centroid'>>): { as: 'bbox' | 'centroid'; geometry: object } {
  const ring = bboxRing(alert.bbox);
  const area = polygonsAreaHa([[ring]]);
  if (area >= ALERT_LIMITS.windowHa && area <= ALERT_LIMITS.maxFootprintHa) return { as: 'bbox', geometry: { type: 'Polygon', coordinates: [ring] } };
  return { as: 'centroid', geometry: alert.centroid };
}

export async function scanAndAdjudicate(
  scanDeps: ScanDeps,
  adjudicateDeps: AdjudicateDeps,
  workspace: { id: string; plan: Plan },
  request: ScanRequest,
): Promise<ScanAndAdjudicateAnswer> {
  const { answer, plots } = await scanAlerts(scanDeps, workspace.id, request);
  if (answer.alerts_found === 0) {
    return { ...answer, adjudicated: [], statement: `No published ${request.product} alerts were found over the plots between ${request.start} and ${request.end}; nothing was queued.` };
  }
  if (!ALERT_PRODUCTS[request.product].redistributesGeometry) {
    throw alertRefusal('geometry_not_redistributable', `the ${request.product} alerts' licence no longer permits passing their geometry on, so they can be reported (scan without adjudicating) but not adjudicated`);
  }
  const inputs: AlertInput[] = [];
  const taken = new Map<string, number>();
  answer.plots.forEach((scan, i) => {
    if (!('alerts' in scan)) return;
    const plot = plots[i];
    for (const alert of scan.alerts) {
      const stem = `${plot.external_ref ?? plot.id}-${request.product}-${alert.first_date}`;
      const n = (taken.get(stem) ?? 0) + 1;
      taken.set(stem, n);
      const shape = adjudicatedShape(alert as Required<ScannedAlert>);
      alert.adjudicated_as = shape.as;
      inputs.push({ ref: `${stem}-${n}`, geometry: shape.geometry, alert_date: alert.first_date, commodity: plot.commodity, country: plot.country, producer_id: plot.producer_id });
    }
  });
  const adjudicated = await adjudicateAlerts(adjudicateDeps, workspace, inputs);
  return { ...answer, adjudicated };
}
