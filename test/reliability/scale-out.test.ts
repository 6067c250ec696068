/**
 * Scale-out on PostgreSQL: one `api` and two `worker` processes, started as an operator starts
 * them (`node src/main.ts api|worker`), share one database. One evidence job's plots are each read,
 * stored and charged once; the worker that holds the job is SIGKILLed mid-job and the other worker
 * finishes it; the api process makes no demo world and reads no raster; after 30 s in which the
 * database lets no connection in and cuts every open one, the worker left takes the next job.
 * PostgreSQL only: the embedded PGlite is one process's database by design (an exclusive lock on
 * its data directory).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { generateKeyPairSync } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { demoArchiveDir } from '../../src/demo/archive.ts';
import { openStore, type Store } from '../../src/store/orm.ts';
import { openQueue, QUEUES } from '../../src/store/queue.ts';
import { createLogger } from '../../src/log.ts';
import { ADMIN_URL, scratchDatabase } from '../support/db.ts';
import { roleDataDir, startRole, type RoleProcess } from '../support/processes.ts';
import { insertSitePlot, seedWorkspace } from '../engine/evidence-helpers.ts';

const SITES = ['th-surat-thani-rubber', 'id-kalbar-rubber', 'my-johor-oil-palm', 'id-jambi-pulpwood-concession'];
/**
 * Each site three times: more plots than the job stores in one group (STORE_GROUP), so however fast
 * the host, the worker cannot have stored them all by the time it is stopped after its first store.
 */
const PLOTS = [...SITES, ...SITES, ...SITES];

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 100_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe('one api and two worker processes on one PostgreSQL database', () => {
  let db: { url: string; drop: () => Promise<void> };
  let store: Store;
  const dirs: string[] = [];
  const procs: RoleProcess[] = [];
  let common: Record<string, string>;
  let apiUrl: string;

  before(async () => {
    db = await scratchDatabase();
    store = await openStore({ databaseUrl: db.url, pgliteDir: 'memory://' });
    await store.migrate();
    // Every process signs with the same key: evidence signed by any worker verifies against the one public key.
    const signingKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    common = { DATABASE_URL: db.url, SIGNING_KEY: signingKey, LOG_LEVEL: 'debug', HOST: '127.0.0.1', POOL_SIZE: '1', JOB_CONCURRENCY: '1', SHUTDOWN_TIMEOUT_MS: '2000' };
  });
  after(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await store.close();
    await db.drop();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  test('read one job with no plot read twice or lost, each charged once, through a worker killed mid-job', async () => {
    const dataDir = async (role: string, withWorld: boolean) => {
      const dir = await roleDataDir(`scale-${role}`, withWorld);
      dirs.push(dir);
      return dir;
    };
    const apiDir = await dataDir('api', false);
    const api = startRole('api', { ...common, DATA_DIR: apiDir, PORT: '0' });
    procs.push(api);
    const url = String((await api.until('listening')).url);
    apiUrl = url;
    const workers = [startRole('worker', { ...common, DATA_DIR: await dataDir('w1', true) }), startRole('worker', { ...common, DATA_DIR: await dataDir('w2', true) })];
    procs.push(...workers);
    await Promise.all(workers.map((w) => w.until('worker ready')));

    // A dead worker is noticed by its missing heartbeat: shortened here so recovery fits the test.
    const queue = await openQueue(store, { log: createLogger('silent'), supervise: false });
    await queue.boss.updateQueue(QUEUES.evidence.name, { heartbeatSeconds: 10, retryDelay: 1, retryBackoff: false });
    await queue.stop(1000);

    const { workspaceId, key } = await seedWorkspace(store);
    const plots: string[] = [];
    for (const [k, site] of PLOTS.entries()) plots.push(await insertSitePlot(store.em(), workspaceId, site, { ref: `${site} ${k}` }));
    const started = await fetch(`${url}/portal/plots/evidence`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ all: true }) });
    assert.equal(started.status, 202);
    const { job_id: jobId } = (await started.json()) as { job_id: string };

    const em = () => store.em();
    const done = async () => Number((await em().execute<{ n: string }[]>(`select count(*) as n from plots where workspace_id = ? and evidence_state = 'done'`, [workspaceId]))[0].n);
    // The worker holding the job is stopped the moment it logs its first stored plot (its next step
    // not taken: a poll of the database let a fast worker store them all first), then killed.
    let first: RoleProcess | undefined;
    const stopped = new Promise<RoleProcess>((resolve) => {
      for (const w of workers) {
        w.onLine((l) => {
          if (first !== undefined || l.msg !== 'plot read') return;
          first = w;
          w.child.kill('SIGSTOP');
          resolve(w);
        });
      }
    });
    const holder = await stopped;
    assert.ok(holder.lines.some((l) => l.msg === 'evidence job started' && l.job === jobId), 'the worker that stored a plot holds the job');
    holder.child.kill('SIGKILL');
    await holder.exited;
    const midway = await done();
    const doneBeforeKill = (await em().execute<{ id: string }[]>(`select id from plots where workspace_id = ? and evidence_state = 'done'`, [workspaceId])).map((r) => r.id);
    assert.ok(midway >= 1 && midway < PLOTS.length, `killed mid-job with ${midway} of ${PLOTS.length} plots done`);

    const other = workers.find((w) => w !== holder)!;
    await waitFor('every plot read', async () => ((await done()) === PLOTS.length ? true : null), 110_000);
    const resumed = other.lines.find((l) => l.msg === 'evidence job started' && l.job === jobId);
    assert.ok(resumed, 'the other worker took the job up');
    assert.equal(resumed.plots, PLOTS.length - midway, 'it read only the plots left');

    const evidence = await em().execute<{ plot_id: string; rows: string; current: string }[]>(
      'select plot_id, count(*) as rows, count(*) filter (where current) as current from evidence where workspace_id = ? group by plot_id', [workspaceId]);
    assert.deepEqual(evidence.map((e) => e.plot_id).sort(), [...plots].sort());
    assert.ok(evidence.every((e) => Number(e.rows) === 1 && Number(e.current) === 1), JSON.stringify(evidence));
    const [{ units }] = await em().execute<{ units: string }[]>('select count(*) as units from evidence_units where workspace_id = ?', [workspaceId]);
    assert.equal(Number(units), PLOTS.length);
    const [{ completed }] = await em().execute<{ completed: string }[]>(`select count(*) as completed from outbox where workspace_id = ? and type = 'plot.evidence.completed'`, [workspaceId]);
    assert.equal(Number(completed), PLOTS.length);
    // The worker left stored exactly the plots the killed one had not: none twice, none lost.
    const storedAfter = other.lines.filter((l) => l.msg === 'plot read').map((l) => String(l.plot));
    assert.deepEqual([...doneBeforeKill, ...storedAfter].sort(), [...plots].sort());

    // The api process made no demo world and read nothing: its health says the archive is not there.
    assert.equal(existsSync(demoArchiveDir(apiDir)), false);
    for (const msg of ['demo archive generated', 'worker ready', 'evidence job started', 'plot read']) assert.equal(api.said(msg), false, `the api process logged "${msg}"`);
    const health = await fetch(`${url}/health`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await health.json()) as { role: string; archive: { ok: boolean } };
    assert.equal(body.role, 'api');
    assert.equal(body.archive.ok, false);
  });

  test('a worker cut off from the database for 30 s takes the next job once it is back', async () => {
    // This process stays off the database meanwhile; the outage is the service processes'.
    await store.close();
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    const name = new URL(db.url).pathname.slice(1);
    // 30 s without the database: no new connection is let in, and every open one is cut.
    await admin.query(`alter database ${name} allow_connections false`);
    const cutUntil = Date.now() + 30_000;
    while (Date.now() < cutUntil) {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      await sleep(1000);
    }
    await admin.query(`alter database ${name} allow_connections true`);
    await admin.end();
    store = await openStore({ databaseUrl: db.url, pgliteDir: 'memory://' });

    const survivor = procs.find((p) => p.child.exitCode === null && p.child.signalCode === null && p.said('worker ready'));
    assert.ok(survivor, 'the worker left outlived the outage');
    const { workspaceId, key } = await seedWorkspace(store);
    const plot = await insertSitePlot(store.em(), workspaceId, SITES[0]);
    const started = await waitFor('the api to take a job again', async () => {
      const res = await fetch(`${apiUrl}/portal/plots/evidence`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ plot_ids: [plot] }) });
      return res.status === 202 ? res : null;
    }, 30_000);
    const { job_id: jobId } = (await started.json()) as { job_id: string };
    await waitFor('the plot read', async () => {
      const [row] = await store.em().execute<{ s: string }[]>('select evidence_state as s from plots where id = ?', [plot]);
      return row.s === 'done' ? true : null;
    }, 60_000);
    assert.ok(survivor.lines.some((l) => l.msg === 'evidence job started' && l.job === jobId), 'the worker that was cut off took the job');
  });
});
