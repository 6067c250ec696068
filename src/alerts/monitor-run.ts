/**
 * The scheduled run of the alert monitors (spec 6.2 `alert.opened`): pg-boss sends a job on a
 * schedule; the run scans every active monitor's plots from its `since` date to today and matches
 * each alert cluster found against the cases the monitor already holds on that plot. A cluster no
 * case holds is new: a case opens on the workspace's alert queue with its `alert.opened` event in
 * one transaction. A cluster a case holds (the same product, overlapping bounds, first detected
 * within 90 days) has grown: the case's figures move on and nothing is sent.
 */
import type { AlertCluster, AlertPixels } from '../engine/kernels/alert-clusters.ts';
import { utcDay } from '../engine/kernels/days.ts';
import type { AlertProduct } from '../engine/sources/products/gfw-alerts/codes.ts';
import type { AlertsAdapter } from '../engine/sources/products/gfw-alerts/reader.ts';
import type { EnginePool } from '../engine/worker/pool.ts';
import type { Logger } from '../log.ts';
import type { AlertCase, AlertMonitor, Unwatchable } from '../store/entities/index.ts';
import type { Em, Store } from '../store/orm.ts';
import { type Queue, QUEUES } from '../store/queue.ts';
import { activeMonitors, casesOnPlot, markMonitorRun, monitoredPlotIds, openCase, recordUnwatchable, updateCase, type CaseFigures } from '../store/register/alert-queue.ts';
import { plotsToScan, type ScannedPlot } from '../store/register/alerts.ts';
import { writeEvent } from '../store/outbox.ts';
import { ALERT_LIMITS } from './limits.ts';
import { scanPlot, unwatchableWhy, type ScannedAlert } from './scan.ts';
import { caseSeverity } from './severity.ts';

/** Every hour, on the hour. */
export const MONITOR_SCHEDULE = '0 * * * *';

export interface MonitorRunDeps {
  store: Store;
  source: AlertsAdapter;
  clusters: (pixels: AlertPixels, pixelDeg: number) => Promise<AlertCluster[]>;
  /** The service's base URL (ending /api/v1), for the events' links. */
  baseUrl: string;
  log: Logger;
}

function figuresOf(alert: ScannedAlert, product: AlertProduct): CaseFigures {
  return {
    product,
    firstDate: alert.first_date,
    lastDate: alert.last_date,
    confidence: alert.confidence,
    pixels: alert.pixels,
    areaHa: alert.area_ha,
    flaggedAreaKm2: Number((alert.area_ha / 100).toFixed(6)),
    severity: caseSeverity(alert.confidence, alert.area_ha),
    centroid: alert.centroid ?? null,
    bbox: alert.bbox ?? null,
    source: alert.source,
  };
}

const overlap = (a: number[], b: number[]) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** Whether a case already holds the cluster: the same product, first detected within the clustering window, and overlapping bounds where both have a place. */
export function holdsCluster(c: Pick<AlertCase, 'product' | 'firstDate' | 'bbox'>, found: CaseFigures): boolean {
  if (c.product !== found.product) return false;
  if (Math.abs(utcDay(c.firstDate) - utcDay(found.firstDate)) > ALERT_LIMITS.clusterDays) return false;
  if (!c.bbox || !found.bbox) return c.firstDate === found.firstDate;
  return overlap(c.bbox, found.bbox);
}

/** One plot's clusters against the monitor's cases on it, in one transaction; answers how many cases opened. */
async function settlePlot(deps: MonitorRunDeps, monitor: AlertMonitor, plot: { id: string; external_ref: string | null }, found: CaseFigures[], at: Date): Promise<number> {
  return deps.store.em().transactional(async (tx: Em) => {
    const cases = await casesOnPlot(tx, monitor.id, plot.id);
    let opened = 0;
    for (const figures of found) {
      const held = cases.find((c) => holdsCluster(c, figures));
      if (held !== undefined) {
        await updateCase(tx, held.id, at, figures);
        continue;
      }
      const opening = openCase(tx, at, { workspaceId: monitor.workspaceId, monitorId: monitor.id, plotId: plot.id, ...figures });
      cases.push(opening);
      writeEvent(tx, monitor.workspaceId, 'alert.opened', {
        alert_id: opening.id,
        plot_id: plot.id,
        ref: plot.external_ref,
        monitor_id: monitor.id,
        opened_at: at.toISOString(),
        severity: figures.severity,
        flagged_area_km2: figures.flaggedAreaKm2,
        alert_url: `${deps.baseUrl}/eudr/alerts/cases/${opening.id}`,
      }, at);
      opened++;
    }
    return opened;
  });
}

/** How many of a monitor's unwatchable plots it names; the count covers them all. */
export const UNWATCHABLE_NAMED = 100;

/** Gathers the plots a monitor's product can never be read over, as its plots are gone through. */
function unwatchableList(product: AlertProduct) {
  const found: Unwatchable = { count: 0, plots: [] };
  return {
    /** True when the plot cannot be watched (and is noted). */
    note(plot: ScannedPlot): boolean {
      const why = unwatchableWhy(plot, product);
      if (why === null) return false;
      if (found.count++ < UNWATCHABLE_NAMED) found.plots.push({ plot_id: plot.id, ref: plot.external_ref, why });
      return true;
    },
    found,
  };
}

/** The monitored plots, a scan's worth at a time. */
async function* monitoredPlots(em: Em, monitor: AlertMonitor): AsyncGenerator<ScannedPlot> {
  const ids = await monitoredPlotIds(em, monitor);
  for (let i = 0; i < ids.length; i += ALERT_LIMITS.maxScanPlots) yield* await plotsToScan(em, monitor.workspaceId, ids.slice(i, i + ALERT_LIMITS.maxScanPlots));
}

/** Notes on a new monitor which of its plots it cannot watch, so it says so before its first run. */
export async function noteUnwatchable(em: Em, monitor: AlertMonitor): Promise<Unwatchable> {
  const list = unwatchableList(monitor.product as AlertProduct);
  for await (const plot of monitoredPlots(em, monitor)) list.note(plot);
  await recordUnwatchable(em, monitor.id, list.found);
  return list.found;
}

/** Scans one monitor's plots, a scan's worth of plots at a time; answers how many cases opened. */
async function runMonitor(deps: MonitorRunDeps, monitor: AlertMonitor, now: Date): Promise<number> {
  const em = deps.store.em();
  const today = now.toISOString().slice(0, 10);
  const request = { start: monitor.since, end: today < monitor.since ? monitor.since : today, product: monitor.product as AlertProduct, minAreaHa: Number(monitor.minAreaHa) };
  const unwatchable = unwatchableList(request.product);
  let opened = 0;
  for await (const plot of monitoredPlots(em, monitor)) {
    if (unwatchable.note(plot)) continue;
    const scan = await scanPlot(deps, plot, request);
    // A plot that could not be read is scanned again on the next run; nothing is opened or closed for it.
    if (!('alerts' in scan)) {
      deps.log.warn({ monitorId: monitor.id, plotId: plot.id, refusal: scan.refusal }, 'monitored plot not scanned');
      continue;
    }
    opened += await settlePlot(deps, monitor, plot, scan.alerts.map((a) => figuresOf(a, request.product)), now);
  }
  await markMonitorRun(em, monitor.id, now, unwatchable.found);
  return opened;
}

/** One scheduled run over every active monitor; a monitor that fails is logged and the others run. */
export async function runMonitors(deps: MonitorRunDeps, now = new Date()): Promise<{ monitors: number; opened: number }> {
  const monitors = await activeMonitors(deps.store.em());
  let opened = 0;
  for (const monitor of monitors) {
    try {
      opened += await runMonitor(deps, monitor, now);
    } catch (err) {
      deps.log.error({ err, monitorId: monitor.id }, 'alert monitor run failed');
    }
  }
  return { monitors: monitors.length, opened };
}

/** Clustering on a worker process's engine pool (its one pool, decision 4). */
export function clustersOn(pool: EnginePool): MonitorRunDeps['clusters'] {
  return (pixels, pixelDeg) => pool.run('clusters', { pixels, pixelDeg, maxGapDays: ALERT_LIMITS.clusterDays });
}

/** Schedules the run and works its jobs in this process (a worker role). */
export async function startAlertMonitor(queue: Queue, deps: MonitorRunDeps): Promise<void> {
  await queue.schedule(QUEUES.monitor, MONITOR_SCHEDULE);
  await queue.work(QUEUES.monitor, async () => {
    const run = await runMonitors(deps);
    deps.log.info(run, 'alert monitors scanned');
  });
}
