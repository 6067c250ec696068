import fs from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import { QUEUES } from '../../store/queue.ts';
import { hasCredentials } from '../auth.ts';
import type { Services } from '../context.ts';
import type { TurnsState } from '../../intake/workspace-turns.ts';

/**
 * GET /health: each dependency checked, never cached; 503 when one the role needs is down or the
 * intake is stalled. An anonymous caller learns only the status; a caller with a valid key or session
 * also sees each dependency and the intake's turns.
 */
export function healthRoutes(services: Services) {
  const router = new Router();
  router.get('/health', async (ctx) => {
    const database = await check(async () => {
      await services.store.em().getConnection().execute('select 1');
      return { backend: services.store.backend };
    });
    const queue = services.queue
      ? await check(async () => {
          return { queues_ready: await services.queue!.hasQueue(QUEUES.evidence) };
        })
      : { ok: false, error: 'queue not started' };
    const archive = await check(async () => archiveState(services));
    const intake = intakeState(services.pools.intake.state());
    const ok = database.ok && queue.ok && archive.ok && intake.ok;
    const status = ok ? 'ok' : 'degraded';
    ctx.status = ok ? 200 : 503;
    ctx.body = (await hasCredentials(services, ctx)) ? { status, role: services.config.role, database, queue, archive, intake } : { status };
  });
  return router;
}

async function check<T extends object>(fn: () => Promise<T>): Promise<{ ok: boolean } & Partial<T> & { error?: string }> {
  try {
    return { ok: true, ...(await fn()) };
  } catch (err) {
    return { ok: false, error: (err as Error).message } as { ok: boolean; error: string } & Partial<T>;
  }
}

/** The upload threads' turns; stalled when an upload is judged past FILE_TIME_BUDGET_MS or has waited longer than that for a thread. */
function intakeState(turns: TurnsState) {
  const counts = {
    running: turns.running,
    waiting: turns.waiting,
    longest_running_ms: turns.longestRunningMs,
    longest_waiting_ms: turns.longestWaitingMs,
    stopped: turns.stopped,
  };
  return turns.stalled === null ? { ok: true, ...counts } : { ok: false, ...counts, error: turns.stalled };
}

async function archiveState(services: Services) {
  const { archive, dataDir } = services.config;
  if (archive === 'public') return { kind: archive, synthetic: false };
  const root = path.join(dataDir, 'archive');
  if (!fs.existsSync(root)) throw new Error('the demo archive has not been generated yet');
  return { kind: archive, synthetic: true };
}
