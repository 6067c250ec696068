import { PgBoss, fromPglite, type Job, type QueueOptions } from 'pg-boss';
import type { Logger } from '../log.ts';
import type { Store } from './orm.ts';

/**
 * The job queue: pg-boss on the service's own database (PostgreSQL or the embedded PGlite), so any number
 * of api and worker processes sharing one PostgreSQL share one queue.
 */
export const QUEUE_SCHEMA = 'pgboss';

export interface QueueDefinition {
  name: string;
  options: QueueOptions;
}

/**
 * A worker that dies stops heartbeating; the supervisor then fails the job and, within the retry limit,
 * puts it back for another worker (spec 3.1 "recovered"). Handlers are written to resume, not restart.
 */
export const QUEUES = {
  evidence: { name: 'evidence-read', options: { heartbeatSeconds: 30, retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 6 * 3600 } },
  webhook: { name: 'webhook-delivery', options: { heartbeatSeconds: 30, retryLimit: 0, expireInSeconds: 120 } },
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
  boss: PgBoss;
  send<T extends object>(queue: QueueDefinition, data: T): Promise<string>;
  work<T extends object>(queue: QueueDefinition, handler: (job: Job<T>) => Promise<void>): Promise<string>;
  /** Stop fetching; wait up to `timeoutMs` for jobs in hand to finish, then release them back to the queue. */
  stop(timeoutMs: number): Promise<void>;
}

export class QueueUnavailableError extends Error {
  readonly code = 'queue_unavailable';
}

export async function openQueue(store: Store, opts: QueueOpenOptions): Promise<Queue> {
  const common = {
    schema: QUEUE_SCHEMA,
    supervise: opts.supervise,
    monitorIntervalSeconds: opts.superviseIntervalSeconds ?? 30,
    superviseIntervalSeconds: opts.superviseIntervalSeconds ?? 30,
  };
  const boss = store.pglite
    ? // PGlite is one connection in this process: pg-boss gets it through its adapter, with the profile that
      // turns off what a single embedded connection cannot do (LISTEN across processes, SKIP LOCKED semantics).
      new PgBoss({ ...common, db: fromPglite(store.pglite), backend: 'pglite' })
    : new PgBoss({ ...common, connectionString: connectionStringOf(store), max: 4 });
  boss.on('error', (err) => opts.log.error({ err }, 'queue error'));
  await boss.start();
  for (const q of [...Object.values(QUEUES), ...(opts.extraQueues ?? [])]) {
    await boss.createQueue(q.name, q.options);
  }
  return {
    boss,
    async send(queue, data) {
      let id: string | null;
      try {
        id = await boss.send(queue.name, data);
      } catch (err) {
        throw new QueueUnavailableError(`the queue could not take the job: ${(err as Error).message}`);
      }
      if (!id) throw new QueueUnavailableError('the queue did not accept the job');
      return id;
    },
    work(queue, handler) {
      return boss.work<object>(queue.name, { batchSize: 1 }, async ([job]) => {
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
