// The whole service (API and workers) on the demo archive over a fresh data directory, as a person
// starts it; the demo world is generated once into the system's temporary folder and linked in, so
// each start does not pay for it again.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { loadConfig } from '../../src/config.ts';
import { demoArchiveDir, demoPlotBookPath } from '../../src/demo/archive.ts';
import { createLogger } from '../../src/log.ts';
import type { Backend } from '../../src/store/orm.ts';
import { startService, type RunningService } from '../../src/service.ts';
import { scratchDatabase } from './db.ts';
import { sharedDemoData } from './processes.ts';

const run = promisify(execFile);

export interface DemoService {
  running: RunningService;
  /** The service's origin, where the portal is served. */
  origin: string;
  /** The demo plot book generated with the world. */
  plotBook: string;
  /** A workspace with its first member, signed in with `email` and `password`. */
  account: { workspaceId: string; email: string; password: string; portalKey: string };
  stop(): Promise<void>;
}

export async function startDemoService(backend: Backend, account = { name: 'Portal Co', email: 'portal@example.test', password: 'a long portal password' }): Promise<DemoService> {
  const world = await sharedDemoData();
  const dataDir = await mkdtemp(join(tmpdir(), 'pce-portal-'));
  // Hard links: the service only reads the archive, and 18,000 files copy in about a minute.
  await run('cp', ['-al', demoArchiveDir(world), demoArchiveDir(dataDir)]);
  await cp(dirname(demoPlotBookPath(world)), dirname(demoPlotBookPath(dataDir)), { recursive: true });
  const db = backend === 'postgresql' ? await scratchDatabase() : null;
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: db?.url ?? '', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', POOL_SIZE: '1', ROLE: 'serve' });
  const running = await startService(config, createLogger('silent'));
  const created = await runAdminCommand(running.services.store, ['workspace', 'create'], { name: account.name, plan: 'trial', email: account.email, password: account.password });
  return {
    running,
    origin: new URL(running.url!).origin,
    plotBook: demoPlotBookPath(dataDir),
    account: { workspaceId: String(created.workspace_id), email: account.email, password: account.password, portalKey: String(created.api_key) },
    async stop() {
      await running.stop();
      await db?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
