// `npm run bench -- hostile`: the service under each hostile upload of issue 11. Each attack gets a
// fresh service (the API over a scratch PostgreSQL database, as the tests start it) in a child
// process capped at --max-old-space-size, so an attack that exhausts memory kills only that child
// and one that wedges its loop spoils nothing after it. This process is the client: it sends the
// attack with a valid key on the trial plan while a prober asks GET /api/v1/health once every 50 ms
// (one probe in flight at a time: a probe's latency is how long the service's loop kept it waiting),
// and samples the child's resident memory (/proc) at each probe. Per attack: the answer's status and
// error code (or the per-plot rejection codes), the time to answer, the worst and p99 /health
// latency, whether the service lived on, and its RSS growth. An attack not answered within
// ATTACK_TIMEOUT_MS is recorded as such and its child killed.
//
// The engine's case (a cattle point declaring 1e9 ha) imports the point, runs evidence on it through
// POST /portal/plots/evidence with the evidence worker started in the child over the demo archive,
// and counts as answered when the plot leaves queued and running.
//
// Child mode (run by this bench): `bench/run.ts hostile --serve [--engine]` prints one JSON line
// {url, key} once the service is up and serves until killed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEMO_GFW_API_KEY } from '../src/demo/api-transport.ts';
import { openArchive } from '../src/engine/archive.ts';
import { startEvidenceWorker } from '../src/reading-service/job-runner.ts';
import { seedWorkspace } from '../test/engine/evidence-helpers.ts';
import { startTestApp } from '../test/support/app.ts';
import { ADMIN_URL } from '../test/support/db.ts';
import { serveDemoArchive } from '../test/support/archive-server.ts';
import { demoWorld } from '../test/support/demo-world.ts';
import {
  badQuoteRowsCsv, cattlePointGeoJson, combPolygonGeoJson, deepGeoJson, type HostileFile, hugePolygonShapefileZip, inflatingZip,
  kmlBombKmz, longPointShapefileZip, manyEntriesZip, manyLayersShapefileZip, manyPartsGeoJson, nonFeatureGeoJson,
  nullRecordsShapefileZip, placemarkFloodKmz, quoteStormCsv, retracedSquareGeoJson, wideCsv, wideDbfShapefileZip,
} from '../test/support/hostile-files.ts';
import { polygonPlotsGeoJson } from './fixtures.ts';

const ATTACK_TIMEOUT_MS = 45_000;
const PROBE_EVERY_MS = 50;
const HEAP_MB = 4096;
/** Answers larger than this are counted, not parsed. */
const PARSE_LIMIT = 32 * 1024 * 1024;
const API = '/api/v1';

interface Attack {
  name: string;
  /** Which builder of test/support/hostile-files.ts, with its arguments, for the record. */
  file: string;
  build: () => HostileFile;
  /** The same file sent this many times at once. */
  copies?: number;
  /** Imported and read by the engine rather than validated. */
  engine?: boolean;
}

const ATTACKS: Attack[] = [
  { name: 'benign_5000_polygons', file: 'bench/fixtures polygonPlotsGeoJson(5000, 50)', build: () => ({ bytes: polygonPlotsGeoJson(5000, 50), filename: 'polygons.geojson' }) },
  { name: 'csv_80000_quotes', file: 'quoteStormCsv(80_000)', build: () => quoteStormCsv() },
  { name: 'shapefile_15m_vertices', file: 'hugePolygonShapefileZip(15_000_000)', build: () => hugePolygonShapefileZip() },
  { name: 'comb_1201_vertices', file: 'combPolygonGeoJson(300)', build: () => combPolygonGeoJson() },
  { name: 'retraced_square', file: 'retracedSquareGeoJson(750)', build: () => retracedSquareGeoJson() },
  { name: 'multipolygon_10000_parts', file: 'manyPartsGeoJson(10_000)', build: () => manyPartsGeoJson() },
  { name: 'zip_250mb_x6', file: 'inflatingZip(250_000_000) x6', build: () => inflatingZip(), copies: 6 },
  { name: 'shapefile_20m_null_records', file: 'nullRecordsShapefileZip(20_000_000)', build: () => nullRecordsShapefileZip() },
  { name: 'geojson_12m_non_features', file: 'nonFeatureGeoJson(12_000_000)', build: () => nonFeatureGeoJson() },
  { name: 'cattle_point_1e9_ha', file: 'cattlePointGeoJson(1e9)', build: () => cattlePointGeoJson(), engine: true },
  // Issue 29's parser bounds.
  { name: 'kmz_kml_250mb', file: 'kmlBombKmz(250_000_000)', build: () => kmlBombKmz() },
  { name: 'kmz_500000_placemarks', file: 'placemarkFloodKmz(500_000)', build: () => placemarkFloodKmz() },
  { name: 'geojson_40000_deep', file: 'deepGeoJson(40_000)', build: () => deepGeoJson() },
  { name: 'zip_1001_entries', file: 'manyEntriesZip(1_001)', build: () => manyEntriesZip() },
  { name: 'zip_400_layers', file: 'manyLayersShapefileZip(400)', build: () => manyLayersShapefileZip() },
  { name: 'dbf_2000_fields', file: 'wideDbfShapefileZip({ fields: 2_000, records: 50_000 })', build: () => wideDbfShapefileZip() },
  { name: 'dbf_at_values_cap', file: 'wideDbfShapefileZip({ fields: 20, records: 100_000 })', build: () => wideDbfShapefileZip({ fields: 20, records: 100_000 }) },
  { name: 'csv_1m_columns', file: 'wideCsv(1_000_000)', build: () => wideCsv() },
  { name: 'csv_2m_quoting_errors', file: 'badQuoteRowsCsv(2_000_000)', build: () => badQuoteRowsCsv() },
  { name: 'shapefile_point_250mb', file: 'longPointShapefileZip(250_000_000)', build: () => longPointShapefileZip() },
];

/** What the answer said: the status, the error code, or the plots' rejection codes and row errors counted. */
interface Answer {
  status: number | 'not answered' | 'connection lost';
  code?: string;
  rejections?: Record<string, number>;
  plots?: number;
  row_errors?: number;
  bytes?: number;
  /** The engine's case: the plot's evidence state and reason once settled. */
  evidence?: { state: string; reason: string | null; units_used: number | null };
}

interface Figures {
  upload_kb: number;
  answers: Answer[];
  answered_s: number | null;
  health_max_ms: number;
  health_p99_ms: number;
  health_probes: number;
  health_failed: number;
  stayed_up: boolean;
  exit?: string;
  rss_before_mb: number;
  rss_growth_mb: number;
}

const round = (x: number, digits = 0) => Number(x.toFixed(digits));

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

interface Service {
  child: ChildProcess;
  url: string;
  key: string;
  databaseUrl: string;
  dataDir: string;
  exited: Promise<string>;
  stderr: () => string;
}

/** A fresh service in a child process, once it printed its URL and key. */
async function startService(engine: boolean): Promise<Service> {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, run, 'hostile', '--serve', ...(engine ? ['--engine'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)));
  const ready = await new Promise<{ url: string; key: string; databaseUrl: string; dataDir: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    void exited.then((how) => reject(new Error(`the service ended before it was up (${how}): ${stderr}`)));
  });
  return { child, ...ready, exited, stderr: () => stderr };
}

async function dropDatabase(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  await admin.end();
}

/** GET /health once every PROBE_EVERY_MS until stopped, sampling the child's RSS at each. */
function prober(service: Service) {
  const latencies: number[] = [];
  let failed = 0;
  let maxRss = 0;
  let inFlightSince: number | null = null;
  let stopped = false;
  void (async () => {
    while (!stopped) {
      maxRss = Math.max(maxRss, rssMb(service.child.pid!));
      inFlightSince = performance.now();
      try {
        const res = await fetch(`${service.url}${API}/health`, { signal: AbortSignal.timeout(ATTACK_TIMEOUT_MS + 10_000) });
        await res.arrayBuffer();
      } catch {
        failed++;
      }
      latencies.push(performance.now() - inFlightSince);
      inFlightSince = null;
      await sleep(PROBE_EVERY_MS);
    }
  })();
  return {
    async stop() {
      stopped = true;
      // A probe still unanswered counts with its wait so far.
      const pending = inFlightSince === null ? [] : [performance.now() - inFlightSince];
      maxRss = Math.max(maxRss, rssMb(service.child.pid!));
      const all = [...latencies, ...pending].sort((a, b) => a - b);
      return {
        health_max_ms: round(all.at(-1) ?? 0),
        health_p99_ms: round(all[Math.min(all.length - 1, Math.floor(all.length * 0.99))] ?? 0),
        health_probes: all.length,
        health_failed: failed,
        maxRss,
      };
    },
  };
}

function rejectionCodes(plots: { rejections?: { code: string }[] }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of plots) for (const r of p.rejections ?? []) counts[r.code] = (counts[r.code] ?? 0) + 1;
  return counts;
}

async function answerOf(res: Response): Promise<{ answer: Answer; body: any }> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const answer: Answer = { status: res.status, bytes: bytes.length };
  if (bytes.length > PARSE_LIMIT || !(res.headers.get('content-type') ?? '').includes('json')) return { answer, body: null };
  const body = JSON.parse(bytes.toString('utf8'));
  if (body.error) answer.code = body.error.code;
  if (Array.isArray(body.plots)) {
    answer.plots = body.plots.length;
    answer.rejections = rejectionCodes(body.plots);
  }
  if (Array.isArray(body.row_errors)) answer.row_errors = body.row_errors.length;
  return { answer, body };
}

const lost = (signal: AbortSignal): Answer => ({ status: signal.aborted ? 'not answered' : 'connection lost' });

function upload(service: Service, route: string, file: HostileFile, signal: AbortSignal): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file.bytes)]), file.filename);
  return fetch(`${service.url}${API}${route}`, { method: 'POST', headers: { authorization: `Bearer ${service.key}` }, body: form, signal });
}

async function validateAll(service: Service, file: HostileFile, copies: number, signal: AbortSignal): Promise<Answer[]> {
  return Promise.all(Array.from({ length: copies }, async () => {
    try {
      return (await answerOf(await upload(service, '/portal/plots/validate?country=GH', file, signal))).answer;
    } catch {
      return lost(signal);
    }
  }));
}

/** Imports the point, runs evidence on it, and waits for the plot to leave queued and running. */
async function readByEngine(service: Service, file: HostileFile, signal: AbortSignal): Promise<Answer[]> {
  const headers = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
  try {
    const imported = await answerOf(await upload(service, '/portal/plots/import?country=GH', file, signal));
    const plotId = imported.body?.plots?.[0]?.plot_id as string | undefined;
    if (!plotId) return [imported.answer];
    const run = await answerOf(await fetch(`${service.url}${API}/portal/plots/evidence`, { method: 'POST', headers, body: JSON.stringify({ plot_ids: [plotId] }), signal }));
    if (run.answer.status !== 202) return [imported.answer, run.answer];
    for (;;) {
      const plot = await answerOf(await fetch(`${service.url}${API}/portal/plots/${plotId}`, { headers, signal }));
      const state = plot.body?.evidence_state as string;
      if (state !== 'queued' && state !== 'running') {
        // A failed read's cause is told only by the evidence route's refusal.
        const evidence = state === 'failed' ? (await answerOf(await fetch(`${service.url}${API}/portal/plots/${plotId}/evidence`, { headers, signal }))).body : null;
        const summary = (await answerOf(await fetch(`${service.url}${API}/portal/plots/evidence/summary`, { headers, signal }))).body;
        return [imported.answer, { ...run.answer, evidence: { state, reason: evidence?.error?.message ?? plot.body?.reason ?? null, units_used: summary?.used ?? null } }];
      }
      await sleep(200, undefined, { signal });
    }
  } catch {
    return [lost(signal)];
  }
}

async function measure(attack: Attack): Promise<Figures> {
  const file = attack.build();
  const service = await startService(attack.engine === true);
  try {
    await sleep(500);
    const rssBefore = rssMb(service.child.pid!);
    const probe = prober(service);
    const signal = AbortSignal.timeout(ATTACK_TIMEOUT_MS);
    const t = performance.now();
    const died = service.exited.then((how) => ({ died: how }));
    const sent = attack.engine ? readByEngine(service, file, signal) : validateAll(service, file, attack.copies ?? 1, signal);
    const outcome = await Promise.race([sent.then((answers) => ({ answers })), died]);
    const seconds = (performance.now() - t) / 1000;
    const health = await probe.stop();
    const answers = 'answers' in outcome ? outcome.answers : await sent;
    const answered = answers.every((a) => typeof a.status === 'number');
    // The service lives on if it still answers /health once the attack is over.
    const alive = await Promise.race([
      fetch(`${service.url}${API}/health`, { signal: AbortSignal.timeout(5000) }).then(() => true, () => false),
      service.exited.then(() => false),
    ]);
    const exit = alive ? undefined : await Promise.race([service.exited, sleep(1000).then(() => 'wedged')]);
    const oom = /heap out of memory/i.test(service.stderr());
    const { maxRss, ...probes } = health;
    return {
      upload_kb: round(file.bytes.length / 1024, 1),
      answers,
      answered_s: answered ? round(seconds, 2) : null,
      ...probes,
      stayed_up: alive,
      ...(exit === undefined ? {} : { exit: oom ? `${exit} (heap out of memory)` : exit }),
      rss_before_mb: round(rssBefore),
      rss_growth_mb: round(Math.max(0, maxRss - rssBefore)),
    };
  } finally {
    service.child.kill('SIGKILL');
    await service.exited;
    await dropDatabase(service.databaseUrl);
    fs.rmSync(service.dataDir, { recursive: true, force: true });
  }
}

/** The child's side: a service with a workspace and key, and with `engine` the evidence worker over the demo archive. */
async function serve(engine: boolean): Promise<void> {
  const app = await startTestApp('postgresql', { POOL_SIZE: '2' });
  if (engine) {
    const { root } = await demoWorld();
    const server = await serveDemoArchive(root);
    const archive = await openArchive({ kind: 'demo', dataDir: app.services.config.dataDir, root: server.url, gfwApiKey: DEMO_GFW_API_KEY });
    await startEvidenceWorker({ ...app.services, queue: app.services.queue! }, { archive });
  }
  const { key } = await seedWorkspace(app.services.store, 'trial');
  console.log(JSON.stringify({ url: app.url, key, databaseUrl: app.db.databaseUrl, dataDir: app.dataDir }));
  // Killed by the bench, which then drops the scratch database and folder (a wedged child could not).
  await new Promise(() => {});
}

const describe = (a: Answer) =>
  a.status === 'not answered' || a.status === 'connection lost'
    ? a.status
    : `${a.status}${a.code ? ` ${a.code}` : ''}${a.rejections && Object.keys(a.rejections).length ? ` rejected ${JSON.stringify(a.rejections)}` : ''}${a.evidence ? ` evidence ${a.evidence.state}${a.evidence.reason ? ` (${a.evidence.reason})` : ''}, ${a.evidence.units_used} units used` : ''}`;

export default async function hostileBench(args: string[]): Promise<void> {
  if (args[0] === '--serve') return serve(args.includes('--engine'));
  const only = args.length > 0 ? new Set(args) : null;
  const figures: Record<string, Figures & { file: string }> = {};
  for (const attack of ATTACKS) {
    if (only && !only.has(attack.name)) continue;
    const f = await measure(attack);
    figures[attack.name] = { file: attack.file, ...f };
    console.log(
      `${attack.name}: ${f.answers.map(describe).join(', ')}; ${f.answered_s === null ? `no answer within ${ATTACK_TIMEOUT_MS / 1000} s` : `answered in ${f.answered_s} s`}; /health worst ${f.health_max_ms} ms, p99 ${f.health_p99_ms} ms over ${f.health_probes} probes; ${f.stayed_up ? 'stayed up' : `down (${f.exit})`}; RSS +${f.rss_growth_mb} MB`,
    );
  }
  console.log(
    JSON.stringify({
      bench: 'hostile',
      timeout_s: ATTACK_TIMEOUT_MS / 1000,
      heap_mb: HEAP_MB,
      ...figures,
      load_average: os.loadavg().map((x) => +x.toFixed(1)),
      cores: os.availableParallelism(),
      memory_gb: round(os.totalmem() / 2 ** 30),
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
    }),
  );
}
