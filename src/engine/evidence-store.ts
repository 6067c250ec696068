/**
 * Where issued evidence lives and how a read's outcome is written: a finished read stores its
 * object, moves the register row to `done`, charges the allowance and writes the
 * `plot.evidence.completed` event in one transaction; a failed read records its reason and the
 * `plot.evidence.failed` event, and charges nothing. Either write happens only while the plot is
 * still held by the job that read it, so a read is stored (and paid for) at most once.
 */
import { randomUUID } from 'node:crypto';
import type { MultiPolygon, Polygon } from 'geojson';
import { chargeRead } from '../accounts/allowance.ts';
import { notFound, ServiceError } from '../api/errors.ts';
import type { EvidenceChip, EvidenceMap } from '../documents/footprint-map.ts';
import { Evidence, OutboxEvent, type EvidenceState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import type { EvidenceObject } from './evidence-object.ts';
import type { Integrity } from './integrity.ts';
import { nextStep } from './next-step.ts';
import { plotState, type EvidenceFacts } from './plot-state.ts';

/** The wrapper of spec 2.6 with its integrity block (issue 5 item 4). */
export interface EvidenceWrapper {
  plot_id: string;
  external_ref: string | null;
  state: EvidenceState;
  issued: string;
  evidence: EvidenceObject;
  integrity: Integrity;
}

/** What the row beside the object keeps for the document's map (the chip's PNG is stored apart). */
interface StoredMap {
  footprint: Polygon | MultiPolygon;
  chip: Omit<EvidenceChip, 'png'> | null;
}

interface PlotHold {
  id: string;
  external_ref: string | null;
  commodity: string | null;
  area_ha: number | null;
  evidence_state: EvidenceState;
  evidence_job_id: string | null;
  evidence_error: string | null;
}

const HOLD_COLUMNS = 'id, external_ref, commodity, area_ha, evidence_state, evidence_job_id, evidence_error';

async function plotOf(em: Em, workspaceId: string, plotId: string, lock = false): Promise<PlotHold | null> {
  const rows = await em.execute<PlotHold[]>(
    `select ${HOLD_COLUMNS} from plots where id = ? and workspace_id = ?${lock ? ' for update' : ''}`,
    [plotId, workspaceId],
  );
  return rows[0] ?? null;
}

function noEvidence(plot: PlotHold): ServiceError {
  const why: Record<EvidenceState, string> = {
    none: 'it has not been read, or its evidence was withdrawn when its boundary changed; run evidence for it',
    queued: 'its read is queued',
    running: 'its read is under way',
    failed: `its last read failed (${plot.evidence_error ?? 'no reason recorded'}); run evidence for it again`,
    done: 'no stored evidence was found for it',
  };
  return new ServiceError(409, 'no_evidence', `plot ${plot.id} has no evidence: its evidence state is ${plot.evidence_state}, ${why[plot.evidence_state]}`);
}

async function currentEvidence(em: Em, workspaceId: string, plotId: string): Promise<{ plot: PlotHold; row: Evidence }> {
  const plot = await plotOf(em, workspaceId, plotId);
  if (plot === null) throw notFound(`no plot ${plotId} in this workspace`);
  if (plot.evidence_state !== 'done') throw noEvidence(plot);
  const row = await em.findOne(Evidence, { plotId, workspaceId, current: true });
  if (row === null) throw noEvidence(plot);
  return { plot, row };
}

/** The plot's live evidence as served (spec 2.6); 404 outside the workspace, 409 `no_evidence` naming the state otherwise. */
export async function getEvidenceWrapper(em: Em, workspaceId: string, plotId: string): Promise<EvidenceWrapper> {
  const { plot, row } = await currentEvidence(em, workspaceId, plotId);
  const evidence = row.object as EvidenceObject;
  return {
    plot_id: plot.id,
    external_ref: plot.external_ref,
    state: plot.evidence_state,
    issued: evidence.issued,
    evidence,
    integrity: row.integrity as Integrity,
  };
}

/** The map stored beside the plot's live evidence (the footprint read and a true-colour chip), under the same refusals. */
export async function getEvidenceMap(em: Em, workspaceId: string, plotId: string): Promise<EvidenceMap> {
  const { row } = await currentEvidence(em, workspaceId, plotId);
  const map = row.map as StoredMap;
  const png = row.chipPng;
  return {
    footprint: map.footprint,
    chip: map.chip === null || png === null || png === undefined ? null : { ...map.chip, png: Buffer.from(png) },
  };
}

export interface FinishedRead {
  /** The read id: the evidence row's id and the allowance unit's read id. */
  readId: string;
  workspaceId: string;
  plotId: string;
  jobId: string;
  evidence: EvidenceObject;
  integrity: Integrity;
  map: EvidenceMap;
  /** The register's copy of the facts the plot's `state` needs. */
  facts: EvidenceFacts;
}

export interface EventLinks {
  /** The service's base URL, ending /api/v1. */
  baseUrl: string;
}

/** Outcome of a write: `superseded` when the plot is no longer held by this job (read again, or reset), so nothing was written. */
export type WriteOutcome = 'stored' | 'superseded';

const held = (plot: PlotHold | null, jobId: string): plot is PlotHold =>
  plot !== null && (plot.evidence_state === 'queued' || plot.evidence_state === 'running') && plot.evidence_job_id === jobId;

function addEvent(tx: Em, workspaceId: string, type: string, data: object, at: Date): void {
  tx.create(OutboxEvent, { id: `evt_${randomUUID()}`, workspaceId, type, data, createdAt: at, dispatchedAt: null });
}

/** Moves a queued plot of this job to `running`; false when the job no longer holds it. */
export async function markRunning(em: Em, workspaceId: string, plotId: string, jobId: string): Promise<boolean> {
  const changed = await em.execute(
    `update plots set evidence_state = 'running', updated_at = now()
      where id = ? and workspace_id = ? and evidence_job_id = ? and evidence_state in ('queued', 'running')`,
    [plotId, workspaceId, jobId],
    'run',
  );
  return Number((changed as { affectedRows?: number }).affectedRows ?? 0) > 0;
}

/**
 * Stores a finished read: the object (the plot's previous evidence stays, no longer current), the
 * register row, one allowance unit and the completed event, all or nothing.
 */
export async function storeEvidence(em: Em, read: FinishedRead, links: EventLinks): Promise<WriteOutcome> {
  return em.transactional(async (tx) => {
    const plot = await plotOf(tx, read.workspaceId, read.plotId, true);
    if (!held(plot, read.jobId)) return 'superseded';
    const e = read.evidence;
    const issued = new Date(e.issued);
    const loss = e.post_cutoff_loss as { share?: unknown } | null;
    const postCutoffShare = typeof loss?.share === 'number' ? loss.share : null;
    await tx.execute('update evidence set current = false where plot_id = ? and current', [read.plotId], 'run');
    await tx.execute(
      `update plots set evidence_state = 'done', verdict = ?, reason = ?, evidence_at = ?::timestamptz, evidence_facts = ?::jsonb,
        post_cutoff_loss_share = ?, evidence_error = null, updated_at = now() where id = ?`,
      [e.verdict, e.reason, e.issued, JSON.stringify(read.facts), postCutoffShare, read.plotId],
      'run',
    );
    const chip = read.map.chip === null ? null : { bbox: read.map.chip.bbox, scene: read.map.chip.scene };
    tx.create(Evidence, {
      id: read.readId,
      workspaceId: read.workspaceId,
      plotId: read.plotId,
      jobId: read.jobId,
      issued,
      object: e,
      integrity: read.integrity,
      current: true,
      map: { footprint: read.map.footprint, chip } satisfies StoredMap,
      chipPng: read.map.chip?.png ?? null,
    });
    await chargeRead(tx, { workspaceId: read.workspaceId, plotId: read.plotId, readId: read.readId, at: issued });
    const evidenceUrl = `${links.baseUrl}/portal/plots/${read.plotId}/evidence`;
    addEvent(tx, read.workspaceId, 'plot.evidence.completed', {
      plot_id: read.plotId,
      ref: plot.external_ref,
      commodity: plot.commodity,
      area_ha: plot.area_ha,
      state: plotState({ ...read.facts, evidence_state: 'done', area_ha: plot.area_ha, positive_finding: e.verdict === 'prior_management_evidenced' }),
      result: e.verdict,
      finding: e.verdict === 'prior_management_evidenced',
      reason: e.reason,
      reasons: e.reasons,
      next_step: e.next_step,
      issued_at: e.issued,
      evidence_url: evidenceUrl,
      document_url: `${evidenceUrl}.pdf`,
    }, issued);
    return 'stored';
  });
}

/** Records a failed read on the plot (state `failed`, the reason in words) with the failed event; nothing is charged. */
export async function recordFailure(
  em: Em,
  failure: { workspaceId: string; plotId: string; jobId: string; error: string; at: Date },
): Promise<WriteOutcome> {
  return em.transactional(async (tx) => {
    const plot = await plotOf(tx, failure.workspaceId, failure.plotId, true);
    if (!held(plot, failure.jobId)) return 'superseded';
    await failPlot(tx, plot, failure.workspaceId, failure.error, failure.at);
    return 'stored';
  });
}

/** The failed transition itself, for a plot already locked in `tx`. */
export async function failPlot(tx: Em, plot: { id: string; external_ref: string | null; area_ha: number | null }, workspaceId: string, error: string, at: Date): Promise<void> {
  await tx.execute(
    `update plots set evidence_state = 'failed', evidence_error = ?, updated_at = now() where id = ?`,
    [error, plot.id],
    'run',
  );
  addEvent(tx, workspaceId, 'plot.evidence.failed', {
    plot_id: plot.id,
    ref: plot.external_ref,
    error,
    next_step: nextStep({ evidence_state: 'failed', verdict: null, area_ha: plot.area_ha }),
    failed_at: at.toISOString(),
  }, at);
}
