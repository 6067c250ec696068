import type { Server } from 'node:http';
import { verifiedKeys } from './accounts/verified-keys.ts';
import path from 'node:path';
import { serveControlSocket } from './admin/control.ts';
import { clustersOn, startAlertMonitor } from './alerts/monitor-run.ts';
import { createApp, serveApi } from './api/app.ts';
import type { Services } from './api/context.ts';
import { openRequestPools } from './api/pools.ts';
import type { Config } from './config.ts';
import { ensureDemoArchive } from './demo/archive.ts';
import { openDemoAlerts, openDemoArchive } from './demo/open-archive.ts';
import { type Archive, openArchive } from './engine/archive.ts';
import { createHttpClient } from './engine/sources/http-client.ts';
import { type AlertsAdapter, createAlertsAdapter } from './engine/sources/products/gfw-alerts/reader.ts';
import { type EvidenceWorker, startEvidenceWorker } from './reading-service/job-runner.ts';
import { configuredMapTiles, openEngine } from './reading-service/map-tiles.ts';
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
export async function openConfiguredStore(config: Config): Promise<{ store: Store; release: () => Promise<void> }> {
  const release = config.databaseUrl ? async () => {} : await acquireLock(config.dataDir);
  try {
    const store = await openStore({ databaseUrl: config.databaseUrl, pgliteDir: embeddedDbDir(config.dataDir) });
    return { store, release };
  } catch (err) {
    await release();
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

/**
 * The published alerts an API process scans (spec 4.5): the GFW Data API, or the demo world's
 * copy of it. Nothing is read until a scan asks.
 */
export function openConfiguredAlerts(config: Config): AlertsAdapter {
  if (config.archive === 'demo') return openDemoAlerts(config.dataDir);
  return createAlertsAdapter({ where: { synthetic: false }, http: createHttpClient(), apiKey: config.gfwApiKey ?? undefined });
}

export async function startService(config: Config, log: Logger): Promise<RunningService> {
  const { store, release } = await openConfiguredStore(config);
  const applied = await store.migrate();
  if (applied.length) log.info({ applied }, 'migrations applied');
  const signingKey = loadSigningKey(config.signingKeyPem, config.dataDir);
  const runsWorkers = config.role !== 'api';
  const queue: Queue = await openQueue(store, { log, supervise: runsWorkers });
  // One engine pool and one archive a process: evidence jobs and map tiles share them.
  const engine = openEngine(config, runsWorkers);
  let archive: Promise<Archive> | null = null;
  const openedArchive = () => (archive ??= openConfiguredArchive(config, log));
  const mapTiles = configuredMapTiles(config, openedArchive, engine);
  const services: Services = { config, store, queue, log, signingKey, keys: verifiedKeys(config.keyCacheMs), pools: openRequestPools(config), archive: openedArchive, mapTiles, alerts: openConfiguredAlerts(config) };

  let server: Server | null = null;
  let url: string | null = null;
  if (config.role !== 'worker') {
    server = await serveApi(createApp(services), config.port, config.host);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    url = `http://${config.host}:${port}/api/v1`;
    log.info({ url, role: config.role, backend: store.backend, archive: config.archive }, 'listening');
  }
  const closeControl = store.pglite ? await serveControlSocket(config.dataDir, store, { key: signingKey, links: { baseUrl: config.baseUrl } }, log) : async () => {};
  // Only a role that runs workers reads the archive, so only it makes the demo world: beside the
  // listening API, with evidence jobs waiting in the queue until it is there. Shutdown waits for
  // it, so no half-made world is left behind.
  const evidenceWorker: Promise<EvidenceWorker | null> = runsWorkers
    ? openedArchive().then(async (opened) => {
        const worker = await startEvidenceWorker({ config, store, queue, log, signingKey }, { archive: opened, engine });
        await startAlertMonitor(queue, { store, source: opened.alerts, clusters: clustersOn(worker.pool), baseUrl: config.baseUrl, log: log.child({ concern: 'alert-monitor' }) });
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
        // The worker closes the archive it read; an API alone closes the one it opened for tiles.
        if (worker === null && archive !== null) await (await archive.catch(() => null))?.close();
        await engine.pool.close();
        await store.close();
        await release();
        log.info('stopped');
      })();
      return stopping;
    },
  };
}
