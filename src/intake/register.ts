/** The plot register (spec 2.1, 4.1): its rows as the API serves them, the list and the detail. */
import { plotStateOfRow, type EvidenceFacts, type PlotState, type PlotTone } from '../engine/plot-state.ts';
import { EVIDENCE_STATES, type EvidenceState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { notFound } from './errors.ts';
import type { Finding } from './findings.ts';
import type { PlotGeometry } from './types.ts';

export interface RegisterRow {
  id: string;
  external_ref: string | null;
  commodity: string | null;
  country: string | null;
  area_ha: number | null;
  declared_area_ha: number | null;
  geometry_source: string;
  validation_state: string;
  planted_year: number | null;
  producer_id: string | null;
  producer_name: string | null;
  evidence_state: EvidenceState;
  verdict: string | null;
  reason: string | null;
  evidence_at: string | null;
  state: PlotState;
  post_cutoff_loss_share: number | null;
  created_at: string;
  updated_at: string;
}

export interface PlotDetail extends RegisterRow {
  geometry: PlotGeometry | null;
  /** Findings, repairs and rejections of the last upload (an alert's plot adds its `alert` entry). */
  validation_report: { findings: Finding[]; repairs: Finding[]; rejections: Finding[] } & Record<string, unknown>;
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
}

export interface PlotPage {
  total: number;
  rows: RegisterRow[];
}

/** A register row as the database returns it: timestamps not yet ISO strings, the state not yet decided. */
type DbRow = Omit<RegisterRow, 'evidence_at' | 'created_at' | 'updated_at' | 'state'> & {
  evidence_at: Date | string | null;
  evidence_facts: EvidenceFacts | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const ROW_COLUMNS = `p.id, p.external_ref, p.commodity, p.country, p.area_ha, p.declared_area_ha, p.geometry_source,
  p.validation_state, p.planted_year, p.producer_id, pr.name as producer_name, p.evidence_state, p.verdict, p.reason,
  p.evidence_at, p.evidence_facts, p.post_cutoff_loss_share, p.created_at, p.updated_at`;
const FROM = 'plots p left join producers pr on pr.id = p.producer_id';

const iso = (t: Date | string) => new Date(t).toISOString();

function rowOf(r: DbRow): RegisterRow {
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
    evidence_at: r.evidence_at === null ? null : iso(r.evidence_at),
    state: plotStateOfRow(r),
    post_cutoff_loss_share: r.post_cutoff_loss_share,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** `%` and `_` in a fragment are literal. */
const likePattern = (fragment: string) => `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the register in its stable order (upload order: the order plots were first stored,
 * file order within an import), with the total that matches the filters.
 */
export async function listPlots(em: Em, workspaceId: string, query: ListQuery): Promise<PlotPage> {
  // No shipment exists until shipments are built, so every shipment id is unknown in the workspace.
  if (query.shipmentId) throw notFound('shipment', query.shipmentId);
  const where = ['p.workspace_id = ?'];
  const params: unknown[] = [workspaceId];
  if (query.q) {
    where.push(`p.external_ref ilike ? escape '\\'`);
    params.push(likePattern(query.q));
  }
  const state = query.state ?? null;
  if (state && 'evidence_state' in state) {
    where.push('p.evidence_state = ?');
    params.push(state.evidence_state);
  }
  const filter = where.join(' and ');

  if (state && 'tone' in state) {
    // The tone is plotStateOfRow()'s answer, which SQL does not restate: the filter runs on the few
    // columns it reads, and only the page's rows are fetched whole.
    const candidates = await em.execute<Pick<DbRow, 'id' | 'evidence_state' | 'area_ha' | 'verdict' | 'evidence_facts'>[]>(
      `select p.id, p.evidence_state, p.area_ha, p.verdict, p.evidence_facts from plots p where ${filter} order by p.seq`,
      params,
    );
    const ids = candidates.filter((c) => plotStateOfRow(c).tone === state.tone).map((c) => c.id);
    const pageIds = ids.slice(query.offset, query.offset + query.limit);
    if (pageIds.length === 0) return { total: ids.length, rows: [] };
    const rows = await em.execute<DbRow[]>(
      `select ${ROW_COLUMNS} from ${FROM} join jsonb_array_elements_text(?::jsonb) as page(id) on p.id = page.id::uuid
        where p.workspace_id = ? order by p.seq`,
      [JSON.stringify(pageIds), workspaceId],
    );
    return { total: ids.length, rows: rows.map(rowOf) };
  }

  const [{ total }] = await em.execute<{ total: number | string }[]>(`select count(*) as total from plots p where ${filter}`, params);
  const rows = await em.execute<DbRow[]>(
    `select ${ROW_COLUMNS} from ${FROM} where ${filter} order by p.seq limit ? offset ?`,
    [...params, query.limit, query.offset],
  );
  return { total: Number(total), rows: rows.map(rowOf) };
}

async function fetchPlot<T extends DbRow>(em: Em, workspaceId: string, plotId: string, extra = ''): Promise<T> {
  const rows = await em.execute<T[]>(`select ${ROW_COLUMNS}${extra} from ${FROM} where p.id = ? and p.workspace_id = ?`, [plotId, workspaceId]);
  if (rows.length === 0) throw notFound('plot', plotId);
  return rows[0];
}

/** One register row; not_found outside the workspace. */
export async function plotRow(em: Em, workspaceId: string, plotId: string): Promise<RegisterRow> {
  return rowOf(await fetchPlot(em, workspaceId, plotId));
}

/** One plot with its boundary and its validation report; not_found outside the workspace. */
export async function plotDetail(em: Em, workspaceId: string, plotId: string): Promise<PlotDetail> {
  const r = await fetchPlot<DbRow & Pick<PlotDetail, 'geometry' | 'validation_report'>>(em, workspaceId, plotId, ', p.geometry, p.validation_report');
  return { ...rowOf(r), geometry: r.geometry, validation_report: r.validation_report };
}
