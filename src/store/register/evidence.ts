/**
 * Reads of the plots' evidence (spec 2.6, 3.1, 4.2): a plot's state and its live evidence, what a
 * run call may queue, and the counts the evidence summary reports.
 */
import type { Verdict } from '../../engine/decide.ts';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import type { ArchiveReview } from '../../engine/archive-reading.ts';
import type { Integrity } from '../../engine/integrity.ts';
import { Evidence, type EvidenceState } from '../entities/index.ts';
import type { Em } from '../orm.ts';
import { servedReading } from './archive-readings.ts';
import { evidenceObject, integrity, storedMap, type StoredMap } from './stored-json.ts';

/** A plot as the evidence transitions hold it. */
export interface PlotHold {
  id: string;
  external_ref: string | null;
  commodity: string | null;
  area_ha: number | null;
  evidence_state: EvidenceState;
  evidence_job_id: string | null;
  evidence_error: string | null;
}

export const HOLD_COLUMNS = 'id, external_ref, commodity, area_ha, evidence_state, evidence_job_id, evidence_error';

/** The plot's evidence columns; with `lock`, its row is locked until `em`'s transaction ends. */
export async function plotHold(em: Em, workspaceId: string, plotId: string, lock = false): Promise<PlotHold | null> {
  return (await plotHolds(em, workspaceId, [plotId], lock))[0] ?? null;
}

/** The evidence columns of those of `plotIds` in the workspace; with `lock`, their rows are locked (in id order, so two writers never wait on each other) until `em`'s transaction ends. */
export async function plotHolds(em: Em, workspaceId: string, plotIds: readonly string[], lock = false): Promise<PlotHold[]> {
  return em.execute<PlotHold[]>(
    `select ${HOLD_COLUMNS} from plots where id = any(?::uuid[]) and workspace_id = ? order by id${lock ? ' for update' : ''}`,
    [`{${plotIds.join(',')}}`, workspaceId],
  );
}

/**
 * A plot's live evidence as stored: the object, its integrity block, what its document's map needs
 * and the archive reading served with it.
 */
export interface StoredEvidence {
  /** The evidence row's id (the read id). */
  id: string;
  object: EvidenceObject;
  integrity: Integrity;
  map: StoredMap;
  chipPng: Buffer | null;
  review: ArchiveReview | null;
}

/**
 * The plot and, when its state is `done`, its live evidence (null if none is stored); null when the
 * workspace has no such plot.
 */
export async function liveEvidence(em: Em, workspaceId: string, plotId: string): Promise<{ plot: PlotHold; stored: StoredEvidence | null } | null> {
  const plot = await plotHold(em, workspaceId, plotId);
  if (plot === null) return null;
  if (plot.evidence_state !== 'done') return { plot, stored: null };
  const row = await em.findOne(Evidence, { plotId, workspaceId, current: true });
  if (row === null) return { plot, stored: null };
  return {
    plot,
    stored: {
      id: row.id,
      object: evidenceObject.parse(row.object),
      integrity: integrity.parse(row.integrity),
      map: storedMap.parse(row.map),
      chipPng: row.chipPng === null || row.chipPng === undefined ? null : Buffer.from(row.chipPng),
      review: await servedReading(em, workspaceId, plotId),
    },
  };
}

/** A plot that can be read: valid or repaired, with a geometry. */
export const READABLE = `validation_state in ('valid', 'repaired') and geometry is not null`;

/**
 * The register's copies of a plot's live evidence, written by `complete` (./transitions.ts). They
 * are cleared whenever the evidence stops being served (withdrawn by a moved boundary, or read
 * again), so a row never shows a finding both evidence routes refuse.
 */
export const EVIDENCE_COPIES = ['verdict', 'reason', 'evidence_at', 'evidence_facts', 'post_cutoff_loss_share'] as const;

/** The workspace's readable plots with no evidence and no read in flight (`none` or `failed`), in register order. */
export async function readablePlotsToRead(em: Em, workspaceId: string): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from plots where workspace_id = ? and ${READABLE} and evidence_state in ('none', 'failed') order by seq`,
    [workspaceId],
  );
  return rows.map((r) => r.id);
}

interface PlotReadability {
  id: string;
  readable: boolean;
  evidence_state: EvidenceState;
}

/** Of the named plots, those in the workspace, each with whether it can be read and its evidence state. */
export async function readStates(em: Em, workspaceId: string, ids: string[]): Promise<PlotReadability[]> {
  return em.execute<PlotReadability[]>(
    `select id, (${READABLE}) as readable, evidence_state from plots where workspace_id = ? and id = any(?::uuid[])`,
    [workspaceId, `{${ids.join(',')}}`],
  );
}

/** Reads queued or running in the workspace, leaving out the named plots. */
export async function readsInFlight(em: Em, workspaceId: string, excluding: readonly string[]): Promise<number> {
  const [{ n }] = await em.execute<{ n: number | string }[]>(
    `select count(*) as n from plots where workspace_id = ? and evidence_state in ('queued', 'running') and not (id = any(?::uuid[]))`,
    [workspaceId, `{${excluding.join(',')}}`],
  );
  return Number(n);
}

/** The jobs holding the workspace's plots in flight; null for a plot in flight under no job. */
export async function jobsHoldingPlots(em: Em, workspaceId: string): Promise<(string | null)[]> {
  const rows = await em.execute<{ job_id: string | null }[]>(
    `select distinct evidence_job_id as job_id from plots where workspace_id = ? and evidence_state in ('queued', 'running')`,
    [workspaceId],
  );
  return rows.map((r) => r.job_id);
}

/** Plots of the workspace by evidence state (states no plot is in are absent). */
export async function evidenceStateCounts(em: Em, workspaceId: string): Promise<{ state: EvidenceState; plots: number }[]> {
  const rows = await em.execute<{ s: EvidenceState; n: number | string }[]>(
    'select evidence_state as s, count(*) as n from plots where workspace_id = ? group by evidence_state',
    [workspaceId],
  );
  return rows.map((r) => ({ state: r.s, plots: Number(r.n) }));
}

/** Finished plots by verdict and reason, and whether their evidence names the evidence floor among its reasons. */
export async function finishedCounts(em: Em, workspaceId: string): Promise<{ verdict: Verdict; reason: string; floor: boolean; plots: number }[]> {
  const rows = await em.execute<{ verdict: Verdict; reason: string; floor: boolean; n: number | string }[]>(
    `select p.verdict, p.reason, (e.object->'reasons') @> '["plot_below_evidence_floor"]'::jsonb as floor, count(*) as n
       from plots p join evidence e on e.plot_id = p.id and e.current
      where p.workspace_id = ? and p.evidence_state = 'done' group by 1, 2, 3`,
    [workspaceId],
  );
  return rows.map((r) => ({ verdict: r.verdict, reason: r.reason, floor: r.floor, plots: Number(r.n) }));
}
