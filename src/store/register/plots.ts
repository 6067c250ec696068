/**
 * Reads of the plot register (spec 2.1, 4.1): its rows for the list, the detail and the book
 * summary, the plots an evidence job still holds, and the producers with their plot counts.
 * Timestamps come back as Dates and stored JSON checked, whichever backend answered.
 */
import type { MultiPolygon, Point, Polygon } from 'geojson';
import type { ReasonCode, Verdict } from '../../engine/decide.ts';
import type { EvidenceFacts } from '../../engine/plot-state.ts';
import type { PlotGeometry } from '../../intake/types.ts';
import { Plot, type EvidenceState } from '../entities/index.ts';
import type { Em } from '../orm.ts';
import { READABLE } from './evidence.ts';
import { plotTotal } from './plot-totals.ts';
import { ON_SHIPMENT } from './shipments.ts';
import { evidenceFacts, plotGeometry, validationReport, type ValidationReport } from './stored-json.ts';

/** A register row with its producer's name. */
export interface PlotRecord {
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
  evidence_at: Date | null;
  evidence_facts: EvidenceFacts | null;
  post_cutoff_loss_share: number | null;
  created_at: Date;
  updated_at: Date;
}

/** A plot with its boundary and its last upload's validation report. */
export interface PlotWithBoundary extends PlotRecord {
  geometry: PlotGeometry | null;
  validation_report: ValidationReport;
}

/** What a plot's `state` is decided from, for filtering the register by tone. */
export type StateColumns = Pick<PlotRecord, 'id' | 'evidence_state' | 'area_ha' | 'verdict' | 'evidence_facts'>;

type Stamp = Date | string;
type DbRecord = Omit<PlotRecord, 'evidence_at' | 'created_at' | 'updated_at'> & { evidence_at: Stamp | null; created_at: Stamp; updated_at: Stamp };

const ROW_COLUMNS = `p.id, p.external_ref, p.commodity, p.country, p.area_ha, p.declared_area_ha, p.geometry_source,
  p.validation_state, p.planted_year, p.producer_id, pr.name as producer_name, p.evidence_state, p.verdict, p.reason,
  p.evidence_at, p.evidence_facts, p.post_cutoff_loss_share, p.created_at, p.updated_at`;
const FROM = 'plots p left join producers pr on pr.id = p.producer_id';

const facts = (value: unknown): EvidenceFacts | null => (value === null ? null : evidenceFacts.parse(value));

function recordOf(r: DbRecord): PlotRecord {
  return {
    ...r,
    evidence_facts: facts(r.evidence_facts),
    evidence_at: r.evidence_at === null ? null : new Date(r.evidence_at),
    created_at: new Date(r.created_at),
    updated_at: new Date(r.updated_at),
  };
}

/** Narrows the register: a fragment of the caller's reference (ignoring case), an evidence state. */
export interface PlotFilter {
  q?: string | null;
  evidenceState?: EvidenceState | null;
  /** One shipment's plots. */
  shipmentId?: string | null;
  /** true: the plots whose Landsat record dates a loss of moist forest after the cutoff (spec 2.8.4 rule 4); false: the others. */
  postCutoffLoss?: boolean | null;
}

/** `%` and `_` in a fragment are literal. */
const likePattern = (fragment: string) => `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The filter as SQL; `narrowed` when it keeps fewer than all the workspace's plots. */
function whereOf(workspaceId: string, filter: PlotFilter): { sql: string; params: unknown[]; narrowed: boolean } {
  const where = ['p.workspace_id = ?'];
  const params: unknown[] = [workspaceId];
  if (filter.q) {
    where.push(`p.external_ref ilike ? escape '\\'`);
    params.push(likePattern(filter.q));
  }
  if (filter.evidenceState) {
    where.push('p.evidence_state = ?');
    params.push(filter.evidenceState);
  }
  if (filter.shipmentId) {
    where.push(ON_SHIPMENT);
    params.push(filter.shipmentId);
  }
  if (typeof filter.postCutoffLoss === 'boolean') where.push(`p.post_cutoff_loss_share is ${filter.postCutoffLoss ? 'not ' : ''}null`);
  return { sql: where.join(' and '), params, narrowed: where.length > 1 };
}

/**
 * A filtered list counts its matches up to this many past the page's offset: the count costs no more
 * than reading that far, and beyond it the total is a lower bound (`exact: false`). The unfiltered
 * list's total is kept by the database (plot-totals.ts) and always exact.
 */
export const COUNT_WINDOW = 10_000;

/** A list's total: exact, or (`exact: false`) a number the matches exceed. */
export interface ListTotal {
  total: number;
  exact: boolean;
}

async function matchTotal(em: Em, workspaceId: string, where: ReturnType<typeof whereOf>, offset: number): Promise<ListTotal> {
  if (!where.narrowed) return { total: await plotTotal(em, workspaceId), exact: true };
  const window = Math.min(offset + COUNT_WINDOW, Number.MAX_SAFE_INTEGER - 1);
  const [{ n }] = await em.execute<{ n: number | string }[]>(`select count(*) as n from (select 1 from plots p where ${where.sql} limit ?) m`, [...where.params, window + 1]);
  return Number(n) > window ? { total: window, exact: false } : { total: Number(n), exact: true };
}

/** One page of the register in its stable order (upload order), with the total the filter matches. */
export async function registerPage(em: Em, workspaceId: string, filter: PlotFilter, page: { limit: number; offset: number }): Promise<ListTotal & { rows: PlotRecord[] }> {
  const where = whereOf(workspaceId, filter);
  const [total, rows] = await Promise.all([
    matchTotal(em, workspaceId, where, page.offset),
    em.execute<DbRecord[]>(`select ${ROW_COLUMNS} from ${FROM} where ${where.sql} order by p.seq limit ? offset ?`, [...where.params, page.limit, page.offset]),
  ]);
  return { ...total, rows: rows.map(recordOf) };
}

/** The few columns a plot's state is decided from, for every plot the filter matches, in register order. */
export async function stateColumns(em: Em, workspaceId: string, filter: PlotFilter): Promise<StateColumns[]> {
  const where = whereOf(workspaceId, filter);
  const rows = await em.execute<StateColumns[]>(
    `select p.id, p.evidence_state, p.area_ha, p.verdict, p.evidence_facts from plots p where ${where.sql} order by p.seq`,
    where.params,
  );
  return rows.map((r) => ({ ...r, evidence_facts: facts(r.evidence_facts) }));
}

/** The named plots of the workspace, whole, in register order. */
export async function registerRows(em: Em, workspaceId: string, ids: string[]): Promise<PlotRecord[]> {
  const rows = await em.execute<DbRecord[]>(
    `select ${ROW_COLUMNS} from ${FROM} join jsonb_array_elements_text(?::jsonb) as page(id) on p.id = page.id::uuid
      where p.workspace_id = ? order by p.seq`,
    [JSON.stringify(ids), workspaceId],
  );
  return rows.map(recordOf);
}

/** A batch's register row with what its next step is decided from beside the row (src/engine/next-step.ts). */
export interface ShipmentRow {
  seq: number;
  record: PlotRecord;
  /** Valid or repaired with a geometry: a read can be run on it. */
  readable: boolean;
  /** A failed read's reason in words. */
  evidence_error: string | null;
  /** The reasons of its live evidence; null while none is served. */
  reasons: ReasonCode[] | null;
}

/** Up to `size` register rows of a shipment's plots after register position `afterSeq`, in register order (keyset paging, so a batch of any size streams). */
export async function shipmentRowsPage(em: Em, workspaceId: string, shipmentId: string, afterSeq: number, size: number): Promise<ShipmentRow[]> {
  const rows = await em.execute<(DbRecord & { seq: number | string; readable: boolean; evidence_error: string | null; reasons: ReasonCode[] | null })[]>(
    `select p.seq, ${ROW_COLUMNS}, (${READABLE}) as readable, p.evidence_error, e.object -> 'reasons' as reasons
       from ${FROM} left join evidence e on e.plot_id = p.id and e.workspace_id = p.workspace_id and e.current and p.evidence_state = 'done'
      where p.workspace_id = ? and ${ON_SHIPMENT} and p.seq > ? order by p.seq limit ?`,
    [workspaceId, shipmentId, afterSeq, size],
  );
  return rows.map(({ seq, readable, evidence_error, reasons, ...r }) => ({ seq: Number(seq), record: recordOf(r), readable, evidence_error, reasons }));
}

/** One register row; null outside the workspace. */
export async function registerRow(em: Em, workspaceId: string, plotId: string): Promise<PlotRecord | null> {
  const [r] = await em.execute<DbRecord[]>(`select ${ROW_COLUMNS} from ${FROM} where p.id = ? and p.workspace_id = ?`, [plotId, workspaceId]);
  return r === undefined ? null : recordOf(r);
}

/** One plot with its boundary and validation report; null outside the workspace. */
export async function plotWithBoundary(em: Em, workspaceId: string, plotId: string): Promise<PlotWithBoundary | null> {
  const [r] = await em.execute<(DbRecord & { geometry: unknown; validation_report: unknown })[]>(
    `select ${ROW_COLUMNS}, p.geometry, p.validation_report from ${FROM} where p.id = ? and p.workspace_id = ?`,
    [plotId, workspaceId],
  );
  if (r === undefined) return null;
  return {
    ...recordOf(r),
    geometry: r.geometry === null ? null : plotGeometry.parse(r.geometry),
    validation_report: validationReport.parse(r.validation_report),
  };
}

/** A plot as the book summary reads it, with the reasons of its live evidence (null while none is served). */
export interface BookRecord {
  seq: number;
  id: string;
  external_ref: string | null;
  commodity: string | null;
  country: string | null;
  area_ha: number | null;
  /** Valid or repaired with a geometry: a read can be run on it. */
  readable: boolean;
  evidence_state: EvidenceState;
  /** A failed read's reason in words. */
  evidence_error: string | null;
  verdict: Verdict | null;
  reason: ReasonCode | null;
  reasons: ReasonCode[] | null;
  evidence_at: Date | null;
  evidence_facts: EvidenceFacts | null;
  post_cutoff_loss_share: number | null;
}

// The evidence row is joined only while the plot is `done`, as the evidence routes serve it: a
// read withdrawn by a moved boundary, or being read again, counts no reasons.
const BOOK_PAGE_SQL = `
  select p.seq, p.id, p.external_ref, p.commodity, p.country, p.area_ha, (${READABLE}) as readable, p.evidence_state, p.evidence_error,
    p.verdict, p.reason, p.evidence_at, p.evidence_facts, p.post_cutoff_loss_share, e.object -> 'reasons' as reasons
  from plots p
  left join evidence e on e.plot_id = p.id and e.workspace_id = p.workspace_id and e.current and p.evidence_state = 'done'
  where p.workspace_id = ? and p.seq > ?
  order by p.seq
  limit ?`;

/** Up to `size` plots after register position `afterSeq` (keyset paging, so a book of any size streams). */
export async function bookPage(em: Em, workspaceId: string, afterSeq: number, size: number): Promise<BookRecord[]> {
  const rows = await em.execute<(Omit<BookRecord, 'seq' | 'evidence_at'> & { seq: number | string; evidence_at: Stamp | null })[]>(BOOK_PAGE_SQL, [workspaceId, afterSeq, size]);
  return rows.map((r) => ({
    ...r,
    seq: Number(r.seq),
    evidence_facts: facts(r.evidence_facts),
    evidence_at: r.evidence_at === null ? null : new Date(r.evidence_at),
  }));
}

/** A producer of the workspace with the number of plots attached to it. */
export interface ProducerCount {
  id: string;
  name: string;
  reference: string | null;
  country: string | null;
  created_at: Date;
  plots: number;
}

/** The workspace's producers with their plot counts, in name order. */
export async function producersWithPlots(em: Em, workspaceId: string): Promise<ProducerCount[]> {
  const rows = await em.execute<(Omit<ProducerCount, 'created_at' | 'plots'> & { created_at: Stamp; plots: number | string })[]>(
    `select pr.id, pr.name, pr.reference, pr.country, pr.created_at,
            (select count(*) from plots p where p.workspace_id = pr.workspace_id and p.producer_id = pr.id) as plots
       from producers pr where pr.workspace_id = ? order by pr.key, pr.created_at, pr.id`,
    [workspaceId],
  );
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at), plots: Number(r.plots) }));
}

export async function plotExists(em: Em, workspaceId: string, plotId: string): Promise<boolean> {
  return (await em.count(Plot, { id: plotId, workspaceId })) > 0;
}

/** Attaches a producer to a plot; null detaches. */
export async function setProducer(em: Em, workspaceId: string, plotId: string, producerId: string | null): Promise<void> {
  await em.nativeUpdate(Plot, { id: plotId, workspaceId }, { producerId, updatedAt: new Date() });
}

/** A plot an evidence job holds, with what its read needs. */
export interface HeldPlot {
  id: string;
  external_ref: string | null;
  geometry: Point | Polygon | MultiPolygon;
  area_ha: number | null;
  declared_area_ha: number | null;
  country: string | null;
  producer_country: string | null;
}

const HELD = `p.workspace_id = ? and p.evidence_job_id = ? and p.evidence_state in ('queued', 'running') and p.geometry is not null`;

/** A plot a job still holds and one of its vertices (a point's own position), where the job's read order places it. */
export interface HeldPlace {
  id: string;
  lon: number;
  lat: number;
}

// The path of a geometry's first vertex below `coordinates`, by its GeoJSON type.
const FIRST_VERTEX = `(case p.geometry->>'type' when 'Point' then '{coordinates}' when 'Polygon' then '{coordinates,0,0}' else '{coordinates,0,0,0}' end)::text[]`;

/** The plots a job still holds (queued or running under its id), each with a vertex, in no particular order. */
export async function heldPlotPlaces(em: Em, workspaceId: string, jobId: string): Promise<HeldPlace[]> {
  const rows = await em.execute<{ id: string; lon: number | string; lat: number | string }[]>(
    `select p.id, (p.geometry #>> (${FIRST_VERTEX} || '{0}'::text[]))::float8 as lon, (p.geometry #>> (${FIRST_VERTEX} || '{1}'::text[]))::float8 as lat
       from plots p where ${HELD}`,
    [workspaceId, jobId],
  );
  return rows.map((r) => ({ id: r.id, lon: Number(r.lon), lat: Number(r.lat) }));
}

/** Those of `plotIds` the job still holds, in one statement (a job loads its next plots' rows together). */
export async function heldPlots(em: Em, workspaceId: string, jobId: string, plotIds: readonly string[]): Promise<HeldPlot[]> {
  const rows = await em.execute<(Omit<HeldPlot, 'geometry'> & { geometry: unknown })[]>(
    `select p.id, p.external_ref, p.geometry, p.area_ha, p.declared_area_ha, p.country, pr.country as producer_country
       from plots p left join producers pr on pr.id = p.producer_id where p.id = any(?::uuid[]) and ${HELD}`,
    [`{${plotIds.join(',')}}`, workspaceId, jobId],
  );
  return rows.map((r) => ({ ...r, geometry: plotGeometry.parse(r.geometry) }));
}
