/**
 * The writes of a plot import (spec 2.3, 3.1): the stored plots a file's refs match, and the file's
 * (or an alert batch's) new and changed plots written through batched SQL (one statement per few thousand plots) inside
 * the caller's transaction. An update withdraws finished evidence in the statement itself when the
 * boundary moved (spec 3.1 `done` → `none`).
 */
import { randomBytes } from 'node:crypto';
import type { Finding } from '../../intake/findings.ts';
import type { PlotGeometry } from '../../intake/types.ts';
import type { ValidationState } from '../../intake/validate.ts';
import { isUuid } from '../ids.ts';
import type { Em } from '../orm.ts';
import { takingTurns } from '../../turns.ts';
import { EVIDENCE_COPIES } from './evidence.ts';
import type { PlotRecord } from './plots.ts';

/** The columns an upload writes, as one element of the JSON array a batch statement reads. */
export interface PlotColumns extends Pick<PlotRecord, 'id' | 'external_ref' | 'commodity' | 'country' | 'area_ha' | 'declared_area_ha' | 'planted_year' | 'producer_id'> {
  geometry: PlotGeometry | null;
  validation_state: ValidationState;
  /** An alert's plot adds its `alert` entry (spec 2.1): alert date, footprint and read-window areas. */
  validation_report: { findings: Finding[]; repairs: Finding[]; rejections: Finding[]; alert?: object; repeat_of?: string };
}

/** Where a plot's boundary came from (spec 2.1 `geometry_source`). */
export type GeometrySource = 'upload' | 'alert';

/** A stored plot a re-upload may match. */
export interface StoredPlot extends Omit<PlotColumns, 'validation_state'>, Pick<PlotRecord, 'validation_state' | 'evidence_state'> {}

/** An update also says whether the boundary moved; the statement withdraws finished evidence then. */
export type PlotUpdate = PlotColumns & { moved: boolean };

const RECORD_COLUMNS = `id uuid, external_ref text, commodity text, country text, area_ha double precision,
  declared_area_ha double precision, geometry jsonb, validation_state text, validation_report jsonb,
  planted_year int, producer_id uuid`;

const insertSql = (workspace: string, rows: string, source: GeometrySource) => `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha,
    declared_area_ha, geometry, geometry_source, validation_state, validation_report, planted_year, producer_id, evidence_state,
    created_at, updated_at)
  select r.id, ${workspace}, r.external_ref, r.commodity, r.country, r.area_ha, r.declared_area_ha, r.geometry,
    '${source}', r.validation_state, r.validation_report, r.planted_year, r.producer_id, 'none', now(), now()
  from rows from (jsonb_to_recordset(${rows}) as (${RECORD_COLUMNS})) with ordinality as r
  order by r.ordinality`;

// The withdraw transition runs in the statement itself, on the row's state at the time of writing
// (spec 3.1): only a finished read is withdrawn; a read in flight keeps its state.
const WITHDRAW = `(r.moved and p.evidence_state = 'done')`;
const updateSql = (workspace: string, rows: string) => `update plots p set
    external_ref = r.external_ref, commodity = r.commodity, country = r.country, area_ha = r.area_ha,
    declared_area_ha = r.declared_area_ha, geometry = r.geometry, validation_state = r.validation_state,
    validation_report = r.validation_report, planted_year = r.planted_year, producer_id = r.producer_id,
    evidence_state = case when ${WITHDRAW} then 'none' else p.evidence_state end,
    ${EVIDENCE_COPIES.map((c) => `${c} = case when ${WITHDRAW} then null else p.${c} end`).join(', ')},
    updated_at = now()
  from jsonb_to_recordset(${rows}) as r(${RECORD_COLUMNS}, moved boolean)
  where p.id = r.id and p.workspace_id = ${workspace}`;

function uuidLiteral(id: string): string {
  if (!isUuid(id)) throw new Error(`not a workspace id: ${id}`);
  return `'${id}'::uuid`;
}

/**
 * A JSON document as a dollar-quoted SQL literal. Batches go into the statement text rather than a
 * bound parameter: the ORM inlines parameters itself, one character at a time, which costs seconds
 * and hundreds of MB on a 25 MB file. Dollar quoting needs no escaping whatever the text holds; the
 * tag is random and checked absent from it. The statement must then carry no `?` placeholder.
 */
function jsonLiteral(json: string): string {
  let tag: string;
  do tag = `$j${randomBytes(6).toString('hex')}$`;
  while (json.includes(tag));
  return `${tag}${json}${tag}::jsonb`;
}

/**
 * Bounds one statement's JSON. The embedded PGlite runs a statement on the calling thread, about
 * 90 ms per MB of rows, so the batch size is how long the API's event loop waits; at 256 KB a
 * 25 MB file is about a hundred statements, each a round trip on PostgreSQL.
 */
const BATCH_CHARS = 256 * 1024;
const BATCH_ROWS = 5000;

async function writeBatches<T>(rows: T[], write: (json: string) => Promise<unknown>): Promise<void> {
  const turn = takingTurns();
  let parts: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (parts.length === 0) return;
    const json = `[${parts.join(',')}]`;
    parts = [];
    chars = 0;
    await write(json);
  };
  for (const row of rows) {
    const part = JSON.stringify(row);
    parts.push(part);
    chars += part.length;
    if (chars >= BATCH_CHARS || parts.length >= BATCH_ROWS) await flush();
    else await turn();
  }
  await flush();
}

/**
 * The workspace's stored plots carrying the given refs, by ref. Their boundaries and reports are
 * only compared with the upload's, never served, so they are not run through the stored-JSON
 * schemas: this read covers every matched plot of a file of up to 25 MB.
 */
export async function storedByRef(tx: Em, workspaceId: string, refs: string[]): Promise<Map<string, StoredPlot>> {
  const byRef = new Map<string, StoredPlot>();
  if (refs.length === 0) return byRef;
  const rows = await tx.execute<StoredPlot[]>(
    `select p.id, p.external_ref, p.commodity, p.country, p.area_ha, p.declared_area_ha, p.geometry, p.validation_state,
            p.validation_report, p.planted_year, p.producer_id, p.evidence_state
       from plots p join jsonb_array_elements_text(${jsonLiteral(JSON.stringify(refs))}) as f(ref) on p.external_ref = f.ref
      where p.workspace_id = ${uuidLiteral(workspaceId)}`,
  );
  for (const row of rows) byRef.set(row.external_ref!, row);
  return byRef;
}

/**
 * The plots stored as repeats of each ref (rejected, without a ref of their own; `validation_report.repeat_of`
 * names it), in the order they were stored: a re-upload's repeats of a ref match them in file order.
 */
export async function storedRepeats(tx: Em, workspaceId: string, refs: string[]): Promise<Map<string, StoredPlot[]>> {
  const byRef = new Map<string, StoredPlot[]>();
  if (refs.length === 0) return byRef;
  const rows = await tx.execute<(StoredPlot & { repeat_of: string })[]>(
    `select p.id, p.external_ref, p.commodity, p.country, p.area_ha, p.declared_area_ha, p.geometry, p.validation_state,
            p.validation_report, p.planted_year, p.producer_id, p.evidence_state, p.validation_report->>'repeat_of' as repeat_of
       from plots p join jsonb_array_elements_text(${jsonLiteral(JSON.stringify([...new Set(refs)]))}) as f(ref) on p.validation_report->>'repeat_of' = f.ref
      where p.workspace_id = ${uuidLiteral(workspaceId)} and p.external_ref is null
      order by p.seq`,
  );
  for (const { repeat_of: ref, ...row } of rows) byRef.set(ref, [...(byRef.get(ref) ?? []), row]);
  return byRef;
}

/** Inserts new plots of an upload or an alert batch (evidence state `none`), keeping their order in the register. */
export async function insertPlots(tx: Em, workspaceId: string, rows: PlotColumns[], source: GeometrySource = 'upload'): Promise<void> {
  const workspace = uuidLiteral(workspaceId);
  await writeBatches(rows, (json) => tx.execute(insertSql(workspace, jsonLiteral(json), source), [], 'run'));
}

/** Writes changed plots of an upload; a moved boundary withdraws finished evidence (spec 3.1 withdraw). */
export async function updatePlots(tx: Em, workspaceId: string, rows: PlotUpdate[]): Promise<void> {
  const workspace = uuidLiteral(workspaceId);
  await writeBatches(rows, (json) => tx.execute(updateSql(workspace, jsonLiteral(json)), [], 'run'));
}
