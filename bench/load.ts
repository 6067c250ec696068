// `npm run bench -- load [plots] [seconds]`: the API under load, as deployed: one `api` and one
// `worker` process (`node src/main.ts api|worker`) on a scratch PostgreSQL database holding a
// register of 100,000 plots (inserted with one INSERT … SELECT over generate_series, then vacuumed).
//
// While the worker reads an evidence job over demo sites and a loop fetches evidence PDFs (rendered
// on the api's document threads), autocannon drives 50 clients at (1) the register list
// `GET /portal/plots` (its first page and its total) and (2) one plot's evidence
// `GET /portal/plots/:id/evidence`. Before the job, one client alone on the list says what one
// request costs, 50 clients on the list and on the reference say what the route adds with nothing
// else running, and small uploads (one plot) sent one after another through /portal/plots/validate
// and /portal/plots/import say what an upload costs alone. Reference in the same run, under the
// same job and renders: the public key `GET /evidence/public-key`, which touches no database, so
// `ratio_to_reference` says what the route's own work adds to what the process and the machine
// cost any request.
import os from 'node:os';
import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { runAdminCommand } from '../src/admin/commands.ts';
import { openStore } from '../src/store/orm.ts';
import { scratchDatabase } from '../test/support/db.ts';
import { roleDataDir, startRole } from '../test/support/processes.ts';
import { insertSitePlot } from '../test/engine/evidence-helpers.ts';

const SITES = ['th-surat-thani-rubber', 'id-kalbar-rubber', 'my-johor-oil-palm', 'id-jambi-pulpwood-concession', 'ci-tai-cleared-2022', 'gh-dust-no-structure', 'kh-kampong-cham-record'];
const CLIENTS = 50;

interface Figures { requests: number; rps: number; p50_ms: number; p99_ms: number; max_ms: number; errors: number; non_2xx: number }

/** Uploads of a one-plot book, each sent when the one before has answered: the first, the median and the slowest. */
async function uploadsAlone(base: string, key: string, route: 'validate' | 'import', count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const x = -1.6 + i * 0.001;
    const book = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { ref: `U-${route}-${i}`, commodity: 'cocoa' }, geometry: { type: 'Polygon', coordinates: [[[x, 6.7], [x + 0.0005, 6.7], [x + 0.0005, 6.7005], [x, 6.7005], [x, 6.7]]] } }] };
    const form = new FormData();
    form.set('file', new Blob([JSON.stringify(book)]), 'book.geojson');
    const t = performance.now();
    const res = await fetch(`${base}/portal/plots/${route}?country=GH`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
    times.push(performance.now() - t);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { uploads: count, first_ms: Math.round(times[0]), p50_ms: Math.round(sorted[count >> 1]), max_ms: Math.round(sorted[count - 1]) };
}

async function hammer(url: string, key: string | null, seconds: number, connections = CLIENTS): Promise<Figures> {
  const r = await autocannon({ url, connections, duration: seconds, headers: key ? { authorization: `Bearer ${key}` } : {} });
  return {
    requests: r.requests.total, rps: Math.round(r.requests.average),
    p50_ms: r.latency.p50, p99_ms: r.latency.p99, max_ms: r.latency.max, errors: r.errors + r.timeouts, non_2xx: r.non2xx,
  };
}

export default async function run(args: string[]) {
  const plots = args[0] ? Number(args[0]) : 100_000;
  const seconds = args[1] ? Number(args[1]) : 10;
  const db = await scratchDatabase();
  const dirs = [await roleDataDir('load-api', false), await roleDataDir('load-worker', true)];
  const common = { DATABASE_URL: db.url, LOG_LEVEL: 'info', HOST: '127.0.0.1', POOL_SIZE: '1', SHUTDOWN_TIMEOUT_MS: '2000' };
  const store = await openStore({ databaseUrl: db.url, pgliteDir: 'memory://' });
  await store.migrate();
  const created = await runAdminCommand(store, ['workspace', 'create'], { name: 'Load', plan: 'enterprise', email: 'load@bench.test', password: 'load bench pass' });
  const workspaceId = created.workspace_id as string;
  const key = created.api_key as string;
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const t = performance.now();
  await client.query(
    `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha, validation_state, validation_report, evidence_state, created_at, updated_at)
     select gen_random_uuid(), $1, 'L-' || lpad(i::text, 6, '0'), 'rubber', 'TH', 4.2, 'valid', '{}'::jsonb, 'none', now(), now()
     from generate_series(1, $2) as i`,
    [workspaceId, plots],
  );
  // The steady state autovacuum keeps: the visibility map set, so the list's count is an index-only scan.
  await client.query('vacuum analyze plots');
  const seedS = (performance.now() - t) / 1000;
  await client.end();
  // The job: the demo sites, several times over, so it reads through every measurement.
  const jobPlots: string[] = [];
  for (let round = 0; round < 12; round++) for (const site of SITES) jobPlots.push(await insertSitePlot(store.em(), workspaceId, site, { ref: `${site}-${round}` }));

  const api = startRole('api', { ...common, DATA_DIR: dirs[0], PORT: '0' });
  const worker = startRole('worker', { ...common, DATA_DIR: dirs[1] });
  const stop = async () => {
    await Promise.all([api.stop(), worker.stop()]);
    await store.close();
    await db.drop();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  };
  try {
    const base = String((await api.until('listening')).url);
    await worker.until('worker ready');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const uploads = { validate: await uploadsAlone(base, key, 'validate', 20), import: await uploadsAlone(base, key, 'import', 20) };
    // The list alone: one client, no job, no renders: what one request costs.
    const listAlone = await hammer(`${base}/portal/plots`, key, Math.ceil(seconds / 2), 1);
    const listIdle = await hammer(`${base}/portal/plots`, key, Math.ceil(seconds / 2));
    const referenceIdle = await hammer(`${base}/evidence/public-key`, null, Math.ceil(seconds / 2));
    const started = await fetch(`${base}/portal/plots/evidence`, { method: 'POST', headers, body: JSON.stringify({ plot_ids: jobPlots }) });
    if (started.status !== 202) throw new Error(`the evidence job was not started: ${started.status} ${await started.text()}`);
    const done = async () => (await store.em().execute<{ id: string }[]>(`select id from plots where workspace_id = ? and evidence_state = 'done' limit 1`, [workspaceId]))[0]?.id ?? null;
    let read: string | null = null;
    while ((read = await done()) === null) await new Promise((r) => setTimeout(r, 200));

    // PDFs render throughout, one after another, as a person paging through documents would.
    let rendering = true;
    let pdfs = 0;
    const renders = (async () => {
      while (rendering) {
        const res = await fetch(`${base}/portal/plots/${read}/evidence.pdf`, { headers });
        await res.arrayBuffer();
        if (res.ok) pdfs++;
      }
    })();
    const reference = await hammer(`${base}/evidence/public-key`, null, seconds);
    const list = await hammer(`${base}/portal/plots`, key, seconds);
    const evidence = await hammer(`${base}/portal/plots/${read}/evidence`, key, seconds);
    rendering = false;
    await renders;
    const [{ n }] = await store.em().execute<{ n: string }[]>(`select count(*) as n from plots where workspace_id = ? and evidence_state = 'done'`, [workspaceId]);
    const jobStillReading = worker.lines.some((l) => l.msg === 'evidence job started') && !worker.said('evidence job finished');

    const result = {
      bench: 'load', plots, clients: CLIENTS, seconds, seed_s: Number(seedS.toFixed(1)),
      list, evidence, reference, list_one_client_idle: listAlone, list_idle: listIdle, reference_idle: referenceIdle, uploads_alone: uploads,
      list_ratio_to_reference_p99: Number((list.p99_ms / Math.max(reference.p99_ms, 1)).toFixed(2)),
      list_idle_ratio_to_reference_rps: Number((referenceIdle.rps / Math.max(listIdle.rps, 1)).toFixed(1)),
      evidence_ratio_to_reference_p99: Number((evidence.p99_ms / Math.max(reference.p99_ms, 1)).toFixed(2)),
      list_p99_under_50ms: list.p99_ms < 50,
      pdfs_rendered: pdfs, job_plots_read: Number(n), job_plots: jobPlots.length, job_reading_throughout: jobStillReading,
      cores: os.availableParallelism(), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown',
    };
    const line = (name: string, f: Figures) => `${name}: p50 ${f.p50_ms} ms, p99 ${f.p99_ms} ms, ${f.rps}/s, ${f.errors} errors, ${f.non_2xx} non-2xx`;
    console.log(line('register list', list));
    console.log(line('evidence read', evidence));
    console.log(line('public key (reference)', reference));
    console.log(line('register list, one client, idle', listAlone));
    console.log(line('register list, nothing else running', listIdle));
    console.log(line('public key (reference), nothing else running', referenceIdle));
    for (const [route, u] of Object.entries(uploads)) console.log(`${route}, one-plot uploads one after another: first ${u.first_ms} ms, p50 ${u.p50_ms} ms, max ${u.max_ms} ms`);
    console.log(`meanwhile: ${pdfs} PDFs rendered, ${n} of ${jobPlots.length} job plots read${jobStillReading ? ', the job still reading at the end' : ''}`);
    console.log(JSON.stringify(result));
  } finally {
    await stop();
  }
}
