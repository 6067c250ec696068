import { randomUUID } from 'node:crypto';
import { PgBoss, fromKysely, fromPglite, type Job, type KyselyTransactionLike, type Queue as BossQueue } from 'pg-boss';
import { queueUnavailable } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Em, Store } from './orm.ts';

/**
 * The job queue: pg-boss on the service's own database (PostgreSQL or the embedded PGlite), so any number
 * of api and worker processes sharing one PostgreSQL share one queue.
 */
export const QUEUE_SCHEMA = 'pgboss';

export interface QueueDefinition {
  name: string;
  options: Omit<BossQueue, 'name'>;
}

/**
 * A worker that dies stops heartbeating; the supervisor then fails the job and, within the retry limit,
 * puts it back for another worker (spec 3.1 "recovered"). Handlers are written to resume, not restart.
 */
export const QUEUES = {
  // `notify`: a read wakes a worker when it is queued, where polling alone started it up to 2 s later
  // (a book job of 200 plots takes some 12 s); polling stays as the floor.
  evidence: { name: 'evidence-read', options: { heartbeatSeconds: 30, retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 6 * 3600, notify: true } },
  /** Reads of studio boundaries (reading-service/boundary-reads.ts), by the same runner as evidence jobs. */
  studio: { name: 'studio-read', options: { heartbeatSeconds: 30, retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 6 * 3600, notify: true } },
  webhook: { name: 'webhook-delivery', options: { heartbeatSeconds: 30, retryLimit: 0, expireInSeconds: 120 } },
  // A scheduled run scans every active monitor; one that dies is not retried: the next tick's run finds what it missed.
  monitor: { name: 'alert-monitor', options: { heartbeatSeconds: 30, retryLimit: 0, expireInSeconds: 3600 } },
} as const satisfies Record<string, QueueDefinition>;

export interface QueueOpenOptions {
  log: Logger;
  /** Run pg-boss maintenance and the heartbeat monitor in this process (workers do; a pure api process need not). */
  supervise: boolean;
  /** Seconds between supervision passes (heartbeat checks, expiry); short in tests so recovery is observable quickly. */
  superviseIntervalSeconds?: number;
  extraQueues?: QueueDefinition[];
}

export interface Queue {
  /** pg-boss itself, for tests that inspect or fault the queue; the service uses the methods below. */
  boss: PgBoss;
  send<T extends object>(queue: QueueDefinition, data: T): Promise<string>;
  /**
   * Looks the queue up as a send does first. pg-boss makes that lookup through its own connection,
   * which on the embedded database is the one an open transaction holds: call this before opening
   * the transaction a send will join.
   */
  prepareSend(queue: QueueDefinition): Promise<void>;
  /** Sends a job inside the caller's database transaction: the job exists only if `tx` commits. */
  sendInTransaction<T extends object>(tx: Em, queue: QueueDefinition, data: T): Promise<string>;
  /** The job's pg-boss state (`created`, `retry`, `active`, `completed`, ...); null when pg-boss no longer has it. */
  jobState(queue: QueueDefinition, id: string): Promise<string | null>;
  /** When the job was sent; null when pg-boss no longer has it. */
  jobCreatedAt(queue: QueueDefinition, id: string): Promise<Date | null>;
  /** Sends a job to the queue on a cron schedule (pg-boss's own scheduler, shared by every process on the database). */
  schedule(queue: QueueDefinition, cron: string): Promise<void>;
  /** Whether the queue has been created on the database. */
  hasQueue(queue: QueueDefinition): Promise<boolean>;
  work<T extends object>(queue: QueueDefinition, handler: (job: Job<T>) => Promise<void>): Promise<string>;
  /** Stop fetching; wait up to `timeoutMs` for jobs in hand to finish, then release them back to the queue. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * pg-boss's statements run inside a MikroORM transaction through its Kysely adapter: MikroORM's
 * transaction context is a Kysely transaction, and pg-boss's `$n` parameters go to it unbound.
 */
function inTransaction(tx: Em) {
  const trx = tx.getTransactionContext<never>() as KyselyTransactionLike | undefined;
  if (trx === undefined) throw new Error('inTransaction: no transaction is open');
  return fromKysely(trx);
}

export async function openQueue(store: Store, opts: QueueOpenOptions): Promise<Queue> {
  const common = {
    schema: QUEUE_SCHEMA,
    supervise: opts.supervise,
    monitorIntervalSeconds: opts.superviseIntervalSeconds ?? 30,
    superviseIntervalSeconds: opts.superviseIntervalSeconds ?? 30,
    // Wakes the workers of `notify` queues when a job is queued (on PostgreSQL one more connection listens).
    useListenNotify: true,
  };
  // pg-boss refuses a backstop poll shorter than its ordinary poll (2 s by default).
  const backstopPollSeconds = Math.max(2, opts.superviseIntervalSeconds ?? 30);
  const boss = store.pglite
    ? // PGlite is one connection in this process: pg-boss gets it through its adapter, with the profile that
      // turns off what a single embedded connection cannot do (LISTEN across processes, SKIP LOCKED semantics).
      new PgBoss({ ...common, db: fromPglite(store.pglite), backend: 'pglite' })
    : new PgBoss({ ...common, connectionString: connectionStringOf(store), max: 4 });
  boss.on('error', (err) => opts.log.error({ err }, 'queue error'));
  await boss.start();
  for (const q of [...Object.values(QUEUES), ...(opts.extraQueues ?? [])]) {
    await boss.createQueue(q.name, q.options);
    // A queue made before an option was added keeps its row: the option is set on it too.
    if ('notify' in q.options) await boss.updateQueue(q.name, { notify: q.options.notify });
  }
  return {
    boss,
    async send(queue, data) {
      let id: string | null;
      try {
        id = await boss.send(queue.name, data);
      } catch (err) {
        throw queueUnavailable(`the queue could not take the job: ${(err as Error).message}`);
      }
      if (!id) throw queueUnavailable('the queue did not accept the job');
      return id;
    },
    async prepareSend(queue) {
      await boss.getJobById(queue.name, randomUUID());
    },
    async sendInTransaction(tx, queue, data) {
      const id = await boss.send(queue.name, data, { db: inTransaction(tx) });
      if (!id) throw queueUnavailable('the queue did not accept the job');
      return id;
    },
    async jobState(queue, id) {
      return (await boss.getJobById(queue.name, id))?.state ?? null;
    },
    async jobCreatedAt(queue, id) {
      const job = await boss.getJobById(queue.name, id);
      return job ? new Date(job.createdOn) : null;
    },
    async schedule(queue, cron) {
      await boss.schedule(queue.name, cron);
    },
    async hasQueue(queue) {
      return (await boss.getQueue(queue.name)) !== null;
    },
    work(queue, handler) {
      // A job put back for retry after its worker's heartbeat lapsed is announced by no NOTIFY: a worker
      // finds it at this backstop poll, which follows the supervision pass rather than pg-boss's fixed 30 s.
      return boss.work<object>(queue.name, { batchSize: 1, notifyPollingIntervalSeconds: backstopPollSeconds }, async ([job]) => {
        await handler(job as Job<never>);
      });
    },
    async stop(timeoutMs) {
      await boss.stop({ graceful: true, timeout: Math.max(timeoutMs, 1000), close: true });
    },
  };
}

function connectionStringOf(store: Store): string {
  const url = store.orm.config.get('clientUrl');
  if (!url) throw new Error('PostgreSQL store without a connection string');
  return url;
}
