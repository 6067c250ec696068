import type { Server } from 'node:http';
import path from 'node:path';
import { serveControlSocket } from './admin/control.ts';
import { createApp, serveApi } from './api/app.ts';
import type { Services } from './api/context.ts';
import { openRequestPools } from './api/pools.ts';
import type { Config } from './config.ts';
import { ensureDemoArchive } from './demo/archive.ts';
import { openDemoArchive } from './demo/open-archive.ts';
import { type Archive, openArchive } from './engine/archive.ts';
import { type EvidenceWorker, startEvidenceWorker } from './engine/job-runner.ts';
import { loadSigningKey } from './engine/signing.ts';
import type { Logger } from './log.ts';
import { acquireLock } from './store/pglite-lock.ts';
import { openStore, type Store } from './store/orm.ts';
import { openQueue, type Queue } from './store/queue.ts';
import { type Dispatcher, startDispatcher } from './webhooks/dispatcher.ts';
import { configuredSender } from './webhooks/send.ts';

/** One process of the service in its role: `serve` (API and workers), `api` or `worker`. */
export interface RunningService {
  services: Services;
  url: string | null;
  stop(): Promise<void>;
}

export function embeddedDbDir(dataDir: string): string {
  return path.join(dataDir, 'db');
}

/** Opens the database for this process: PostgreSQL when configured, else the embedded PGlite under an exclusive lock. */
export async function openConfiguredStore(config: Config): Promise<{ store: Store; release: () => void }> {
  const release = config.databaseUrl ? () => {} : await acquireLock(config.dataDir);
  try {
    const store = await openStore({ databaseUrl: config.databaseUrl, pgliteDir: embeddedDbDir(config.dataDir) });
    return { store, release };
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * The archive this process reads: the real hosts, or the demo world, generated first when it is
 * missing (in a worker thread, so the event loop keeps serving meanwhile).
 */
export async function openConfiguredArchive(config: Config, log: Logger): Promise<Archive> {
  const gfwApiKey = config.gfwApiKey ?? undefined;
  const rangeCacheBytes = config.rangeCacheBytes;
  if (config.archive === 'public') return openArchive({ kind: 'public', dataDir: config.dataDir, gfwApiKey, rangeCacheBytes });
  const made = await ensureDemoArchive(config.dataDir);
  if (made.generated) log.info({ version: made.version }, 'demo archive generated');
  return openDemoArchive({ dataDir: config.dataDir, gfwApiKey, rangeCacheBytes });
}

export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const { store, release } = await openConfiguredStore(config);
  const applied = await store.migrate();
  if (applied.length) log.info({ applied }, 'migrations applied');
  const signingKey = loadSigningKey(config.signingKeyPem, config.dataDir);
  const runsWorkers = config.role !== 'api';
  const queue: Queue = await openQueue(store, { log, supervise: runsWorkers });
  const services: Services = { config, store, queue, log, signingKey, pools: openRequestPools(config) };

  let server: Server | null = null;
  let url: string | null = null;
  if (config.role !== 'worker') {
    server = await serveApi(createApp(services), config.port, config.host);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    url = `http://${config.host}:${port}/api/v1`;
    log.info({ url, role: config.role, backend: store.backend, archive: config.archive }, 'listening');
  }
  const closeControl = store.pglite ? await serveControlSocket(config.dataDir, store, log) : async () => {};
  // Only a role that runs workers reads the archive, so only it makes the demo world: beside the
  // listening API, with evidence jobs waiting in the queue until it is there. Shutdown waits for
  // it, so no half-made world is left behind.
  const evidenceWorker: Promise<EvidenceWorker | null> = runsWorkers
    ? openConfiguredArchive(config, log).then(async (archive) => {
        const worker = await startEvidenceWorker({ config, store, queue, log, signingKey }, { archive });
        log.info({ poolSize: config.poolSize, jobConcurrency: config.jobConcurrency }, 'worker ready');
        return worker;
      })
    : Promise.resolve(null);
  evidenceWorker.catch((err: Error) => log.error({ err }, 'the evidence worker could not start'));
  // Webhook deliveries need no archive: they start with the worker role at once.
  const dispatcher: Dispatcher | null = runsWorkers
    ? startDispatcher({ store, log, sender: configuredSender(config), concurrency: config.webhookConcurrency })
    : null;

  let stopping: Promise<void> | null = null;
  return {
    services,
    url,
    stop() {
      // Order matters: stop taking requests and jobs, let the job in hand finish or go back, then close the database.
      stopping ??= (async () => {
        log.info('shutting down');
        if (server) {
          const s = server;
          await new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeIdleConnections();
          });
        }
        await services.pools.close();
        await closeControl();
        const worker = await evidenceWorker.catch(() => null);
        worker?.stopTaking();
        await dispatcher?.stop();
        await queue.stop(config.shutdownTimeoutMs);
        await worker?.close();
        await store.close();
        release();
        log.info('stopped');
      })();
      return stopping;
    },
  };
}
