/**
 * Every demo site read end to end: registered as a plot, queued through the run route, read by the
 * evidence worker from the generated archive, stored, signed and served, on both backends.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'pg-boss';
import sharp from 'sharp';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { type EvidenceJobData, runEvidence } from '../../src/reading-service/evidence-runs.ts';
import { createPool, type EnginePool } from '../../src/engine/worker/pool.ts';
import { DecodedTiles } from '../../src/engine/plan/raster-shipment.ts';
import { createLogger } from '../../src/log.ts';
import { openQueue, QUEUES } from '../../src/store/queue.ts';
import type { Em } from '../../src/store/orm.ts';
import { canonicalJson } from '../../src/engine/integrity.ts';
import { WITHDRAWN_FIELDS } from '../../src/engine/evidence-object.ts';
import { evidenceJobHandler, type EvidenceWorker, JobReleasedError, startEvidenceWorker } from '../../src/reading-service/job-runner.ts';
import { loadSigningKey, verifyDigest } from '../../src/engine/signing.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { BACKENDS, testStore } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { demoWorld } from '../support/demo-world.ts';
import { insertSitePlot, plotRow, seedWorkspace, waitUntilRead } from '../engine/evidence-helpers.ts';

/** Every path of an object's keys, array elements marked `[]` (`seasons[].trough_scene`). */
function paths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => paths(v, `${prefix}[]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = prefix === '' ? k : `${prefix}.${k}`;
    return [path, ...paths(v, path)];
  });
}

test('the path lister finds nested and array fields, so an absent withdrawn field is truly absent', () => {
  assert.deepEqual(paths({ radar: { threshold_db: -2 }, seasons: [{ trough_scene: 3 }] }), ['radar', 'radar.threshold_db', 'seasons', 'seasons[].trough_scene']);
});

const NAMES = DEMO_SITES.map((s) => s.name);

for (const backend of BACKENDS) {
  describe(`evidence jobs over the demo world (${backend})`, () => {
    let app: TestApp;
    let worker: EvidenceWorker;
    let workspaceId: string;
    let key: string;
    const plots = new Map<string, string>();

    before(async () => {
      const { root } = await demoWorld(NAMES);
      app = await startTestApp(backend, { POOL_SIZE: '2' });
      ({ workspaceId, key } = await seedWorkspace(app.services.store, 'professional'));
      const em = app.services.store.em();
      for (const name of NAMES) plots.set(name, await insertSitePlot(em, workspaceId, name));
      worker = await startEvidenceWorker({ ...app.services, queue: app.services.queue! }, { archive: await openDemoArchive({ dataDir: app.services.config.dataDir, root }) });
      const run = await app.call('POST', '/api/v1/portal/plots/evidence', { key, body: { all: true } });
      assert.equal(run.status, 202);
      assert.equal(run.body.queued, NAMES.length);
      await waitUntilRead(app.services.store.em(), workspaceId);
    });
    after(async () => {
      worker.stopTaking();
      await app.close();
      await worker.close();
    });

    test('each site reaches the verdict, reason and reasons its truth implies, and the register row says the same', async () => {
      const em = app.services.store.em();
      for (const spec of DEMO_SITES) {
        const id = plots.get(spec.name)!;
        const r = await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key });
        assert.equal(r.status, 200, spec.name);
        const e = r.body.evidence;
        assert.deepEqual([e.verdict, e.reason, e.reasons], [spec.truth.verdict, spec.truth.reason, spec.truth.reasons], `${spec.name}: ${e.finding}`);
        const row = await plotRow(em, id);
        assert.equal(row.evidence_state, 'done');
        assert.deepEqual([row.verdict, row.reason], [e.verdict, e.reason]);
        assert.equal(new Date(row.evidence_at!).toISOString(), e.issued);
        assert.equal(row.post_cutoff_loss_share, e.post_cutoff_loss?.share ?? null, spec.name);
        assert.equal(r.body.state, 'done');
        assert.equal(r.body.external_ref, spec.name);
      }
    });

    test('no object carries a withdrawn field or a kernel\'s working field, and each says it is synthetic', async () => {
      for (const id of plots.values()) {
        const e = (await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key })).body.evidence;
        const present = new Set(paths(e));
        for (const field of WITHDRAWN_FIELDS) assert.ok(!present.has(field), `${e.aoi_name} carries ${field}`);
        assert.equal(e.synthetic, true);
        assert.match(e.synthetic_note, /synthetic/);
        assert.ok(e.scenes.length <= e.read.scenes_kept && e.read.scenes_kept <= e.read.scenes_searched);
        assert.equal(e.read.start, '2016-01-01');
        assert.equal(e.cutoff, '2020-12-31');
      }
    });

    test('every signature verifies against the public key, and fails once one byte of the object changes', async () => {
      const key_ = (await app.call('GET', '/api/v1/evidence/public-key')).body;
      for (const id of plots.values()) {
        const { evidence, integrity } = (await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key })).body;
        const canonical = canonicalJson(evidence);
        const digest = createHash('sha256').update(canonical, 'utf8').digest('hex');
        assert.equal(integrity.digest, digest);
        assert.equal(integrity.key_id, key_.key_id);
        assert.ok(verifyDigest(key_.public_key_pem, digest, integrity.signature));
        const at = canonical.indexOf('"finding":"') + 12;
        const tampered = canonical.slice(0, at) + String.fromCharCode(canonical.charCodeAt(at) ^ 1) + canonical.slice(at + 1);
        const tamperedDigest = createHash('sha256').update(tampered, 'utf8').digest('hex');
        assert.notEqual(tamperedDigest, digest);
        assert.equal(verifyDigest(key_.public_key_pem, tamperedDigest, integrity.signature), false);
      }
    });

    test('each finished read is charged once and announced once, in the same transaction as its evidence', async () => {
      const em = app.services.store.em();
      const [{ units }] = await em.execute<{ units: string }[]>('select count(*) as units from evidence_units where workspace_id = ?', [workspaceId]);
      assert.equal(Number(units), NAMES.length);
      const events = await em.execute<{ type: string; data: { plot_id: string; result: string; finding: boolean; evidence_url: string } }[]>('select type, data from outbox where workspace_id = ?', [workspaceId]);
      assert.equal(events.length, NAMES.length);
      for (const e of events) {
        assert.equal(e.type, 'plot.evidence.completed');
        assert.equal(e.data.finding, e.data.result === 'prior_management_evidenced');
        assert.match(e.data.evidence_url, new RegExp(`/portal/plots/${e.data.plot_id}/evidence$`));
      }
      const summary = (await app.call('GET', '/api/v1/portal/plots/evidence/summary', { key })).body;
      assert.equal(summary.states.done, NAMES.length);
      assert.equal(summary.used, NAMES.length);
      assert.equal(summary.reasons.under_evidence_floor.cycle_and_structure_agree, 1);
    });

    test('a true-colour chip of one kept scene is stored beside the evidence for its map', async () => {
      const { getEvidenceDocument } = await import('../../src/reading-service/evidence-store.ts');
      const id = plots.get('th-surat-thani-rubber')!;
      const { map } = await getEvidenceDocument(app.services.store.em(), workspaceId, id);
      const e = (await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key })).body.evidence;
      assert.ok(map.chip !== null);
      assert.ok(e.scenes.includes(map.chip.scene));
      const meta = await sharp(map.chip.png).metadata();
      assert.equal(meta.format, 'png');
      assert.equal(meta.channels, 3);
      const [w, s, east, n] = map.chip.bbox;
      assert.ok(w < east && s < n);
      assert.equal(map.footprint.type, 'Polygon');
    });
  });
}

const THREE_SITES = ['th-surat-thani-rubber', 'id-kalbar-rubber', 'my-johor-oil-palm'];

/** Three site plots queued in one job, with what a handler needs to read them; everything closed after `use`. */
async function withQueuedJob(backend: (typeof BACKENDS)[number], use: (f: {
  ids: string[];
  workspaceId: string;
  pool: EnginePool;
  em: () => Em;
  deps: Omit<Parameters<typeof evidenceJobHandler>[0], 'pool'>;
  job: Job<EvidenceJobData>;
}) => Promise<void>) {
  const { root } = await demoWorld();
  const dataDir = mkdtempSync(join(tmpdir(), 'pce-release-'));
  const db = await testStore(backend);
  const log = createLogger('silent');
  const queue = await openQueue(db.store, { log, supervise: false });
  const archive = await openDemoArchive({ dataDir, root });
  const pool = createPool({ size: 2 });
  try {
    const { workspaceId } = await seedWorkspace(db.store);
    const ids: string[] = [];
    for (const name of THREE_SITES) ids.push(await insertSitePlot(db.store.em(), workspaceId, name));
    const answer = await runEvidence(db.store.em(), queue, { id: workspaceId, plan: 'trial' }, { all: true });
    const deps = { archive, tiles: new DecodedTiles(), signingKey: loadSigningKey(null, dataDir), store: db.store, baseUrl: 'http://localhost/api/v1', log };
    const job = { id: answer.job_id!, name: QUEUES.evidence.name, data: { workspaceId, plotIds: ids }, signal: new AbortController().signal, retryCount: 0, expireInSeconds: 3600, heartbeatSeconds: null } as Job<EvidenceJobData>;
    await use({ ids, workspaceId, pool, em: () => db.store.em(), deps, job });
  } finally {
    await pool.close();
    await archive.close();
    await queue.stop(1000);
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The pool as the handler sees it, `plot` tasks going through `plot` (the test's hook). */
function watchedPool(pool: EnginePool, plot: EnginePool['run']): EnginePool {
  return {
    size: pool.size,
    get queued() {
      return pool.queued;
    },
    run(task, params, opts) {
      return task === 'plot' ? plot(task, params, opts) : pool.run(task, params, opts);
    },
    close: () => pool.close(),
  };
}

for (const backend of BACKENDS) {
  describe(`a job in hand when its worker stops (${backend})`, () => {
    test('finishes the plot in hand, goes back to the queue, and the next attempt reads only the plots left', async () => {
      await withQueuedJob(backend, async ({ ids, workspaceId, pool, em, deps, job }) => {
        const stopping = new AbortController();
        // The shutdown arrives while the first plot is being computed.
        const watched = watchedPool(pool, (task, params, opts) => {
          stopping.abort();
          return pool.run(task, params, opts);
        });
        await assert.rejects(evidenceJobHandler({ ...deps, pool: watched }, stopping.signal)(job), (err: unknown) => err instanceof JobReleasedError && /2 plots of the job go back/.test(err.message));
        // The job reads neighbours together, not necessarily the first named first: one plot read, two left.
        assert.deepEqual((await Promise.all(ids.map(async (id) => (await plotRow(em(), id)).evidence_state))).sort(), ['done', 'queued', 'queued']);
        await evidenceJobHandler({ ...deps, pool }, new AbortController().signal)({ ...job, retryCount: 1 });
        assert.deepEqual(await Promise.all(ids.map(async (id) => (await plotRow(em(), id)).evidence_state)), ['done', 'done', 'done']);
        const [{ n }] = await em().execute<{ n: string }[]>('select count(*) as n from evidence where workspace_id = ?', [workspaceId]);
        assert.equal(Number(n), THREE_SITES.length);
        const [{ u }] = await em().execute<{ u: string }[]>('select count(*) as u from evidence_units where workspace_id = ?', [workspaceId]);
        assert.equal(Number(u), THREE_SITES.length);
      });
    });

    test("starts computing the next plot while a computed plot's chip is cut and its evidence sealed and stored", async () => {
      await withQueuedJob(backend, async ({ ids, pool, em, deps, job }) => {
        // The first chip waits for the second plot's computing to begin: its first task of the record or
        // its plot task (or 120 s: none would come before the first plot was stored; a pass never waits
        // that long, and a busy machine may take tens of seconds to plan and ship the second plot).
        const events: string[] = [];
        let firstPlot: string | null = null;
        let secondSent: () => void = () => {};
        const second = new Promise<void>((resolve) => {
          secondSent = resolve;
          setTimeout(resolve, 120_000).unref();
        });
        const run = (async (task, params, opts) => {
          if (task === 'scenes' || task === 'plot') {
            const plot = JSON.stringify((params as { footprint: unknown }).footprint);
            firstPlot ??= plot;
            if (plot !== firstPlot && !events.includes('second plot task sent')) {
              events.push('second plot task sent');
              secondSent();
            }
          }
          if (task === 'chip' && !events.includes('first chip')) {
            events.push('first chip');
            await second;
            events.push('first chip goes on');
          }
          return pool.run(task, params, opts);
        }) as EnginePool['run'];
        const watched: EnginePool = { size: pool.size, get queued() { return pool.queued; }, run, close: () => pool.close() };
        await evidenceJobHandler({ ...deps, pool: watched }, new AbortController().signal)(job);
        // Sent before the first chip went on, whether before or after that chip was asked for.
        assert.ok(events.includes('first chip'), events.join(', '));
        assert.ok(events.indexOf('second plot task sent') < events.indexOf('first chip goes on'), events.join(', '));
        assert.deepEqual(await Promise.all(ids.map(async (id) => (await plotRow(em(), id)).evidence_state)), ['done', 'done', 'done']);
      });
    });

    test('computes as many plots at once as it is told, and on shutdown finishes every plot in hand before going back', async () => {
      await withQueuedJob(backend, async ({ ids, pool, em, deps, job }) => {
        const stopping = new AbortController();
        // The first plot task waits for a second to be sent (or 120 s, if none comes, which a pass never waits); the shutdown arrives meanwhile.
        let computing = 0;
        let mostAtOnce = 0;
        let second: () => void = () => {};
        const bothSent = new Promise<void>((resolve) => {
          second = resolve;
          setTimeout(resolve, 120_000).unref();
        });
        const watched = watchedPool(pool, async (task, params, opts) => {
          stopping.abort();
          mostAtOnce = Math.max(mostAtOnce, ++computing);
          if (computing === 2) second();
          await bothSent;
          try {
            return await pool.run(task, params, opts);
          } finally {
            computing--;
          }
        });
        await assert.rejects(evidenceJobHandler({ ...deps, pool: watched, plotsAtOnce: 2 }, stopping.signal)(job), (err: unknown) => err instanceof JobReleasedError && /1 plots of the job go back/.test(err.message));
        assert.equal(mostAtOnce, 2);
        const states = await Promise.all(ids.map(async (id) => (await plotRow(em(), id)).evidence_state));
        assert.deepEqual(states.sort(), ['done', 'done', 'queued']);
      });
    });
  });
}
