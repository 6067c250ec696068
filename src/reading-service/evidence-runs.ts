/**
 * Running evidence (spec 4.2): the run call that queues a job over a book's plots, and the summary
 * that counts what the register holds and resolves plots left in flight by a job that died. The
 * run call marks its plots queued and sends the job in one transaction, so a queue that cannot
 * take the job leaves nothing written.
 */
import { admitReads, allowanceStatus } from '../accounts/allowance.ts';
import { DomainError, notFound, queueUnavailable } from '../errors.ts';
import type { Plan } from '../store/entities/index.ts';
import { EVIDENCE_STATES, type EvidenceState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { type Queue, QUEUES } from '../store/queue.ts';
import { evidenceStateCounts, finishedCounts, jobsHoldingPlots, readablePlotsToRead, readStates, readsInFlight } from '../store/register/evidence.ts';
import { lockRegister } from '../store/register/lock.ts';
import { queue as queuePlots, recover } from '../store/register/transitions.ts';
import type { Verdict } from '../engine/decide.ts';
import { batchCompletedEvent, failedEvent, type EventLinks } from './evidence-store.ts';
import { REASON_BUCKETS, reasonBucket, type ReasonBucket } from '../engine/reason-buckets.ts';

/** What an evidence job carries: its plots, in the order they are read (on the studio queue, a boundary's analyses). */
export interface EvidenceJobData {
  workspaceId: string;
  plotIds: string[];
}

export type RunRequest = { all: true } | { plotIds: string[]; rerun: boolean };

export interface RunAnswer {
  job_id: string | null;
  queued: number;
  cap: number | null;
  used_after: number;
  note?: string;
}

interface Workspace {
  id: string;
  plan: Plan;
}

/** The plots a request names that need (or may have) a read, in the order they will be read. */
async function plotsToRead(em: Em, workspaceId: string, request: RunRequest): Promise<string[]> {
  if ('all' in request) return readablePlotsToRead(em, workspaceId);
  const ids = [...new Set(request.plotIds.map((id) => id.toLowerCase()))];
  const rows = await readStates(em, workspaceId, ids);
  const found = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`no plot ${missing} in this workspace`);
  return ids.filter((id) => {
    const r = found.get(id)!;
    if (!r.readable) return false;
    return r.evidence_state === 'none' || r.evidence_state === 'failed' || request.rerun;
  });
}

const NOTHING_TO_READ: Record<'all' | 'named', string> = {
  all: 'Every readable plot already has evidence or a read in flight; nothing was queued. Plots that were rejected or have no geometry are never read.',
  named: 'None of the named plots needs a read: each has evidence or a read in flight (pass rerun: true to read it again), or was rejected or has no geometry.',
};

/**
 * Queues one job over the plots a request names (spec 3.1 `none`/`failed` → `queued`, and with
 * `rerun` `done`/in flight → `queued`). The allowance counts reads queued or running as if
 * finished, and is checked under the workspace's lock so concurrent calls cannot pass the cap.
 */
export async function runEvidence(em: Em, queue: Queue | null, workspace: Workspace, request: RunRequest): Promise<RunAnswer> {
  const ready = await readyQueue(queue);
  return em.transactional(async (tx) => {
    await lockRegister(tx, workspace.id);
    const ids = await plotsToRead(tx, workspace.id, request);
    const pending = await readsInFlight(tx, workspace.id, ids);
    const admitted = await admitReads(tx, workspace, ids.length, pending);
    if (ids.length === 0) {
      return { job_id: null, queued: 0, cap: admitted.cap, used_after: admitted.used_after, note: NOTHING_TO_READ['all' in request ? 'all' : 'named'] };
    }
    const jobId = await queueReadJob(tx, ready, workspace.id, ids);
    return { job_id: jobId, queued: ids.length, cap: admitted.cap, used_after: admitted.used_after };
  });
}

/**
 * The queue, ready to take a job in a transaction (`queue_unavailable` when it is down): called
 * before the transaction opens, as Queue.prepareSend says.
 */
export async function readyQueue(queue: Queue | null): Promise<Queue> {
  if (queue === null) throw queueUnavailable('the job queue is not available; nothing was queued, repeat the same call shortly');
  try {
    await queue.prepareSend(QUEUES.evidence);
  } catch (err) {
    throw unavailable(err);
  }
  return queue;
}

/**
 * Sends one evidence job over the plots inside `tx` and moves them to `queued`; a queue that cannot
 * take the job throws `queue_unavailable`, so the caller's transaction writes nothing.
 */
export async function queueReadJob(tx: Em, queue: Queue, workspaceId: string, plotIds: string[]): Promise<string> {
  let jobId: string;
  try {
    jobId = await queue.sendInTransaction(tx, QUEUES.evidence, { workspaceId, plotIds } satisfies EvidenceJobData);
  } catch (err) {
    throw unavailable(err);
  }
  await queuePlots(tx, jobId, plotIds);
  return jobId;
}

function unavailable(err: unknown): DomainError {
  return queueUnavailable(`the job queue could not take the job (${(err as Error).message}); nothing was queued, repeat the same call shortly`);
}

export interface EvidenceSummary {
  states: Record<EvidenceState, number>;
  verdicts: Record<Verdict, number>;
  /** Finished plots by `reason`, in the bucket of what decided their answer. */
  reasons: Record<ReasonBucket, Record<string, number>>;
  cap: number | null;
  used: number;
  recovered: number;
  plan: Plan;
}

/** pg-boss states in which a job may still read its plots. */
export const LIVE_JOB_STATES = new Set(['created', 'retry', 'active']);

export const INTERRUPTED =
  'The read was interrupted: the job holding the plot stopped before reading it. It cost nothing; run evidence for the plot again.';

/**
 * Plots queued or running under a job pg-boss no longer holds (it failed for good, was cancelled,
 * completed without them, or is gone) move to `failed`, with the failed event: the read did not
 * happen and cost nothing, and the next run with `all: true` retries them. Answers how many moved.
 */
export async function recoverStranded(em: Em, queue: Queue, workspaceId: string, links: EventLinks): Promise<number> {
  const dead: string[] = [];
  let orphaned = false;
  for (const jobId of await jobsHoldingPlots(em, workspaceId)) {
    if (jobId === null) {
      orphaned = true;
      continue;
    }
    const state = await queue.jobState(QUEUES.evidence, jobId);
    if (state === null || !LIVE_JOB_STATES.has(state)) dead.push(jobId);
  }
  if (dead.length === 0 && !orphaned) return 0;
  const at = new Date();
  return recover(em, workspaceId, dead, INTERRUPTED, at, (plot) => failedEvent(plot, INTERRUPTED, at), (batch) => batchCompletedEvent(batch, links));
}

export async function evidenceSummary(em: Em, queue: Queue | null, workspace: Workspace, links: EventLinks): Promise<EvidenceSummary> {
  const recovered = queue === null ? 0 : await recoverStranded(em, queue, workspace.id, links);
  const states = Object.fromEntries(EVIDENCE_STATES.map((s) => [s, 0])) as Record<EvidenceState, number>;
  for (const r of await evidenceStateCounts(em, workspace.id)) states[r.state] = r.plots;
  const verdicts: Record<Verdict, number> = { prior_management_evidenced: 0, prior_management_weak: 0, no_prior_management_evidenced: 0, insufficient_record: 0 };
  const reasons = Object.fromEntries(REASON_BUCKETS.map((b) => [b, {}])) as EvidenceSummary['reasons'];
  for (const r of await finishedCounts(em, workspace.id)) {
    verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + r.plots;
    const bucket = reasons[reasonBucket(r.verdict, r.reason, r.floor)];
    bucket[r.reason] = (bucket[r.reason] ?? 0) + r.plots;
  }
  const allowance = await allowanceStatus(em, workspace);
  return { states, verdicts, reasons, cap: allowance.cap, used: allowance.used, recovered, plan: workspace.plan };
}
