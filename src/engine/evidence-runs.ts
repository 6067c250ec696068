/**
 * Running evidence (spec 4.2): the run call that queues a job over a book's plots, and the summary
 * that counts what the register holds and resolves plots left in flight by a job that died. The
 * run call marks its plots queued and sends the job in one transaction, so a queue that cannot
 * take the job leaves nothing written.
 */
import { randomUUID } from 'node:crypto';
import { fromKysely, type KyselyTransactionLike } from 'pg-boss';
import { admitReads, allowanceStatus } from '../accounts/allowance.ts';
import { notFound, ServiceError } from '../api/errors.ts';
import type { Plan } from '../store/entities/index.ts';
import { EVIDENCE_STATES, type EvidenceState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { type Queue, QUEUES, QueueUnavailableError } from '../store/queue.ts';
import type { Verdict } from './decide.ts';
import { failPlot } from './evidence-store.ts';

/** What an evidence job carries: its plots, in the order they are read. */
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

const READABLE = `validation_state in ('valid', 'repaired') and geometry is not null`;

/**
 * pg-boss's statements run inside a MikroORM transaction through its Kysely adapter: MikroORM's
 * transaction context is a Kysely transaction, and pg-boss's `$n` parameters go to it unbound.
 */
function inTransaction(tx: Em) {
  const trx = tx.getTransactionContext<never>() as KyselyTransactionLike | undefined;
  if (trx === undefined) throw new Error('inTransaction: no transaction is open');
  return fromKysely(trx);
}

async function pendingReads(em: Em, workspaceId: string, excluding: readonly string[]): Promise<number> {
  const [{ n }] = await em.execute<{ n: number | string }[]>(
    `select count(*) as n from plots where workspace_id = ? and evidence_state in ('queued', 'running') and not (id = any(?::uuid[]))`,
    [workspaceId, `{${excluding.join(',')}}`],
  );
  return Number(n);
}

/** The plots a request names that need (or may have) a read, in the order they will be read. */
async function plotsToRead(em: Em, workspaceId: string, request: RunRequest): Promise<string[]> {
  if ('all' in request) {
    const rows = await em.execute<{ id: string }[]>(
      `select id from plots where workspace_id = ? and ${READABLE} and evidence_state in ('none', 'failed') order by seq`,
      [workspaceId],
    );
    return rows.map((r) => r.id);
  }
  const ids = [...new Set(request.plotIds.map((id) => id.toLowerCase()))];
  const rows = await em.execute<{ id: string; readable: boolean; evidence_state: EvidenceState }[]>(
    `select id, (${READABLE}) as readable, evidence_state from plots where workspace_id = ? and id = any(?::uuid[])`,
    [workspaceId, `{${ids.join(',')}}`],
  );
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
  if (queue === null) throw new ServiceError(503, 'queue_unavailable', 'the job queue is not available; nothing was queued, repeat the same call shortly');
  // pg-boss looks the queue up through its own connection before using a transaction's; on the
  // embedded database that connection is the one the transaction holds, so the lookup goes first.
  try {
    await queue.boss.getJobById(QUEUES.evidence.name, randomUUID());
  } catch (err) {
    throw unavailable(err);
  }
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`plots:${workspace.id}`]);
    const ids = await plotsToRead(tx, workspace.id, request);
    const pending = await pendingReads(tx, workspace.id, ids);
    const admitted = await admitReads(tx, workspace, ids.length, pending);
    if (ids.length === 0) {
      return { job_id: null, queued: 0, cap: admitted.cap, used_after: admitted.used_after, note: NOTHING_TO_READ['all' in request ? 'all' : 'named'] };
    }
    let jobId: string | null;
    try {
      jobId = await queue.boss.send(QUEUES.evidence.name, { workspaceId: workspace.id, plotIds: ids } satisfies EvidenceJobData, { db: inTransaction(tx) });
    } catch (err) {
      throw unavailable(err);
    }
    if (!jobId) throw unavailable(new QueueUnavailableError('the queue did not accept the job'));
    await tx.execute(
      `update plots set evidence_state = 'queued', evidence_job_id = ?, evidence_error = null, updated_at = now() where id = any(?::uuid[])`,
      [jobId, `{${ids.join(',')}}`],
      'run',
    );
    return { job_id: jobId, queued: ids.length, cap: admitted.cap, used_after: admitted.used_after };
  });
}

function unavailable(err: unknown): ServiceError {
  return new ServiceError(503, 'queue_unavailable', `the job queue could not take the job (${(err as Error).message}); nothing was queued, repeat the same call shortly`);
}

export interface EvidenceSummary {
  states: Record<EvidenceState, number>;
  verdicts: Record<Verdict, number>;
  /** Finished plots by reason code: plots under the evidence floor apart from the rest. */
  reasons: { forest_reading: Record<string, number>; size_floor: Record<string, number> };
  cap: number | null;
  used: number;
  recovered: number;
  plan: Plan;
}

/** pg-boss states in which a job may still read its plots. */
const LIVE_JOB_STATES = new Set(['created', 'retry', 'active']);

export const INTERRUPTED =
  'The read was interrupted: the job holding the plot stopped before reading it. It cost nothing; run evidence for the plot again.';

/**
 * Plots queued or running under a job pg-boss no longer holds (it failed for good, was cancelled,
 * completed without them, or is gone) move to `failed`, with the failed event: the read did not
 * happen and cost nothing, and the next run with `all: true` retries them. Answers how many moved.
 */
export async function recoverStranded(em: Em, queue: Queue, workspaceId: string): Promise<number> {
  const held = await em.execute<{ job_id: string | null }[]>(
    `select distinct evidence_job_id as job_id from plots where workspace_id = ? and evidence_state in ('queued', 'running')`,
    [workspaceId],
  );
  const dead: string[] = [];
  let orphaned = false;
  for (const { job_id } of held) {
    if (job_id === null) {
      orphaned = true;
      continue;
    }
    const job = await queue.boss.getJobById(QUEUES.evidence.name, job_id);
    if (job === null || !LIVE_JOB_STATES.has(job.state)) dead.push(job_id);
  }
  if (dead.length === 0 && !orphaned) return 0;
  return em.transactional(async (tx) => {
    const plots = await tx.execute<{ id: string; external_ref: string | null; area_ha: number | null }[]>(
      `select id, external_ref, area_ha from plots where workspace_id = ? and evidence_state in ('queued', 'running')
        and (evidence_job_id is null or evidence_job_id = any(?::uuid[])) order by seq for update`,
      [workspaceId, `{${dead.join(',')}}`],
    );
    const at = new Date();
    for (const plot of plots) await failPlot(tx, plot, workspaceId, INTERRUPTED, at);
    return plots.length;
  });
}

export async function evidenceSummary(em: Em, queue: Queue | null, workspace: Workspace): Promise<EvidenceSummary> {
  const recovered = queue === null ? 0 : await recoverStranded(em, queue, workspace.id);
  const states = Object.fromEntries(EVIDENCE_STATES.map((s) => [s, 0])) as Record<EvidenceState, number>;
  for (const r of await em.execute<{ s: EvidenceState; n: number | string }[]>(
    'select evidence_state as s, count(*) as n from plots where workspace_id = ? group by evidence_state',
    [workspace.id],
  )) states[r.s] = Number(r.n);
  const verdicts: Record<Verdict, number> = { prior_management_evidenced: 0, prior_management_weak: 0, no_prior_management_evidenced: 0, insufficient_record: 0 };
  const reasons: EvidenceSummary['reasons'] = { forest_reading: {}, size_floor: {} };
  const finished = await em.execute<{ verdict: Verdict; reason: string; floor: boolean; n: number | string }[]>(
    `select p.verdict, p.reason, (e.object->'reasons') @> '["plot_below_evidence_floor"]'::jsonb as floor, count(*) as n
       from plots p join evidence e on e.plot_id = p.id and e.current
      where p.workspace_id = ? and p.evidence_state = 'done' group by 1, 2, 3`,
    [workspace.id],
  );
  for (const r of finished) {
    verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + Number(r.n);
    const bucket = r.floor ? reasons.size_floor : reasons.forest_reading;
    bucket[r.reason] = (bucket[r.reason] ?? 0) + Number(r.n);
  }
  const allowance = await allowanceStatus(em, workspace);
  return { states, verdicts, reasons, cap: allowance.cap, used: allowance.used, recovered, plan: workspace.plan };
}
