/**
 * The statements over alert monitors and the cases of the alert queue (spec 6.2 `alert.opened`):
 * monitors as a workspace sets them, the plots each watches, the cases a run opens or updates, and
 * the queue as a person works it.
 */
import { AlertCase, AlertMonitor, type CaseStatus, type MonitorScope, type Severity, type Unwatchable } from '../entities/index.ts';
import type { Em } from '../orm.ts';
import { uuidsOf } from './alerts.ts';
import { ON_SHIPMENT } from './shipments.ts';

export interface NewMonitor {
  workspaceId: string;
  label: string | null;
  scope: MonitorScope;
  plotIds: string[] | null;
  shipmentId: string | null;
  product: string;
  minAreaHa: number;
  since: string;
}

export async function insertMonitor(em: Em, monitor: NewMonitor): Promise<AlertMonitor> {
  const row = em.create(AlertMonitor, { id: crypto.randomUUID(), ...monitor, active: true, lastRunAt: null });
  await em.flush();
  return row;
}

export async function workspaceMonitors(em: Em, workspaceId: string): Promise<AlertMonitor[]> {
  return em.find(AlertMonitor, { workspaceId }, { orderBy: { createdAt: 'asc' } });
}

/** One monitor of the workspace; null for another workspace's or none. */
export async function workspaceMonitor(em: Em, workspaceId: string, monitorId: string): Promise<AlertMonitor | null> {
  return em.findOne(AlertMonitor, { id: monitorId, workspaceId });
}

/** Stops the monitors watching a shipment, in the transaction that deletes it: they scan no more and keep their cases. */
export async function stopShipmentMonitors(tx: Em, workspaceId: string, shipmentId: string): Promise<void> {
  await tx.nativeUpdate(AlertMonitor, { workspaceId, shipmentId }, { active: false });
}

/** Open cases by monitor, for the monitors' list. */
export async function openCaseCounts(em: Em, workspaceId: string): Promise<Map<string, number>> {
  const rows = await em.execute<{ monitor_id: string; n: string | number }[]>(
    `select monitor_id, count(*) as n from alert_cases where workspace_id = ? and status = 'open' group by monitor_id`,
    [workspaceId],
  );
  return new Map(rows.map((r) => [r.monitor_id, Number(r.n)]));
}

/** The workspace's open cases by severity. */
export async function openCasesBySeverity(em: Em, workspaceId: string): Promise<Map<Severity, number>> {
  const rows = await em.execute<{ severity: Severity; n: string | number }[]>(
    `select severity, count(*) as n from alert_cases where workspace_id = ? and status = 'open' group by severity`,
    [workspaceId],
  );
  return new Map(rows.map((r) => [r.severity, Number(r.n)]));
}

/** Open cases on each of the named plots that has any, whichever monitor opened them. */
export async function openCasesByPlot(em: Em, workspaceId: string, plotIds: readonly string[]): Promise<Map<string, number>> {
  if (plotIds.length === 0) return new Map();
  const rows = await em.execute<{ plot_id: string; n: string | number }[]>(
    `select plot_id, count(*) as n from alert_cases where workspace_id = ? and status = 'open' and plot_id = any(?::uuid[]) group by plot_id`,
    [workspaceId, `{${uuidsOf(plotIds).join(',')}}`],
  );
  return new Map(rows.map((r) => [r.plot_id, Number(r.n)]));
}

/** Every active monitor of every workspace, oldest first: what a scheduled run scans. */
export async function activeMonitors(em: Em): Promise<AlertMonitor[]> {
  return em.find(AlertMonitor, { active: true }, { orderBy: { createdAt: 'asc' } });
}

/** Of the named plots, those in the workspace. */
export async function plotsInWorkspace(em: Em, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  const rows = await em.execute<{ id: string }[]>('select id from plots where workspace_id = ? and id = any(?::uuid[])', [workspaceId, `{${uuidsOf(ids).join(',')}}`]);
  return new Set(rows.map((r) => r.id));
}

/**
 * The plots a monitor watches, in register order, as they stand at the run: its list (those still in
 * the register), the shipment's plots with a boundary (plots added to it later included), or every
 * plot with a boundary that was not itself made from an alert.
 */
export async function monitoredPlotIds(em: Em, monitor: AlertMonitor): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(...monitoredPlotsQuery(monitor));
  return rows.map((r) => r.id);
}

function monitoredPlotsQuery(monitor: AlertMonitor): [string, unknown[]] {
  switch (monitor.scope) {
    case 'plots':
      return ['select id from plots where workspace_id = ? and id = any(?::uuid[]) order by seq', [monitor.workspaceId, `{${(monitor.plotIds ?? []).join(',')}}`]];
    // A plot rejected at upload stays on its shipment without a boundary: there is nothing to scan.
    case 'shipment':
      return [`select p.id from plots p where p.workspace_id = ? and p.geometry is not null and ${ON_SHIPMENT} order by p.seq`, [monitor.workspaceId, monitor.shipmentId]];
    case 'all':
      return [`select id from plots where workspace_id = ? and geometry is not null and geometry_source <> 'alert' order by seq`, [monitor.workspaceId]];
  }
}

export async function markMonitorRun(em: Em, monitorId: string, at: Date, unwatchable: Unwatchable): Promise<void> {
  await em.nativeUpdate(AlertMonitor, { id: monitorId }, { lastRunAt: at, unwatchable });
}

/** The monitored plots its product cannot be read over, as found when the monitor is made. */
export async function recordUnwatchable(em: Em, monitorId: string, unwatchable: Unwatchable): Promise<void> {
  await em.nativeUpdate(AlertMonitor, { id: monitorId }, { unwatchable });
}

/** The cases one monitor holds on one plot: what a run matches the clusters it finds against. */
export async function casesOnPlot(em: Em, monitorId: string, plotId: string): Promise<AlertCase[]> {
  return em.find(AlertCase, { monitorId, plotId }, { orderBy: { openedAt: 'asc' } });
}

/** A cluster's figures as a case holds them. */
export interface CaseFigures {
  product: string;
  firstDate: string;
  lastDate: string;
  confidence: string;
  pixels: number;
  areaHa: number;
  flaggedAreaKm2: number;
  severity: Severity;
  centroid: object | null;
  bbox: number[] | null;
  source: object;
}

/** Opens a case in `tx`; the caller writes its event in the same transaction. */
export function openCase(tx: Em, at: Date, c: { workspaceId: string; monitorId: string; plotId: string } & CaseFigures): AlertCase {
  return tx.create(AlertCase, { id: crypto.randomUUID(), ...c, status: 'open', openedAt: at, updatedAt: at, closedAt: null, closeNote: null });
}

/** A known cluster seen again, grown: its figures move on, its status does not. */
export async function updateCase(em: Em, caseId: string, at: Date, figures: CaseFigures): Promise<void> {
  await em.nativeUpdate(AlertCase, { id: caseId }, { ...figures, updatedAt: at });
}

export interface CaseFilter {
  status: CaseStatus | null;
  monitorId: string | null;
  plotId: string | null;
}

/** A case with its plot's reference. */
export type CaseRow = AlertCase & { ref: string | null };

async function withRefs(em: Em, cases: AlertCase[]): Promise<CaseRow[]> {
  if (cases.length === 0) return [];
  const rows = await em.execute<{ id: string; external_ref: string | null }[]>('select id, external_ref from plots where id = any(?::uuid[])', [`{${[...new Set(cases.map((c) => c.plotId))].join(',')}}`]);
  const refs = new Map(rows.map((r) => [r.id, r.external_ref]));
  return cases.map((c) => Object.assign(c, { ref: refs.get(c.plotId) ?? null }));
}

/** The workspace's alert queue, newest first. */
export async function workspaceCases(em: Em, workspaceId: string, filter: CaseFilter, limit: number): Promise<CaseRow[]> {
  const where: Record<string, unknown> = { workspaceId };
  if (filter.status) where.status = filter.status;
  if (filter.monitorId) where.monitorId = filter.monitorId;
  if (filter.plotId) where.plotId = filter.plotId;
  return withRefs(em, await em.find(AlertCase, where, { orderBy: { openedAt: 'desc', id: 'asc' }, limit }));
}

/** The open cases on a shipment's plots, whichever monitor opened them: by plot in register order, then first detected. */
export async function openCasesOnShipment(em: Em, workspaceId: string, shipmentId: string): Promise<CaseRow[]> {
  const ids = await em.execute<{ id: string }[]>(
    `select c.id from alert_cases c join plots p on p.id = c.plot_id
      where c.workspace_id = ? and c.status = 'open' and ${ON_SHIPMENT} order by p.seq, c.first_date, c.id`,
    [workspaceId, shipmentId],
  );
  if (ids.length === 0) return [];
  const cases = new Map((await em.find(AlertCase, { id: { $in: ids.map((r) => r.id) } })).map((c) => [c.id, c]));
  return withRefs(em, ids.map((r) => cases.get(r.id)!));
}

export async function workspaceCase(em: Em, workspaceId: string, caseId: string): Promise<CaseRow | null> {
  const found = await em.findOne(AlertCase, { id: caseId, workspaceId });
  return found === null ? null : (await withRefs(em, [found]))[0];
}

/** Closes an open case with a note; false when it was not open. */
export async function closeCase(em: Em, workspaceId: string, caseId: string, note: string, at: Date): Promise<boolean> {
  const changed = await em.nativeUpdate(AlertCase, { id: caseId, workspaceId, status: 'open' }, { status: 'closed', closeNote: note, closedAt: at, updatedAt: at });
  return changed > 0;
}
