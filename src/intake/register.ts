/** The plot register (spec 2.1, 4.1): its rows as the API serves them, the list and the detail. */
import type { ArchiveReview } from '../engine/archive-reading.ts';
import { plotStateOfRow, type PlotState, type PlotTone } from '../engine/plot-state.ts';
import { EVIDENCE_STATES, type EvidenceState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { openCasesByPlot } from '../store/register/alert-queue.ts';
import { servedReading } from '../store/register/archive-readings.ts';
import { plotWithBoundary, registerPage, registerRow, registerRows, stateColumns, type ListTotal, type PlotRecord } from '../store/register/plots.ts';
import { shipmentRecord } from '../store/register/shipments.ts';
import type { ValidationReport } from '../store/register/stored-json.ts';
import { notFound } from './errors.ts';
import type { PlotGeometry } from './types.ts';

/** A register row as the API serves it: timestamps as ISO strings, and the plot's `state` decided. */
export interface RegisterRow extends Omit<PlotRecord, 'evidence_at' | 'evidence_facts' | 'created_at' | 'updated_at'> {
  evidence_at: string | null;
  state: PlotState;
  created_at: string;
  updated_at: string;
}

/** A row of the list and the detail: with the open alert cases on the plot, shown beside its post-cutoff loss. */
export interface ListedRow extends RegisterRow {
  open_alert_cases: number;
}

export interface PlotDetail extends ListedRow {
  geometry: PlotGeometry | null;
  /** Findings, repairs and rejections of the last upload (an alert's plot adds its `alert` entry). */
  validation_report: ValidationReport;
  /** The archive reading served with the plot's live evidence; null when none is. */
  archive_review: ArchiveReview | null;
}

export const PLOT_TONES: readonly PlotTone[] = ['finding', 'record', 'forest_mapped'];

/** `state` of the list: an evidence state, or a tone of the plot's `state` object. */
export type StateFilter = { evidence_state: EvidenceState } | { tone: PlotTone };

export function parseStateFilter(value: string): StateFilter | null {
  if ((EVIDENCE_STATES as readonly string[]).includes(value)) return { evidence_state: value as EvidenceState };
  if ((PLOT_TONES as readonly string[]).includes(value)) return { tone: value as PlotTone };
  return null;
}

export interface ListQuery {
  limit: number;
  offset: number;
  state?: StateFilter | null;
  /** A fragment of the caller's reference, matched ignoring case. */
  q?: string | null;
  /** Narrows the list to one shipment's plots. */
  shipmentId?: string | null;
  /** true: plots with moist forest lost after the cutoff; false: the others. */
  postCutoffLoss?: boolean | null;
}

/** A page of the list; `exact: false` says more plots than `total` match (a filtered list stops counting, plots.ts COUNT_WINDOW). */
export interface PlotPage extends ListTotal {
  rows: ListedRow[];
}

async function withOpenCases(em: Em, workspaceId: string, rows: RegisterRow[]): Promise<ListedRow[]> {
  const open = await openCasesByPlot(em, workspaceId, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, open_alert_cases: open.get(r.id) ?? 0 }));
}

export function rowOf(r: PlotRecord): RegisterRow {
  return {
    id: r.id,
    external_ref: r.external_ref,
    commodity: r.commodity,
    country: r.country,
    area_ha: r.area_ha,
    declared_area_ha: r.declared_area_ha,
    geometry_source: r.geometry_source,
    validation_state: r.validation_state,
    planted_year: r.planted_year,
    producer_id: r.producer_id,
    producer_name: r.producer_name,
    evidence_state: r.evidence_state,
    verdict: r.verdict,
    reason: r.reason,
    evidence_at: r.evidence_at === null ? null : r.evidence_at.toISOString(),
    state: plotStateOfRow(r),
    post_cutoff_loss_share: r.post_cutoff_loss_share,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/**
 * One page of the register in its stable order (upload order: the order plots were first stored,
 * file order within an import), with the total that matches the filters: exact for the whole
 * register and for a tone (which reads every match's state anyway), bounded for the other filters.
 */
export async function listPlots(em: Em, workspaceId: string, query: ListQuery): Promise<PlotPage> {
  const shipmentId = query.shipmentId ? query.shipmentId.toLowerCase() : null;
  if (shipmentId !== null && (await shipmentRecord(em, workspaceId, shipmentId)) === null) throw notFound('shipment', shipmentId);
  const state = query.state ?? null;
  const filter = { q: query.q, evidenceState: state && 'evidence_state' in state ? state.evidence_state : null, shipmentId, postCutoffLoss: query.postCutoffLoss };
  if (state && 'tone' in state) {
    // The tone is plotStateOfRow()'s answer, which SQL does not restate: the filter runs on the few
    // columns it reads, and only the page's rows are fetched whole.
    const ids = (await stateColumns(em, workspaceId, filter)).filter((c) => plotStateOfRow(c).tone === state.tone).map((c) => c.id);
    const pageIds = ids.slice(query.offset, query.offset + query.limit);
    if (pageIds.length === 0) return { total: ids.length, exact: true, rows: [] };
    return { total: ids.length, exact: true, rows: await withOpenCases(em, workspaceId, (await registerRows(em, workspaceId, pageIds)).map(rowOf)) };
  }
  const page = await registerPage(em, workspaceId, filter, query);
  return { total: page.total, exact: page.exact, rows: await withOpenCases(em, workspaceId, page.rows.map(rowOf)) };
}

/** One register row; not_found outside the workspace. */
export async function plotRow(em: Em, workspaceId: string, plotId: string): Promise<RegisterRow> {
  const r = await registerRow(em, workspaceId, plotId);
  if (r === null) throw notFound('plot', plotId);
  return rowOf(r);
}

/** One plot with its boundary and its validation report; not_found outside the workspace. */
export async function plotDetail(em: Em, workspaceId: string, plotId: string): Promise<PlotDetail> {
  const r = await plotWithBoundary(em, workspaceId, plotId);
  if (r === null) throw notFound('plot', plotId);
  const [row] = await withOpenCases(em, workspaceId, [rowOf(r)]);
  return { ...row, geometry: r.geometry, validation_report: r.validation_report, archive_review: await servedReading(em, workspaceId, plotId) };
}
