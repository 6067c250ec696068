/**
 * Studio boundaries read by the evidence job runner (reading-service/job-runner.ts): each half of a
 * boundary's read is one analysis row a job holds, as a plot is for the register. The optical half
 * reads the Sentinel-2 record alone; the merged half reads Sentinel-2 and Landsat together. Each half
 * published charges one unit of the allowance (completeAnalysis), a failed half nothing; neither
 * writes a plot event: a boundary is not a register plot.
 */
import { randomUUID } from 'node:crypto';
import { DomainError, queueUnavailable } from '../errors.ts';
import type { AnalysisHalf } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { type Queue, QUEUES } from '../store/queue.ts';
import { type AnalysisRecord, claimHalf, completeAnalysis, failAnalysis, heldAnalysis, heldAnalysisPlaces, holdHalf, markAnalysisQueued, markAnalysisRunning } from '../store/register/studio.ts';
import type { WriteOutcome } from '../store/register/transitions.ts';
import { type EvidenceJobData, LIVE_JOB_STATES } from './evidence-runs.ts';
import type { HeldReads } from './job-runner.ts';
import type { OpticalSensor, PlotToRead } from '../engine/plan/read-plan.ts';

export const HALF_SENSORS: Record<AnalysisHalf, readonly OpticalSensor[]> = {
  optical: ['sentinel-2'],
  merged: ['sentinel-2', 'landsat'],
};

export const boundaryReads: HeldReads = {
  places: heldAnalysisPlaces,
  async take(em, workspaceId, jobId, ids) {
    const held = new Map<string, PlotToRead>();
    for (const id of ids) {
      if (!(await markAnalysisRunning(em, workspaceId, id, jobId))) continue;
      const a = await heldAnalysis(em, workspaceId, jobId, id);
      if (a === null) continue;
      held.set(id, {
        id: a.id, workspaceId, ref: a.name, geometry: a.geometry, areaHa: a.area_ha, declaredAreaHa: null,
        country: a.country, producerCountry: null, sensors: HALF_SENSORS[a.half],
      });
    }
    return held;
  },
  async putBack(em, workspaceId, jobId, ids) {
    for (const id of ids) await markAnalysisQueued(em, workspaceId, id, jobId);
  },
  // Each analysis in a transaction of its own, as completeAnalysis writes it.
  async store(em, finished) {
    const outcomes: WriteOutcome[] = [];
    for (const { read, reading } of finished) {
      outcomes.push(await completeAnalysis(em, {
        workspaceId: read.workspaceId, analysisId: read.id, jobId: read.jobId, evidence: reading.evidence, integrity: reading.integrity, map: reading.map,
      }));
    }
    return outcomes;
  },
  fail: (em, read, error) => failAnalysis(em, { workspaceId: read.workspaceId, analysisId: read.id, jobId: read.jobId, error }),
};

/** Ready to send a job in a transaction (see Queue.prepareSend): call before opening it. */
export async function prepareHalfQueue(queue: Queue | null): Promise<Queue> {
  if (queue === null) throw queueUnavailable('the job queue is not available; nothing was queued, repeat the same call shortly');
  try {
    await queue.prepareSend(QUEUES.studio);
  } catch (err) {
    throw unavailable(err);
  }
  return queue;
}

/**
 * Queues a half of a boundary's read in `tx` unless it was queued before (with `again`, unless it
 * was queued before and has not failed): answers whether this call queued it. The half's row is
 * claimed before the job is sent, so of concurrent calls one sends.
 */
export async function queueHalf(tx: Em, queue: Queue, workspaceId: string, boundaryId: string, half: AnalysisHalf, again = false): Promise<boolean> {
  const id = await claimHalf(tx, workspaceId, boundaryId, half, randomUUID(), again);
  if (id === null) return false;
  let jobId: string;
  try {
    jobId = await queue.sendInTransaction(tx, QUEUES.studio, { workspaceId, plotIds: [id] } satisfies EvidenceJobData);
  } catch (err) {
    throw unavailable(err);
  }
  await holdHalf(tx, id, jobId);
  return true;
}

export const INTERRUPTED = 'The read was interrupted: the job holding it stopped before it finished. Read the boundary again with POST /studio/boundaries/{id}/read.';

/**
 * Halves queued or running under a job the queue no longer holds (it failed past its retries, or is
 * gone) are marked failed, so no answer waits on a read that will not come. Answers how many moved.
 */
export async function failStranded(em: Em, queue: Queue | null, workspaceId: string, halves: readonly (AnalysisRecord | undefined)[]): Promise<number> {
  if (queue === null) return 0;
  let moved = 0;
  for (const a of halves) {
    if (a === undefined || (a.state !== 'queued' && a.state !== 'running') || a.job_id === null) continue;
    const state = await queue.jobState(QUEUES.studio, a.job_id);
    if (state !== null && LIVE_JOB_STATES.has(state)) continue;
    if ((await failAnalysis(em, { workspaceId, analysisId: a.id, jobId: a.job_id, error: INTERRUPTED })) === 'stored') moved++;
  }
  return moved;
}

function unavailable(err: unknown): DomainError {
  return queueUnavailable(`the job queue could not take the read (${(err as Error).message}); nothing was queued, repeat the same call shortly`);
}
