/**
 * The evidence state transitions of spec 3.1, by name: `queue` (none/failed, or with rerun
 * done/in flight → queued, the previous finding no longer shown), `markRunning` (queued → running, a job's group of plots
 * at a time), `markQueued` (running → queued, taken and not read), `complete` (→ done, evidence stored,
 * one unit of allowance used), `fail` (→ failed, nothing charged) and `recover` (plots left in
 * flight by a job that died → failed). The withdraw transition (done → none on a moved boundary)
 * runs inside the import's update statement (./imports.ts).
 *
 * `complete` and `fail` write only while the plot is still held by the job that read it, so a
 * read is stored (and paid for) at most once; each writes its event in the same transaction.
 */
import { chargeReads, type ReadCharge } from '../../accounts/allowance.ts';
import type { EvidenceMap } from '../../documents/footprint-map.ts';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import type { Integrity } from '../../engine/integrity.ts';
import type { EvidenceFacts } from '../../engine/plot-state.ts';
import type { Evidence } from '../entities/index.ts';
import type { Em } from '../orm.ts';
import { type OutboxEventInput, writeEvent, writeEvents } from '../outbox.ts';
import { EVIDENCE_COPIES, HOLD_COLUMNS, plotHolds, type PlotHold } from './evidence.ts';
import { batchesCompletedBy, type CompletedBatch } from './shipments.ts';
import type { StoredMap } from './stored-json.ts';

/** Outcome of a write: `superseded` when the plot is no longer held by this job (read again, or reset), so nothing was written. */
export type WriteOutcome = 'stored' | 'superseded';

/** The `data` of an event (spec 6.2), built by the caller from the plot as locked. */
export type EventData = (plot: PlotHold) => object;

const held = (plot: PlotHold | null, jobId: string): plot is PlotHold =>
  plot !== null && (plot.evidence_state === 'queued' || plot.evidence_state === 'running') && plot.evidence_job_id === jobId;

/** The `data` of `batch.completed` (spec 6.2), built by the caller from the batch's counts. */
export type BatchEventData = (batch: CompletedBatch) => object;

/** `batch.completed` for every batch of the plots that their finished reads leave with no plot waiting for one. */
async function completeBatches(tx: Em, workspaceId: string, plotIds: readonly string[], at: Date, batchEvent: BatchEventData): Promise<void> {
  for (const batch of await batchesCompletedBy(tx, workspaceId, plotIds)) writeEvent(tx, workspaceId, 'batch.completed', batchEvent(batch), at);
}

/**
 * Queues the plots under `jobId`, clearing a failed read's reason and, on a rerun, the register's
 * copy of the finding the new read replaces: neither evidence route serves it while the read is in
 * flight, so the row shows the read's state instead. The caller holds the register lock.
 */
export async function queue(tx: Em, jobId: string, plotIds: string[]): Promise<void> {
  await tx.execute(
    `update plots set evidence_state = 'queued', evidence_job_id = ?, evidence_error = null,
      ${EVIDENCE_COPIES.map((c) => `${c} = null`).join(', ')}, updated_at = now() where id = any(?::uuid[])`,
    [jobId, `{${plotIds.join(',')}}`],
    'run',
  );
}

/**
 * Queued → running for those of `plotIds` the job still holds, in one statement (a job takes its
 * plots a group at a time); answers the ids it moved or found running under the job.
 */
export async function markRunning(em: Em, workspaceId: string, plotIds: readonly string[], jobId: string): Promise<string[]> {
  if (plotIds.length === 0) return [];
  const rows = await em.execute<{ id: string }[]>(
    `update plots set evidence_state = 'running', updated_at = now()
      where id = any(?::uuid[]) and workspace_id = ? and evidence_job_id = ? and evidence_state in ('queued', 'running')
      returning id`,
    [`{${plotIds.join(',')}}`, workspaceId, jobId],
  );
  return rows.map((r) => r.id);
}

/** Running → queued for those of `plotIds` the job still holds: taken by a job that goes back to the queue before reading them. */
export async function markQueued(em: Em, workspaceId: string, plotIds: readonly string[], jobId: string): Promise<void> {
  if (plotIds.length === 0) return;
  await em.execute(
    `update plots set evidence_state = 'queued', updated_at = now()
      where id = any(?::uuid[]) and workspace_id = ? and evidence_job_id = ? and evidence_state = 'running'`,
    [`{${plotIds.join(',')}}`, workspaceId, jobId],
    'run',
  );
}

/** A plot's read by one job. */
export interface JobRead {
  workspaceId: string;
  plotId: string;
  jobId: string;
}

/**
 * Runs `write` in one transaction with the plots locked, over those of `reads` (one job's, in one
 * workspace) the job still holds; answers each read's outcome, in order.
 */
async function whileHeld<R extends JobRead>(em: Em, reads: readonly R[], write: (tx: Em, held: Array<{ read: R; plot: PlotHold }>) => Promise<void>): Promise<WriteOutcome[]> {
  if (reads.length === 0) return [];
  return em.transactional(async (tx) => {
    const plots = new Map((await plotHolds(tx, reads[0].workspaceId, reads.map((r) => r.plotId), true)).map((p) => [p.id, p]));
    const holding = reads.flatMap((read) => {
      const plot = plots.get(read.plotId) ?? null;
      return held(plot, read.jobId) ? [{ read, plot }] : [];
    });
    if (holding.length > 0) await write(tx, holding);
    return reads.map((read) => (holding.some((h) => h.read === read) ? 'stored' : 'superseded'));
  });
}

export interface FinishedRead extends JobRead {
  /** The read id: the evidence row's id and the allowance unit's read id. */
  readId: string;
  evidence: EvidenceObject;
  integrity: Integrity;
  map: EvidenceMap;
  /** The register's copy of the facts the plot's `state` needs. */
  facts: EvidenceFacts;
}

/**
 * Stores a finished read: the object (the plot's previous evidence stays, no longer current), the
 * register row moved to `done`, one allowance unit, the `plot.evidence.completed` event and
 * `batch.completed` for each batch it completes, all or nothing.
 */
export async function complete(em: Em, read: FinishedRead, completedEvent: EventData, batchEvent: BatchEventData): Promise<WriteOutcome> {
  return (await completeAll(em, [read], completedEvent, batchEvent))[0];
}

/**
 * `complete` for several finished reads of one job in one transaction, each stored only while the
 * job still holds its plot: a job's reads cost a few statements a group, not a few a plot.
 * Answers each read's outcome, in order.
 */
export async function completeAll(em: Em, reads: readonly FinishedRead[], completedEvent: EventData, batchEvent: BatchEventData): Promise<WriteOutcome[]> {
  return whileHeld(em, reads, async (tx, holding) => {
    const ids = `{${holding.map((h) => h.read.plotId).join(',')}}`;
    await tx.execute('update evidence set current = false where plot_id = any(?::uuid[]) and current', [ids], 'run');
    const rows = holding.map(({ read }) => {
      const loss = read.evidence.post_cutoff_loss as { share?: unknown } | null;
      return { id: read.plotId, verdict: read.evidence.verdict, reason: read.evidence.reason, issued: read.evidence.issued, facts: read.facts, share: typeof loss?.share === 'number' ? loss.share : null };
    });
    await tx.execute(
      `update plots p set evidence_state = 'done', verdict = x.verdict, reason = x.reason, evidence_at = x.issued, evidence_facts = x.facts,
        post_cutoff_loss_share = x.share, evidence_error = null, updated_at = now()
        from jsonb_to_recordset(?::jsonb) as x(id uuid, verdict text, reason text, issued timestamptz, facts jsonb, share double precision) where p.id = x.id`,
      [JSON.stringify(rows)],
      'run',
    );
    let last = new Date(0);
    const stored: Evidence[] = [];
    const charges: ReadCharge[] = [];
    const events: OutboxEventInput[] = [];
    for (const { read, plot } of holding) {
      const issued = new Date(read.evidence.issued);
      if (issued > last) last = issued;
      const chip = read.map.chip === null ? null : { bbox: read.map.chip.bbox, scene: read.map.chip.scene };
      stored.push({
        id: read.readId,
        workspaceId: read.workspaceId,
        plotId: read.plotId,
        jobId: read.jobId,
        issued,
        object: read.evidence,
        integrity: read.integrity,
        current: true,
        map: { footprint: read.map.footprint, chip } satisfies StoredMap,
        chipPng: read.map.chip?.png ?? null,
      });
      charges.push({ workspaceId: read.workspaceId, plotId: read.plotId, readId: read.readId, at: issued });
      events.push({ workspaceId: read.workspaceId, type: 'plot.evidence.completed', data: completedEvent(plot), at: issued });
    }
    await chargeReads(tx, charges);
    await writeEvents(tx, events);
    // Bound as parameters: the ORM writes a statement's parameters into its text as escaped literals, and a
    // group's evidence objects and chips come to hundreds of kilobytes, escaped on the worker's main thread.
    await tx.getKysely<{ evidence: Evidence }>({ columnNamingStrategy: 'property', convertValues: true }).insertInto('evidence').values(stored).execute();
    await completeBatches(tx, holding[0].read.workspaceId, holding.map((h) => h.read.plotId), last, batchEvent);
  });
}

export interface FailedRead extends JobRead {
  /** The reason in words a person can act on. */
  error: string;
  at: Date;
}

/**
 * Records a failed read on the plot (state `failed`, the reason in words) with the `plot.evidence.failed`
 * event and `batch.completed` for each batch it completes (a failed read is a finished one); nothing is charged.
 */
export async function fail(em: Em, failure: FailedRead, failedEvent: EventData, batchEvent: BatchEventData): Promise<WriteOutcome> {
  const [outcome] = await whileHeld(em, [failure], async (tx, [{ plot }]) => {
    await failLocked(tx, plot, failure.workspaceId, failure.error, failure.at, failedEvent);
    await completeBatches(tx, failure.workspaceId, [failure.plotId], failure.at, batchEvent);
  });
  return outcome;
}

async function failLocked(tx: Em, plot: PlotHold, workspaceId: string, error: string, at: Date, failedEvent: EventData): Promise<void> {
  await tx.execute(`update plots set evidence_state = 'failed', evidence_error = ?, updated_at = now() where id = ?`, [error, plot.id], 'run');
  writeEvent(tx, workspaceId, 'plot.evidence.failed', failedEvent(plot), at);
}

/**
 * Plots in flight under one of `deadJobs`, or under no job, move to `failed` with `error` and the
 * failed event each (and `batch.completed` for a batch the last of them completes), in register order: the read did not happen and cost nothing. Answers how many moved.
 */
export async function recover(em: Em, workspaceId: string, deadJobs: string[], error: string, at: Date, failedEvent: EventData, batchEvent: BatchEventData): Promise<number> {
  return em.transactional(async (tx) => {
    const plots = await tx.execute<PlotHold[]>(
      `select ${HOLD_COLUMNS} from plots where workspace_id = ? and evidence_state in ('queued', 'running')
        and (evidence_job_id is null or evidence_job_id = any(?::uuid[])) order by seq for update`,
      [workspaceId, `{${deadJobs.join(',')}}`],
    );
    for (const plot of plots) {
      await failLocked(tx, plot, workspaceId, error, at, failedEvent);
      await completeBatches(tx, workspaceId, [plot.id], at, batchEvent);
    }
    return plots.length;
  });
}
