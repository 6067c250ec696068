/**
 * The fault suite (issue 19, item 2): an evidence job reads a demo world through the local archive
 * server while it misbehaves (500s, hung requests, cut bodies, Range ignored, the mirror down), and
 * each plot ends in the spec's state: read and charged once, or failed with a plain reason and no
 * charge; one event either way. The queue down at enqueue answers 503 `queue_unavailable` and
 * writes nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Job } from 'pg-boss';
import { DEMO_GFW_API_KEY } from '../../src/demo/api-transport.ts';
import { DemoArchiveError, ensureDemoArchive } from '../../src/demo/archive.ts';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { openArchive } from '../../src/engine/archive.ts';
import { type EvidenceJobData, runEvidence } from '../../src/reading-service/evidence-runs.ts';
import { evidenceJobHandler } from '../../src/reading-service/job-runner.ts';
import { DecodedTiles } from '../../src/engine/plan/raster-shipment.ts';
import { loadSigningKey } from '../../src/engine/signing.ts';
import { createHttpClient } from '../../src/engine/sources/http-client.ts';
import { createPool, type EnginePool } from '../../src/engine/worker/pool.ts';
import { createLogger } from '../../src/log.ts';
import { openQueue, type Queue, QUEUE_SCHEMA, QUEUES } from '../../src/store/queue.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { type FaultPlan, serveDemoArchive } from '../support/archive-server.ts';
import { ADMIN_URL, BACKENDS, testStore, type TestStore } from '../support/db.ts';
import { demoWorld } from '../support/demo-world.ts';
import { insertSitePlot, plotRow, seedWorkspace } from '../engine/evidence-helpers.ts';

const SITE = 'th-surat-thani-rubber';
const THREE_SITES = ['th-surat-thani-rubber', 'id-kalbar-rubber', 'my-johor-oil-palm'];
const log = createLogger('silent');

/** Each fault, and what a plot read through it must end as ('done' only where the client can work around it). */
const FAULTS: { name: string; plan: FaultPlan; ends: 'failed' | 'done' }[] = [
  { name: 'every request answered 500', plan: { status: { status: 500 } }, ends: 'failed' },
  { name: 'every request hung (a TLS-like stall)', plan: { hang: {} }, ends: 'failed' },
  { name: 'every tile body cut short', plan: { truncate: { match: /\.tif$/ } }, ends: 'failed' },
  { name: 'the mirror down', plan: { down: ['/'] }, ends: 'failed' },
  { name: 'Range ignored on every tile', plan: { ignoreRange: { match: /\.tif$/ } }, ends: 'done' },
  { name: 'two 500s, then answers (retried)', plan: { status: { status: 500, count: 2 } }, ends: 'done' },
];

async function counts(db: TestStore, workspaceId: string) {
  const em = db.store.em();
  const [{ n: units }] = await em.execute<{ n: string }[]>('select count(*) as n from evidence_units where workspace_id = ?', [workspaceId]);
  const [{ n: evidence }] = await em.execute<{ n: string }[]>('select count(*) as n from evidence where workspace_id = ?', [workspaceId]);
  const events = await em.execute<{ type: string; data: { plot_id?: string; error?: string } }[]>('select type, data from outbox where workspace_id = ? order by created_at', [workspaceId]);
  return { units: Number(units), evidence: Number(evidence), events };
}

for (const backend of BACKENDS) {
  describe(`an evidence job against a misbehaving archive (${backend})`, () => {
    let db: TestStore;
    let queue: Queue;
    let pool: EnginePool;
    let root: string;
    let dataDir: string;

    before(async () => {
      ({ root } = await demoWorld());
      dataDir = mkdtempSync(join(tmpdir(), 'pce-faults-'));
      db = await testStore(backend);
      queue = await openQueue(db.store, { log, supervise: false });
      pool = createPool({ size: 1 });
    });
    after(async () => {
      await pool.close();
      await queue.stop(1000);
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    for (const fault of FAULTS) {
      test(`${fault.name}: the plot ends ${fault.ends}, charged and announced at most once`, async () => {
        const server = await serveDemoArchive(root, { faults: fault.plan });
        // Short limits where the read must fail, so a hang is a time-out within the suite's bounds; where the
        // client must work around the fault, limits no busy machine reaches, so what is tested is the
        // workaround, not the machine's speed. The retries are the client's own.
        const http = createHttpClient({ timeoutMs: fault.ends === 'done' ? 30_000 : 1_000, retries: 2, retryBaseMs: 10, retryCapMs: 50 });
        const archive = await openArchive({ kind: 'demo', dataDir, root: server.url, http, gfwApiKey: DEMO_GFW_API_KEY });
        try {
          const { workspaceId } = await seedWorkspace(db.store);
          const plotId = await insertSitePlot(db.store.em(), workspaceId, SITE);
          const queued = await runEvidence(db.store.em(), queue, { id: workspaceId, plan: 'trial' }, { plotIds: [plotId], rerun: false });
          const job = { id: queued.job_id!, name: QUEUES.evidence.name, data: { workspaceId, plotIds: [plotId] }, signal: new AbortController().signal, retryCount: 0, expireInSeconds: 3600, heartbeatSeconds: null } as Job<EvidenceJobData>;
          const deps = { archive, tiles: new DecodedTiles(), signingKey: loadSigningKey(null, dataDir), store: db.store, baseUrl: 'http://localhost/api/v1', log, pool };
          await evidenceJobHandler(deps, new AbortController().signal)(job);
          assert.ok(server.requests().some((r) => r.fault !== null), 'the fault was met');

          const row = await plotRow(db.store.em(), plotId);
          const after_ = await counts(db, workspaceId);
          assert.equal(row.evidence_state, fault.ends, row.evidence_error ?? '');
          if (fault.ends === 'failed') {
            assert.match(row.evidence_error!, /^The (archive|read) could not be/, 'the reason says what went wrong in words');
            assert.doesNotMatch(row.evidence_error!, /\n\s+at /, 'no stack trace in the reason');
            assert.deepEqual([after_.units, after_.evidence], [0, 0], 'a failed read costs nothing');
            assert.deepEqual(after_.events.map((e) => [e.type, e.data.plot_id]), [['plot.evidence.failed', plotId]]);
            assert.equal(after_.events[0].data.error, row.evidence_error);
          } else {
            assert.deepEqual([after_.units, after_.evidence], [1, 1], 'read and charged once');
            assert.deepEqual(after_.events.map((e) => [e.type, e.data.plot_id]), [['plot.evidence.completed', plotId]]);
          }

          // The job handed out again (a redelivery) finds nothing left to read: nothing charged or announced twice.
          await evidenceJobHandler(deps, new AbortController().signal)({ ...job, retryCount: 1 });
          assert.deepEqual(await counts(db, workspaceId), after_);
        } finally {
          await archive.close();
          await server.close();
        }
      });
    }
  });

  // PGlite runs inside the process: it has no connection to lose, and the process stopping with it is
  // test/reading-service/job-runner-crash.test.ts.
  if (backend === 'postgresql') {
    describe('the database restarted mid-job (postgresql)', () => {
      test('every connection of the service cut while a plot computes: the job resumes, each plot read, charged and announced once', async () => {
        const { root } = await demoWorld();
        const dataDir = mkdtempSync(join(tmpdir(), 'pce-faults-db-'));
        const db = await testStore(backend);
        const queue = await openQueue(db.store, { log, supervise: false });
        const archive = await openDemoArchive({ dataDir, root });
        const pool = createPool({ size: 1 });
        const admin = new pg.Client({ connectionString: ADMIN_URL });
        await admin.connect();
        try {
          const { workspaceId } = await seedWorkspace(db.store);
          const ids: string[] = [];
          for (const name of THREE_SITES) ids.push(await insertSitePlot(db.store.em(), workspaceId, name));
          const queued = await runEvidence(db.store.em(), queue, { id: workspaceId, plan: 'trial' }, { all: true });
          const database = new URL(db.databaseUrl!).pathname.slice(1);
          let cut = 0;
          // The restart lands while the first plot is in the pool: every backend of the service's database is terminated.
          const restarting: EnginePool = {
            size: pool.size,
            get queued() {
              return pool.queued;
            },
            async run(task, params, opts) {
              if (task === 'plot' && cut++ === 0) {
                const { rows } = await admin.query('select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
                assert.ok(Number(rows[0].n) > 0, 'connections were cut');
              }
              return pool.run(task, params, opts);
            },
            close: () => pool.close(),
          };
          const job = { id: queued.job_id!, name: QUEUES.evidence.name, data: { workspaceId, plotIds: ids }, signal: new AbortController().signal, retryCount: 0, expireInSeconds: 3600, heartbeatSeconds: null } as Job<EvidenceJobData>;
          const deps = { archive, tiles: new DecodedTiles(), signingKey: loadSigningKey(null, dataDir), store: db.store, baseUrl: 'http://localhost/api/v1', log, pool: restarting };
          // As pg-boss would: a job that threw is handed out again, until it ends.
          let attempts = 0;
          for (let done = false; !done; attempts++) {
            assert.ok(attempts < 4, 'the job ends within three retries');
            done = await evidenceJobHandler(deps, new AbortController().signal)({ ...job, retryCount: attempts }).then(() => true, () => false);
          }
          assert.ok(cut > 0);
          const states = await Promise.all(ids.map(async (id) => (await plotRow(db.store.em(), id)).evidence_state));
          assert.deepEqual(states, ['done', 'done', 'done']);
          const after_ = await counts(db, workspaceId);
          assert.deepEqual([after_.units, after_.evidence], [THREE_SITES.length, THREE_SITES.length], 'each plot charged once');
          assert.deepEqual(after_.events.map((e) => e.type), THREE_SITES.map(() => 'plot.evidence.completed'));
          assert.deepEqual(new Set(after_.events.map((e) => e.data.plot_id)), new Set(ids), 'one event per plot');
        } finally {
          await admin.end();
          await pool.close();
          await archive.close();
          await queue.stop(1000);
          await db.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      });
    });
  }

  describe(`the queue down when a read is asked for (${backend})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(backend);
    });
    after(async () => {
      await app.close();
    });

    test('answers 503 queue_unavailable with a message saying to repeat the call, and writes nothing', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const plotId = await insertSitePlot(em, workspaceId, SITE);
      // The queue's tables out of reach (its schema renamed away): every statement pg-boss makes fails, as in an outage.
      await em.execute(`alter schema ${QUEUE_SCHEMA} rename to ${QUEUE_SCHEMA}_away`, [], 'run');
      let r;
      try {
        r = await app.call('POST', '/api/v1/portal/plots/evidence', { key, body: { plot_ids: [plotId] } });
      } finally {
        await em.execute(`alter schema ${QUEUE_SCHEMA}_away rename to ${QUEUE_SCHEMA}`, [], 'run');
      }
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, 'queue_unavailable');
      assert.match(r.body.error.message, /nothing was queued, repeat the same call shortly/);
      const row = await plotRow(em, plotId);
      assert.equal(row.evidence_state, 'none');
      const [{ n }] = await em.execute<{ n: string }[]>('select count(*) as n from outbox where workspace_id = ?', [workspaceId]);
      assert.equal(Number(n), 0);
      const [{ u }] = await em.execute<{ u: string }[]>('select count(*) as u from evidence_units where workspace_id = ?', [workspaceId]);
      assert.equal(Number(u), 0);
      const again = await app.call('POST', '/api/v1/portal/plots/evidence', { key, body: { plot_ids: [plotId] } });
      assert.equal(again.status, 202, 'the same call, repeated once the queue is back, is taken');
      assert.equal((await plotRow(em, plotId)).evidence_state, 'queued');
    });
  });
}

/** Mounts a tmpfs of `bytes` at a new folder (root only; the suite runs as root in CI); answers the folder and its unmount. */
function smallDisk(bytes: number): { dir: string; unmount: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pce-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
  return {
    dir,
    unmount() {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('the disk filling while the demo world is written: refused with a clear error, nothing half-written left', async () => {
  const disk = smallDisk(2 * 1024 * 1024);
  try {
    const dataDir = join(disk.dir, 'data');
    await assert.rejects(ensureDemoArchive(dataDir), (err: unknown) => {
      assert.ok(err instanceof DemoArchiveError, String(err));
      assert.equal(err.code, 'disk_full');
      assert.match(err.message, /ran out of space while the demo archive was being written; nothing was kept\. Free space there or point DATA_DIR at a larger disk/);
      return true;
    });
    // Only the empty data folder is left: no staging world, no lock, no plot book.
    assert.deepEqual(readdirSync(dataDir), []);
  } finally {
    disk.unmount();
  }
});
