/**
 * Monitors and the alert queue as the API serves them (spec 6.2 `alert.opened`; the shapes are
 * this service's design, documented in the OpenAPI document): a workspace watches all its plots,
 * a shipment's or a list of them for newly published alerts, and works the cases the scheduled run opens.
 */
import { alertRefusal, DomainError, invalid, notFound } from '../errors.ts';
import type { AlertMonitor, CaseStatus, MonitorScope, Unwatchable } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import {
  closeCase, insertMonitor, openCaseCounts, plotsInWorkspace, workspaceCase, workspaceCases, workspaceMonitor, workspaceMonitors, type CaseFilter, type CaseRow,
} from '../store/register/alert-queue.ts';
import { shipmentOf } from '../statements/shipments.ts';
import { noteUnwatchable } from './monitor-run.ts';
import { parseScanWindow } from './scan.ts';

/** Plots one monitor may list. */
export const MAX_MONITORED_PLOTS = 5000;

/** A monitor as asked for: exactly one of `all`, `plot_ids` and `shipment_id`. */
export interface MonitorInput {
  all?: boolean | null;
  plot_ids?: string[] | null;
  shipment_id?: string | null;
  product?: string | null;
  min_area_ha?: number | null;
  since?: string | null;
  label?: string | null;
}

export interface MonitorRecord {
  id: string;
  label: string | null;
  scope: MonitorScope;
  plot_ids: string[] | null;
  shipment_id: string | null;
  product: string;
  min_area_ha: number;
  since: string;
  active: boolean;
  last_run_at: string | null;
  created_at: string;
  open_cases: number;
  /** The watched plots its product can never be read over (outside its band, or with no boundary): they open no case. */
  unwatchable: Unwatchable;
}

export interface CaseRecord {
  alert_id: string;
  monitor_id: string;
  plot_id: string;
  ref: string | null;
  product: string;
  first_date: string;
  last_date: string;
  confidence: string;
  pixels: number;
  area_ha: number;
  flagged_area_km2: number;
  severity: string;
  centroid: object | null;
  bbox: number[] | null;
  source: object;
  status: CaseStatus;
  opened_at: string;
  updated_at: string;
  closed_at: string | null;
  note: string | null;
}

function monitorRecord(m: AlertMonitor, open: number): MonitorRecord {
  return {
    id: m.id,
    label: m.label ?? null,
    scope: m.scope,
    plot_ids: m.plotIds ?? null,
    shipment_id: m.shipmentId ?? null,
    product: m.product,
    min_area_ha: Number(m.minAreaHa),
    since: m.since,
    active: m.active,
    last_run_at: m.lastRunAt ? m.lastRunAt.toISOString() : null,
    created_at: m.createdAt.toISOString(),
    open_cases: open,
    unwatchable: m.unwatchable ?? { count: 0, plots: [] },
  };
}

export function caseRecord(c: CaseRow): CaseRecord {
  return {
    alert_id: c.id,
    monitor_id: c.monitorId,
    plot_id: c.plotId,
    ref: c.ref,
    product: c.product,
    first_date: c.firstDate,
    last_date: c.lastDate,
    confidence: c.confidence,
    pixels: c.pixels,
    area_ha: Number(c.areaHa),
    flagged_area_km2: Number(c.flaggedAreaKm2),
    severity: c.severity,
    centroid: c.centroid ?? null,
    bbox: c.bbox ?? null,
    source: c.source,
    status: c.status,
    opened_at: c.openedAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    closed_at: c.closedAt ? c.closedAt.toISOString() : null,
    note: c.closeNote ?? null,
  };
}

/** Creates a monitor; it watches alerts detected from `since` on (default: today), so a new monitor opens no case for an old alert unless told. */
export async function createMonitor(em: Em, workspaceId: string, input: MonitorInput, today = new Date()): Promise<MonitorRecord> {
  const named = [input.all === true, input.plot_ids != null, input.shipment_id != null].filter(Boolean).length;
  if (named === 0) throw invalid('no_plots', 'name what to watch: {"all": true} for every plot, {"shipment_id": "..."} for a shipment\'s, or {"plot_ids": [...]}');
  if (named > 1) throw invalid('bad_body', 'give one of all: true, plot_ids or shipment_id');
  const since = input.since ?? today.toISOString().slice(0, 10);
  const window = parseScanWindow({ start: since, end: since, product: input.product, minAreaHa: input.min_area_ha }, today);
  // The shipment's plots are resolved at each run, so plots added to it later are watched.
  const shipmentId = input.shipment_id == null ? null : (await shipmentOf(em, workspaceId, input.shipment_id)).id;
  let plotIds: string[] | null = null;
  if (input.plot_ids != null) {
    plotIds = [...new Set(input.plot_ids.map((id) => id.trim().toLowerCase()))];
    if (plotIds.length === 0) throw invalid('no_plots', 'plot_ids is empty: name 1 or more plots, or watch {"all": true}');
    if (plotIds.length > MAX_MONITORED_PLOTS) throw new DomainError('too_many_plots', `a monitor lists at most ${MAX_MONITORED_PLOTS} plots; watch {"all": true} or split the list`);
    const held = await plotsInWorkspace(em, workspaceId, plotIds);
    const missing = plotIds.find((id) => !held.has(id));
    if (missing !== undefined) throw notFound(`no plot ${missing} in this workspace`);
  }
  const row = await insertMonitor(em, {
    workspaceId,
    label: input.label ?? null,
    scope: plotIds !== null ? 'plots' : shipmentId !== null ? 'shipment' : 'all',
    plotIds,
    shipmentId,
    product: window.product,
    minAreaHa: window.minAreaHa,
    since: window.start,
  });
  row.unwatchable = await noteUnwatchable(em, row);
  return monitorRecord(row, 0);
}

export async function listMonitors(em: Em, workspaceId: string): Promise<MonitorRecord[]> {
  const open = await openCaseCounts(em, workspaceId);
  return (await workspaceMonitors(em, workspaceId)).map((m) => monitorRecord(m, open.get(m.id) ?? 0));
}

/** The largest page of the alert queue. */
export const CASE_PAGE = 500;

/** The queue, filtered; a `monitorId` that names no monitor of the workspace is `not_found`, as another workspace's is. */
export async function listCases(em: Em, workspaceId: string, filter: CaseFilter): Promise<CaseRecord[]> {
  if (filter.monitorId !== null && (await workspaceMonitor(em, workspaceId, filter.monitorId)) === null) throw notFound(`no monitor ${filter.monitorId} in this workspace`);
  return (await workspaceCases(em, workspaceId, filter, CASE_PAGE)).map(caseRecord);
}

export async function getCase(em: Em, workspaceId: string, caseId: string): Promise<CaseRecord> {
  const found = await workspaceCase(em, workspaceId, caseId);
  if (found === null) throw notFound(`no alert case ${caseId} in this workspace`);
  return caseRecord(found);
}

/** Closes an open case with a note saying what was found; a closed case answers `case_closed`. */
export async function closeCaseWithNote(em: Em, workspaceId: string, caseId: string, note: string): Promise<CaseRecord> {
  if (note.trim() === '') throw alertRefusal('note_required', 'a case is closed with a note saying what was found');
  await getCase(em, workspaceId, caseId);
  if (!(await closeCase(em, workspaceId, caseId, note.trim(), new Date()))) throw alertRefusal('case_closed', `alert case ${caseId} is already closed`);
  return getCase(em, workspaceId, caseId);
}

