/**
 * The alert answer (spec 2.11, `GET /eudr/alerts/{plot_id}`): the alert as registered, its outcome
 * and statement, how many evidence jobs of the workspace are queued in front of it, and the
 * evidence object once the read is stored.
 */
import type { EvidenceObject } from '../engine/evidence-object.ts';
import { notFound } from '../errors.ts';
import type { EvidenceState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { type Queue, QUEUES } from '../store/queue.ts';
import { alertRecord } from '../store/register/alerts.ts';
import { jobsHoldingPlots, liveEvidence } from '../store/register/evidence.ts';
import { alertOutcome, type Adjudication } from './outcome.ts';

export interface AlertAnswer {
  plot_id: string;
  ref: string | null;
  state: EvidenceState;
  /** When the evidence was issued; null until it is stored. */
  issued: string | null;
  alert: { alert_date: string; footprint_area_ha: number; window_area_ha: number; window_constructed: boolean };
  adjudication: Adjudication;
  ahead: number;
  /** The evidence object of spec 2.7; null until the read is stored. */
  evidence: EvidenceObject | null;
}

/**
 * Evidence jobs of the workspace sent before `jobId` that still hold plots: they are read first.
 * A job the queue no longer knows is not counted (the summary resolves its plots).
 */
async function jobsAhead(em: Em, queue: Queue | null, workspaceId: string, jobId: string | null): Promise<number> {
  if (queue === null || jobId === null) return 0;
  const mine = await queue.jobCreatedAt(QUEUES.evidence, jobId);
  if (mine === null) return 0;
  let ahead = 0;
  for (const other of await jobsHoldingPlots(em, workspaceId)) {
    if (other === null || other === jobId) continue;
    const sent = await queue.jobCreatedAt(QUEUES.evidence, other);
    if (sent !== null && sent < mine) ahead++;
  }
  return ahead;
}

export async function getAlertAnswer(em: Em, queue: Queue | null, workspaceId: string, plotId: string): Promise<AlertAnswer> {
  const record = await alertRecord(em, workspaceId, plotId);
  if (record === null) throw notFound(`no alert ${plotId} in this workspace: the plot is not in the workspace or was not made from an alert`);
  const entry = record.alert;
  const inFlight = record.evidence_state === 'queued' || record.evidence_state === 'running';
  const evidence = record.evidence_state === 'done' ? (await liveEvidence(em, workspaceId, plotId))?.stored?.object ?? null : null;
  return {
    plot_id: record.id,
    ref: record.external_ref,
    state: record.evidence_state,
    issued: evidence?.issued ?? null,
    alert: {
      alert_date: entry.alert_date,
      footprint_area_ha: entry.footprint_area_ha,
      window_area_ha: entry.window_area_ha,
      window_constructed: entry.window_constructed,
    },
    adjudication: alertOutcome(record.evidence_state, record.verdict),
    ahead: inFlight ? await jobsAhead(em, queue, workspaceId, record.evidence_job_id) : 0,
    evidence,
  };
}
