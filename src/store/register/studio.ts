/**
 * Every statement over studio boundaries and their analyses (spec 1 capability 6, 4.6): saving,
 * listing and deleting boundaries, queueing a half of a boundary's read once, and the transitions
 * a job makes on the analysis it holds (running, done with its signed object and its unit of the
 * allowance, failed with why).
 * As for plots, a job writes only while it still holds the analysis, so a boundary deleted or a
 * half queued again meanwhile takes nothing from a stale read.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import { chargeRead } from '../../accounts/allowance.ts';
import type { EvidenceMap } from '../../documents/footprint-map.ts';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import type { Integrity } from '../../engine/integrity.ts';
import type { AnalysisHalf, AnalysisState } from '../entities/index.ts';
import type { Em } from '../orm.ts';
import { boundaryGeometry, evidenceObject, integrity, storedMap, type StoredMap } from './stored-json.ts';
import type { WriteOutcome } from './transitions.ts';

export interface BoundaryInput {
  id: string;
  workspaceId: string;
  name: string;
  geometry: Polygon | MultiPolygon;
  areaHa: number;
  country: string | null;
}

/** A boundary with the state of each half of its read (null: not queued). */
export interface BoundaryRecord {
  id: string;
  name: string;
  area_ha: number;
  country: string | null;
  created_at: Date;
  optical: AnalysisState | null;
  merged: AnalysisState | null;
}

type Stamp = Date | string;

const BOUNDARY_COLUMNS = `b.id, b.name, b.area_ha, b.country, b.created_at,
  (select a.state from boundary_analyses a where a.boundary_id = b.id and a.half = 'optical') as optical,
  (select a.state from boundary_analyses a where a.boundary_id = b.id and a.half = 'merged') as merged`;

const boundaryOf = (r: Omit<BoundaryRecord, 'created_at'> & { created_at: Stamp }): BoundaryRecord => ({ ...r, area_ha: Number(r.area_ha), created_at: new Date(r.created_at) });

export async function insertBoundary(tx: Em, b: BoundaryInput): Promise<void> {
  await tx.execute(
    `insert into studio_boundaries (id, workspace_id, name, geometry, area_ha, country, created_at) values (?, ?, ?, ?::jsonb, ?, ?, now())`,
    [b.id, b.workspaceId, b.name, JSON.stringify(b.geometry), b.areaHa, b.country],
    'run',
  );
}

/** The workspace's boundaries, newest first. */
export async function boundaryList(em: Em, workspaceId: string): Promise<BoundaryRecord[]> {
  const rows = await em.execute<(Omit<BoundaryRecord, 'created_at'> & { created_at: Stamp })[]>(
    `select ${BOUNDARY_COLUMNS} from studio_boundaries b where b.workspace_id = ? order by b.created_at desc, b.id`,
    [workspaceId],
  );
  return rows.map(boundaryOf);
}

/** One boundary with its geometry; null outside the workspace. */
export async function boundaryRow(em: Em, workspaceId: string, id: string): Promise<(BoundaryRecord & { geometry: Polygon | MultiPolygon }) | null> {
  const [r] = await em.execute<(Omit<BoundaryRecord, 'created_at'> & { created_at: Stamp; geometry: unknown })[]>(
    `select ${BOUNDARY_COLUMNS}, b.geometry from studio_boundaries b where b.id = ? and b.workspace_id = ?`,
    [id, workspaceId],
  );
  return r === undefined ? null : { ...boundaryOf(r), geometry: boundaryGeometry.parse(r.geometry) };
}

/** Deletes a boundary and its analyses; false when the workspace has no such boundary. */
export async function deleteBoundary(em: Em, workspaceId: string, id: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    await tx.execute('delete from boundary_analyses where boundary_id = ? and workspace_id = ?', [id, workspaceId], 'run');
    const gone = await tx.execute('delete from studio_boundaries where id = ? and workspace_id = ?', [id, workspaceId], 'run');
    return Number((gone as { affectedRows?: number }).affectedRows ?? 0) > 0;
  });
}

/**
 * Takes the half's one row for a new read: answers its id when this call created it (or, `again`,
 * took back a failed one), null when it already existed. The row is unique per boundary and half,
 * so of calls racing to queue a half the database lets exactly one insert; the others wait for it
 * and find it there.
 */
export async function claimHalf(tx: Em, workspaceId: string, boundaryId: string, half: AnalysisHalf, id: string, again = false): Promise<string | null> {
  const conflict = again
    ? `do update set state = 'queued', error = null, job_id = null, updated_at = now() where boundary_analyses.state = 'failed'`
    : 'do nothing';
  const rows = await tx.execute<{ id: string }[]>(
    `insert into boundary_analyses (id, workspace_id, boundary_id, half, state, created_at, updated_at)
      values (?, ?, ?, ?, 'queued', now(), now()) on conflict (boundary_id, half) ${conflict} returning id`,
    [id, workspaceId, boundaryId, half],
  );
  return rows[0]?.id ?? null;
}

/** Names the job that holds a half just claimed (in the transaction that sent it). */
export async function holdHalf(tx: Em, analysisId: string, jobId: string): Promise<void> {
  await tx.execute('update boundary_analyses set job_id = ?, updated_at = now() where id = ?', [jobId, analysisId], 'run');
}

/** One half of a boundary's read as stored. */
export interface AnalysisRecord {
  id: string;
  half: AnalysisHalf;
  state: AnalysisState;
  /** The job holding the read while queued or running. */
  job_id: string | null;
  error: string | null;
  created_at: Date;
  /** Set once done. */
  stored: { object: EvidenceObject; integrity: Integrity; map: StoredMap; chipPng: Buffer | null } | null;
}

/** The halves of a boundary's read, by half. */
export async function boundaryAnalyses(em: Em, workspaceId: string, boundaryId: string): Promise<Partial<Record<AnalysisHalf, AnalysisRecord>>> {
  const rows = await em.execute<{ id: string; half: AnalysisHalf; state: AnalysisState; job_id: string | null; error: string | null; created_at: Stamp; object: unknown; integrity: unknown; map: unknown; chip_png: Uint8Array | null }[]>(
    `select id, half, state, job_id, error, created_at, object, integrity, map, chip_png from boundary_analyses where boundary_id = ? and workspace_id = ?`,
    [boundaryId, workspaceId],
  );
  const out: Partial<Record<AnalysisHalf, AnalysisRecord>> = {};
  for (const r of rows) {
    const done = r.state === 'done' && r.object !== null;
    out[r.half] = {
      id: r.id,
      half: r.half,
      state: r.state,
      job_id: r.job_id,
      error: r.error,
      created_at: new Date(r.created_at),
      stored: done
        ? { object: evidenceObject.parse(r.object), integrity: integrity.parse(r.integrity), map: storedMap.parse(r.map), chipPng: r.chip_png === null ? null : Buffer.from(r.chip_png) }
        : null,
    };
  }
  return out;
}

// ---- what a job does with the analyses it holds ------------------------------------------------

/** An analysis a job holds, with what its read needs. */
export interface HeldAnalysis {
  id: string;
  half: AnalysisHalf;
  name: string;
  geometry: Polygon | MultiPolygon;
  area_ha: number;
  country: string | null;
}

const HELD = `a.workspace_id = ? and a.job_id = ? and a.state in ('queued', 'running')`;

// The path of a geometry's first vertex below `coordinates`, by its GeoJSON type.
const FIRST_VERTEX = `(case b.geometry->>'type' when 'Polygon' then '{coordinates,0,0}' else '{coordinates,0,0,0}' end)::text[]`;

/** The analyses a job still holds, each with a vertex of its boundary. */
export async function heldAnalysisPlaces(em: Em, workspaceId: string, jobId: string): Promise<{ id: string; lon: number; lat: number }[]> {
  const rows = await em.execute<{ id: string; lon: number | string; lat: number | string }[]>(
    `select a.id, (b.geometry #>> (${FIRST_VERTEX} || '{0}'::text[]))::float8 as lon, (b.geometry #>> (${FIRST_VERTEX} || '{1}'::text[]))::float8 as lat
       from boundary_analyses a join studio_boundaries b on b.id = a.boundary_id where ${HELD}`,
    [workspaceId, jobId],
  );
  return rows.map((r) => ({ id: r.id, lon: Number(r.lon), lat: Number(r.lat) }));
}

export async function heldAnalysis(em: Em, workspaceId: string, jobId: string, id: string): Promise<HeldAnalysis | null> {
  const [r] = await em.execute<(Omit<HeldAnalysis, 'geometry'> & { geometry: unknown })[]>(
    `select a.id, a.half, b.name, b.geometry, b.area_ha, b.country
       from boundary_analyses a join studio_boundaries b on b.id = a.boundary_id where a.id = ? and ${HELD}`,
    [id, workspaceId, jobId],
  );
  return r === undefined ? null : { ...r, area_ha: Number(r.area_ha), geometry: boundaryGeometry.parse(r.geometry) };
}

const changed = (result: unknown) => Number((result as { affectedRows?: number }).affectedRows ?? 0) > 0;
const WHILE_HELD = `id = ? and workspace_id = ? and job_id = ? and state in ('queued', 'running')`;

export async function markAnalysisRunning(em: Em, workspaceId: string, id: string, jobId: string): Promise<boolean> {
  return changed(await em.execute(`update boundary_analyses set state = 'running', updated_at = now() where ${WHILE_HELD}`, [id, workspaceId, jobId], 'run'));
}

/** Running → queued: an analysis taken by a job that goes back to the queue before reading it. */
export async function markAnalysisQueued(em: Em, workspaceId: string, id: string, jobId: string): Promise<void> {
  await em.execute(`update boundary_analyses set state = 'queued', updated_at = now() where ${WHILE_HELD} and state = 'running'`, [id, workspaceId, jobId], 'run');
}

export interface FinishedAnalysis {
  workspaceId: string;
  analysisId: string;
  jobId: string;
  evidence: EvidenceObject;
  integrity: Integrity;
  map: EvidenceMap;
}

/**
 * Publishes a finished read on the analysis the job still holds, and charges it: each published half is
 * one read of the allowance, as a plot's read is. A half is read again only after it failed, so its
 * analysis id names one charged read.
 */
export async function completeAnalysis(em: Em, read: FinishedAnalysis): Promise<WriteOutcome> {
  const chip = read.map.chip === null ? null : { bbox: read.map.chip.bbox, scene: read.map.chip.scene };
  const map: StoredMap = { footprint: read.map.footprint, chip };
  return em.transactional(async (tx) => {
    const result = await tx.execute(
      `update boundary_analyses set state = 'done', error = null, issued = ?::timestamptz, object = ?::jsonb, integrity = ?::jsonb, map = ?::jsonb, chip_png = ?, updated_at = now()
        where ${WHILE_HELD}`,
      [read.evidence.issued, JSON.stringify(read.evidence), JSON.stringify(read.integrity), JSON.stringify(map), read.map.chip?.png ?? null, read.analysisId, read.workspaceId, read.jobId],
      'run',
    );
    if (!changed(result)) return 'superseded';
    await chargeRead(tx, { workspaceId: read.workspaceId, plotId: read.analysisId, readId: read.analysisId, at: new Date(read.evidence.issued) });
    return 'stored';
  });
}

/** Records why the read of an analysis the job still holds failed. */
export async function failAnalysis(em: Em, failure: { workspaceId: string; analysisId: string; jobId: string; error: string }): Promise<WriteOutcome> {
  const result = await em.execute(
    `update boundary_analyses set state = 'failed', error = ?, updated_at = now() where ${WHILE_HELD}`,
    [failure.error, failure.analysisId, failure.workspaceId, failure.jobId],
    'run',
  );
  return changed(result) ? 'stored' : 'superseded';
}
