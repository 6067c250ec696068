import type { AddressInfo } from 'node:net';
import { verifiedKeys } from '../../src/accounts/verified-keys.ts';
import type { Server } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp, serveApi } from '../../src/api/app.ts';
import type { Services } from '../../src/api/context.ts';
import { openRequestPools } from '../../src/api/pools.ts';
import { loadConfig } from '../../src/config.ts';
import type { Archive } from '../../src/engine/archive.ts';
import { configuredMapTiles, openEngine } from '../../src/reading-service/map-tiles.ts';
import { loadSigningKey } from '../../src/engine/signing.ts';
import { openConfiguredArchive } from '../../src/service.ts';
import { createLogger } from '../../src/log.ts';
import type { Backend } from '../../src/store/orm.ts';
import { openQueue } from '../../src/store/queue.ts';
import { openConfiguredAlerts } from '../../src/service.ts';
import { assertDocumented } from './openapi.ts';
import { testStore, type TestStore } from './db.ts';

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

export interface CallOptions {
  key?: string;
  cookie?: string;
  workspace?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestApp {
  services: Services;
  db: TestStore;
  url: string;
  dataDir: string;
  /** Calls the API and checks the answer against the OpenAPI document. */
  call(method: string, path: string, opts?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * The API in this process on an ephemeral port, over a fresh database of the given backend. Map
 * tiles read `archive` when given, else the configured one (opened only if a tile is asked for).
 */
export async function startTestApp(backend: Backend, env: Record<string, string> = {}, opts: { archive?: () => Promise<Archive> } = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-test-'));
  const db = await testStore(backend);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', ...env });
  const log = createLogger((process.env.TEST_LOG as 'error') ?? 'silent');
  const queue = await openQueue(db.store, { log, supervise: false });
  const engine = openEngine(config, false);
  const archive = opts.archive ?? (() => openConfiguredArchive(config, log));
  const mapTiles = configuredMapTiles(config, archive, engine);
  const services: Services = { config, store: db.store, queue, log, signingKey: loadSigningKey(null, dataDir), keys: verifiedKeys(config.keyCacheMs), pools: openRequestPools(config), archive, mapTiles, alerts: openConfiguredAlerts(config) };
  const server: Server = await serveApi(createApp(services), 0, '127.0.0.1');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    services,
    db,
    url,
    dataDir,
    async call(method, p, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      if (opts.cookie) headers.cookie = opts.cookie;
      if (opts.workspace) headers['x-workspace-id'] = opts.workspace;
      let body: string | undefined;
      if (opts.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(opts.body);
      }
      const res = await fetch(url + p, { method, headers, body });
      const text = await res.text();
      const parsed = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
      assertDocumented(method, p, res.status, parsed);
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.stop(1000);
      await services.pools.close();
      await engine.pool.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` while the app's queue refuses every job at its send, as a queue whose connection dropped does. */
export async function whileQueueRefuses<T>(app: TestApp, work: () => Promise<T>): Promise<T> {
  const boss = app.services.queue!.boss;
  const send = boss.send.bind(boss);
  boss.send = (async () => {
    throw new Error('connection refused');
  }) as typeof boss.send;
  try {
    return await work();
  } finally {
    boss.send = send;
  }
}
