/**
 * `npm run bench -- job [--pool 1,2,4,8,16] [--plots 100] [--latency 50] [--bandwidth 50]`
 *
 * 1. One 10 ha plot read cold and warm from the local demo archive on disk: engine time (plan,
 *    scene search, tile fetch, the plot task, decision, evidence object, signature, chip), no
 *    database. Cold: a fresh archive and decoded-tile cache (the pool's threads already started).
 * 2. A job of 100 plots through the whole service path (run route's function, pg-boss on the
 *    embedded PGlite, the evidence worker) reading the demo world from the local archive server
 *    with 50 ms latency on every request and its responses sharing a link of `--bandwidth` MB/s.
 *    Plots per minute against the reference service's 3 minutes a plot (target: at least 20 times
 *    faster); MB fetched and tiles decoded a plot, the two caches' hit rates, and the job's time
 *    against the least the link allows (the distinct bytes it fetched over the link's rate).
 * 3. Pool scaling: the same plots' tasks (each shipped as a thread takes it, decoded inside the task) on
 *    pools of 1 to `--pool` threads, plots per second, beside the machine's own scaling measured in
 *    the same run (plain arithmetic on as many worker threads).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { performance as perf } from 'node:perf_hooks';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Polygon } from 'geojson';
import { createWorkspace } from '../src/accounts/workspaces.ts';
import { loadConfig } from '../src/config.ts';
import { openArchive } from '../src/engine/archive.ts';
import { DEMO_GFW_API_KEY } from '../src/demo/api-transport.ts';
import { openDemoArchive } from '../src/demo/open-archive.ts';
import { serveArchiveProcess } from './archive-server-process.ts';
import { runEvidence } from '../src/reading-service/evidence-runs.ts';
import { startEvidenceWorker } from '../src/reading-service/job-runner.ts';
import { createPool, type EnginePool } from '../src/engine/worker/pool.ts';
import { packShipment } from '../src/engine/worker/shipment-wire.ts';
import { DecodedTiles } from '../src/engine/plan/raster-shipment.ts';
import { planRead, type PlotPlan, type PlotToRead } from '../src/engine/plan/read-plan.ts';
import { computePlan, finishPlot, preparePlot } from '../src/engine/read-plot.ts';
import { loadSigningKey } from '../src/engine/signing.ts';
import { DEMO_SITES } from '../src/demo/sites.ts';
import { buildSiteModel } from '../src/demo/site-model.ts';
import { DEMO_SEED, generateDemoWorld, WORLD_MANIFEST, DEMO_WORLD_VERSION } from '../src/demo/world.ts';
import { pino, type Logger } from 'pino';
import { openStore, type Store } from '../src/store/orm.ts';
import { openQueue, type Queue } from '../src/store/queue.ts';

const REFERENCE_MINUTES_PER_PLOT = 3;
const BENCH_SITE = 'ng-edo-dust'; // 10.0 ha

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
}

/** Every thread loads the task module: a task that fails at once (it names no raster) is enough. */
async function warmUp(pool: EnginePool, threads: number) {
  const none = { shipment: packShipment({ tiles: [], rasters: [] }), red: '-', green: '-', blue: '-', reflectance: { scale: 1, offset: 0, nodata: null }, bbox: [0, 0, 1, 1] as [number, number, number, number], width: 1, height: 1 };
  await Promise.all(Array.from({ length: threads }, () => pool.run('chip', none).catch(() => {})));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The full demo world, generated once per version under the system's temporary folder. */
async function world(): Promise<string> {
  const root = join(os.tmpdir(), `precutoff-bench-world-${DEMO_WORLD_VERSION}`);
  const manifest = join(root, WORLD_MANIFEST);
  if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).version !== DEMO_WORLD_VERSION) {
    rmSync(root, { recursive: true, force: true });
    await generateDemoWorld(root);
  }
  return root;
}

/** A demo site's plot moved by (east, north) metres: neighbouring plots of one book. */
function sitePlot(name: string, eastM = 0, northM = 0): PlotToRead {
  const spec = DEMO_SITES.find((s) => s.name === name)!;
  const ring = buildSiteModel(spec, DEMO_SEED).lonLatRing;
  const lat = spec.centre[1];
  const dLon = eastM / (111_320 * Math.cos((lat * Math.PI) / 180));
  const dLat = northM / 110_574;
  const geometry: Polygon = { type: 'Polygon', coordinates: [ring.map(([x, y]) => [x + dLon, y + dLat])] };
  return { id: randomUUID(), workspaceId: 'bench', ref: name, geometry, areaHa: spec.plot.areaHa, declaredAreaHa: null, country: spec.country, producerCountry: spec.country };
}

/** 100 plots: every site in turn, each time shifted a little, so consecutive plots are far apart. */
function book(count: number): PlotToRead[] {
  const out: PlotToRead[] = [];
  for (let i = 0; out.length < count; i++) {
    const name = DEMO_SITES[i % DEMO_SITES.length].name;
    const round = Math.floor(i / DEMO_SITES.length);
    out.push(sitePlot(name, ((round % 3) - 1) * 40, (Math.floor(round / 3) % 3 - 1) * 40));
  }
  return out;
}

async function singlePlot(root: string, dataDir: string, poolSize: number) {
  const pool = createPool({ size: poolSize });
  const signingKey = loadSigningKey(null, dataDir);
  // A worker process keeps its pool warm: the threads load their modules before timing starts.
  await warmUp(pool, poolSize);
  const archive = await openDemoArchive({ dataDir, root });
  const deps = { archive, pool, tiles: new DecodedTiles(), signingKey };
  const plot = sitePlot(BENCH_SITE);
  let t = performance.now();
  const first = await finishPlot(await preparePlot(plot, deps), deps);
  const cold = performance.now() - t;
  const warm: number[] = [];
  for (let i = 0; i < 7; i++) {
    t = performance.now();
    await finishPlot(await preparePlot(plot, deps), deps);
    warm.push(performance.now() - t);
  }
  await archive.close();
  await pool.close();
  const e = first.evidence;
  return { site: BENCH_SITE, area_ha: e.plot_area_km2 * 100, seasons: e.seasons.length, seasons_observed: e.seasons_observed, scenes_kept: e.read.scenes_kept, verdict: e.verdict, cold_ms: Math.round(cold), warm_ms: Math.round(median(warm)), warm_best_ms: Math.round(Math.min(...warm)), pool_size: poolSize };
}

/**
 * Runs every plot of a workspace through the run route's function and waits until none is queued
 * or running: the job's seconds, the main thread's busy time over them (planning, shipping,
 * deciding, signing, storing, against the pool's) in wall time (`mainBusyMs`, the event loop's
 * active time, which grows while a loaded machine holds the thread off its core) and in CPU time
 * (`mainCpuMs`), the whole process's CPU time (`processCpuMs`, every thread), how the pool's
 * threads spent the job (`pool`), and the plots' states at the end.
 */
/** Nanoseconds each thread of this process has run, and waited runnable for a core, by thread id and name (Linux's schedstat; empty elsewhere). */
export function threadTimes(): Map<string, { name: string; run: number; wait: number }> {
  const out = new Map<string, { name: string; run: number; wait: number }>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    const t = schedstat(tid);
    try {
      if (t !== null) out.set(tid, { name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), ...t });
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return out;
}

/** Nanoseconds one thread of this process has run, and waited runnable for a core (Linux's schedstat); null where it cannot be read. */
export function schedstat(tid: string): { run: number; wait: number } | null {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    return { run, wait };
  } catch {
    return null;
  }
}

/**
 * How the pool's threads (Node's "WorkerThread"s) spent a stretch of `seconds`, as shares of their
 * time: running, runnable but waiting for a core (a loaded machine), and idle (no task to run).
 * Idle is what the job's own pipeline leaves; waiting is the machine's.
 */
function poolThreads(before: ReturnType<typeof threadTimes>, after: ReturnType<typeof threadTimes>, seconds: number) {
  let run = 0;
  let wait = 0;
  let threads = 0;
  for (const [tid, t] of after) {
    if (t.name !== 'WorkerThread') continue;
    const b = before.get(tid) ?? { run: 0, wait: 0 };
    run += t.run - b.run;
    wait += t.wait - b.wait;
    threads++;
  }
  const whole = threads * seconds * 1e9;
  const share = (ns: number) => Number((whole === 0 ? 0 : ns / whole).toFixed(2));
  return { threads, running: share(run), waiting_for_core: share(wait), idle: share(Math.max(0, whole - run - wait)), v8_helpers_cores: helperCores(before, after, seconds) };
}

/**
 * Cores' worth of CPU V8's own helper threads ("V8Worker": the collector's concurrent marking and
 * sweeping, background compiling) ran over a stretch: work on every thread's behalf that a job's
 * allocations cost, on the cores the pool's threads would otherwise have.
 */
function helperCores(before: ReturnType<typeof threadTimes>, after: ReturnType<typeof threadTimes>, seconds: number): number {
  let run = 0;
  for (const [tid, t] of after) if (t.name === 'V8Worker') run += t.run - (before.get(tid)?.run ?? 0);
  return Number((seconds === 0 ? 0 : run / 1e9 / seconds).toFixed(2));
}

/**
 * A logger for a bench's worker that writes nothing and tells when a job has logged its end. The
 * bench waits on that and counts the register's unread plots only then, and once a second for a job
 * that ends otherwise. Counted every 100 ms, on the embedded PGlite that count ran on the main thread
 * whose time a bench reports, some 2 ms each over a 4,000-plot register.
 */
export function jobEnds(): { log: Logger; next: () => Promise<void> } {
  let waiting: Array<() => void> = [];
  const log = pino({ level: 'info' }, {
    write(line: string) {
      if (!line.includes('"msg":"evidence job finished"')) return;
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake();
    },
  });
  return { log, next: () => new Promise((resolve) => waiting.push(resolve)) };
}

/** Reads every plot of the workspace as one run and times it; `ended` (jobEnds) wakes the wait when a job logs its end. */
export async function readAll(store: Store, queue: Queue, workspaceId: string, ended?: () => Promise<void>) {
  const loop = perf.eventLoopUtilization();
  const thread = process.threadCpuUsage();
  const cpu = process.cpuUsage();
  const sched = threadTimes();
  const t = performance.now();
  await runEvidence(store.em(), queue, { id: workspaceId, plan: 'enterprise' }, { all: true });
  for (;;) {
    const woken = ended?.();
    const [{ n }] = await store.em().execute<{ n: string }[]>(`select count(*) as n from plots where workspace_id = ? and evidence_state in ('queued', 'running')`, [workspaceId]);
    if (Number(n) === 0) break;
    await Promise.race([new Promise((r) => setTimeout(r, woken === undefined ? 100 : 1000)), ...(woken === undefined ? [] : [woken])]);
  }
  const seconds = (performance.now() - t) / 1000;
  const mainBusyMs = perf.eventLoopUtilization(loop).active;
  const ms = (u: { user: number; system: number }) => (u.user + u.system) / 1000;
  const mainCpuMs = ms(process.threadCpuUsage(thread));
  const processCpuMs = ms(process.cpuUsage(cpu));
  const pool = poolThreads(sched, threadTimes(), seconds);
  const states = await store.em().execute<{ s: string; n: string }[]>('select evidence_state as s, count(*) as n from plots group by 1');
  return { seconds, mainBusyMs, mainCpuMs, processCpuMs, pool, states };
}

async function hundredPlots(root: string, dataDir: string, plots: number, latencyMs: number, bandwidthMBps: number, poolSize: number) {
  const linkBytesPerSecond = bandwidthMBps * 1e6;
  // In a process of its own: its file reads and answers would otherwise count as the worker's main-thread time.
  const server = await serveArchiveProcess(root, { latencyMs, linkBytesPerSecond });
  const { log, next: ended } = jobEnds();
  const store = await openStore({ databaseUrl: null, pgliteDir: 'memory://' });
  await store.migrate();
  const queue = await openQueue(store, { log, supervise: false });
  const config = loadConfig({ DATA_DIR: dataDir, POOL_SIZE: String(poolSize), LOG_LEVEL: 'silent' });
  const worker = await startEvidenceWorker({ config, store, queue, log, signingKey: loadSigningKey(null, dataDir) }, { archive: await openArchive({ kind: 'demo', dataDir, root: server.url, gfwApiKey: DEMO_GFW_API_KEY, rangeCacheBytes: config.rangeCacheBytes }) });
  const { workspace } = await createWorkspace(store.em(), { name: 'Bench', plan: 'enterprise', email: 'bench@example.test', password: 'bench bench', role: 'portal' });
  const em = store.em();
  for (const p of book(plots)) {
    await em.execute(
      `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha, geometry, validation_state, validation_report, created_at, updated_at)
       values (?, ?, ?, 'rubber', ?, ?, ?::jsonb, 'valid', '{}'::jsonb, now(), now())`,
      [p.id, workspace.id, `${p.ref}-${p.id.slice(0, 8)}`, p.country, p.areaHa, JSON.stringify(p.geometry)],
    );
  }
  await server.clearRequests();
  const { seconds, mainBusyMs, states } = await readAll(store, queue, workspace.id, ended);
  const requests = await server.requests();
  // What the job had to fetch at least: every distinct range once (a range fetched again was evicted or raced).
  const unique = new Map(requests.map((r) => [`${r.method} ${r.path} ${r.range ?? ''}`, r.bytes]));
  const fetched = requests.reduce((sum, r) => sum + r.bytes, 0);
  const uniqueBytes = [...unique.values()].reduce((sum, b) => sum + b, 0);
  const tiles = worker.tiles.stats();
  const range = worker.archive.cache.stats();
  worker.stopTaking();
  await queue.stop(5000);
  await worker.close();
  await store.close();
  await server.close();
  const perMinute = plots / (seconds / 60);
  const limitSeconds = uniqueBytes / linkBytesPerSecond;
  const share = (hits: number, all: number) => Number((all === 0 ? 0 : hits / all).toFixed(3));
  return {
    plots,
    latency_ms: latencyMs,
    bandwidth_mb_s: bandwidthMBps,
    pool_size: poolSize,
    seconds: Number(seconds.toFixed(1)),
    plots_per_minute: Number(perMinute.toFixed(1)),
    seconds_per_plot: Number((seconds / plots).toFixed(2)),
    requests_per_plot: Math.round(requests.length / plots),
    main_thread_ms_per_plot: Math.round(mainBusyMs / plots),
    mb_fetched_per_plot: Number((fetched / plots / 1e6).toFixed(3)),
    unique_mb: Number((uniqueBytes / 1e6).toFixed(1)),
    tiles_decoded_per_plot: Number((tiles.misses / plots).toFixed(1)),
    decoded_tile_hit_rate: share(tiles.hits, tiles.hits + tiles.misses),
    // A read that joined one already in flight fetched nothing, so it counts as a hit.
    range_cache_hit_rate: share(range.hits + range.coalesced, range.hits + range.coalesced + range.misses),
    bandwidth_limit_s: Number(limitSeconds.toFixed(2)),
    time_over_bandwidth_limit: Number((seconds / limitSeconds).toFixed(1)),
    states: Object.fromEntries(states.map((r) => [r.s, Number(r.n)])),
    times_faster_than_reference: Number((perMinute * REFERENCE_MINUTES_PER_PLOT).toFixed(1)),
  };
}

// The machine's own scaling, the reference for the pool's: the same fixed arithmetic in n plain
// worker threads at once (a shared VM may give fewer cores' worth of time than it reports).
const SPIN = `const { parentPort, workerData } = require('node:worker_threads');
let x = 0; for (let i = 0; i < workerData; i++) x += Math.sqrt(i) * Math.sin(i);
parentPort.postMessage(x);`;

// A second reference that moves memory as decoding does: fresh 4 MB buffers filled and copied,
// so the allocator, page faults and memory bandwidth are shared between the threads as in a task.
const MEMORY_CHURN = `const { parentPort, workerData } = require('node:worker_threads');
let x = 0; for (let i = 0; i < workerData; i++) { const a = new Uint8Array(1 << 22); a.fill(i & 255); const b = a.slice(); x += b[i & 4095]; }
parentPort.postMessage(x);`;

async function machineScaling(size: number, source = SPIN, work = 30_000_000): Promise<number> {
  const t = performance.now();
  await Promise.all(Array.from({ length: size }, () => new Promise((resolve, reject) => {
    const w = new Worker(source, { eval: true, workerData: work });
    w.once('message', resolve);
    w.once('error', reject);
  })));
  return size / ((performance.now() - t) / 1000);
}

/**
 * A pool's speedups held to the machine's own: each call gives a pool size and the rate it reached,
 * and answers that rate's speedup over the first call's beside what plain arithmetic (SPIN) and
 * memory churn (MEMORY_CHURN) gain on as many plain threads, measured then, over their first.
 */
export function againstMachine() {
  let first: { rate: number; machine: number; memory: number } | undefined;
  const two = (v: number) => Number(v.toFixed(2));
  return async (size: number, rate: number) => {
    const machine = await machineScaling(size);
    const memory = await machineScaling(size, MEMORY_CHURN, 400);
    first ??= { rate, machine, memory };
    const speedup = rate / first.rate;
    const machineSpeedup = machine / first.machine;
    return { speedup: two(speedup), machine_speedup: two(machineSpeedup), ratio: two(speedup / machineSpeedup), memory_speedup: two(memory / first.memory) };
  };
}

async function poolScaling(root: string, dataDir: string, sizes: number[]) {
  const archive = await openDemoArchive({ dataDir, root });
  // One plot per site: the tasks' inputs are fetched once, then each pool decodes and computes them.
  const plans: PlotPlan[] = [];
  for (const spec of DEMO_SITES) plans.push(await planRead(sitePlot(spec.name), archive));
  const out: Array<{ size: number; plots_per_s: number; speedup: number; machine_speedup: number; ratio: number; memory_speedup: number; task_ms: number; threads_busy: number; main_busy: number; main_ms_per_task: number }> = [];
  const scaled = againstMachine();
  // Enough tasks that the last round's stragglers do not decide the rate: at least four per thread
  // of the largest pool. Each plot is computed as its lane takes it, its steps shipped and released
  // one by one (read-plot.ts), so the run holds the tiles of the steps in flight, not of every task
  // at once (shipping them all first grew to 22.5 GB on the real layouts). Each pool size gets a
  // fresh cache of a worker's default size, whose spare slots are handed on to the next tasks; the
  // sites lie far apart, so a round's tasks decode their own tiles.
  const rounds = Math.ceil((4 * Math.max(...sizes)) / plans.length);
  for (const size of sizes) {
    const tasks: PlotPlan[] = [];
    for (let r = 0; r < rounds; r++) tasks.push(...plans);
    const tiles = new DecodedTiles();
    const pool = createPool({ size });
    await warmUp(pool, size);
    const t = performance.now();
    const loop = perf.eventLoopUtilization();
    // One task per thread in flight, as jobs running side by side would keep them.
    let next = 0;
    let taskMs = 0;
    await Promise.all(Array.from({ length: size }, async () => {
      for (let i = next++; i < tasks.length; i = next++) {
        const plan = tasks[i];
        const started = performance.now();
        await computePlan(plan, { pool, tiles });
        taskMs += performance.now() - started;
      }
    }));
    const seconds = (performance.now() - t) / 1000;
    // The main thread's share of the run: sending each task and taking its answer back.
    const mainBusy = perf.eventLoopUtilization(loop).utilization;
    await pool.close();
    const rate = tasks.length / seconds;
    out.push({
      size,
      plots_per_s: Number(rate.toFixed(2)),
      ...(await scaled(size, rate)),
      // A plot's time as its caller sees it (its steps with their shipping), and the share of the run each lane spent in one.
      task_ms: Math.round(taskMs / tasks.length),
      threads_busy: Number((taskMs / (size * seconds * 1000)).toFixed(2)),
      main_busy: Number(mainBusy.toFixed(2)),
      main_ms_per_task: Number(((mainBusy * seconds * 1000) / tasks.length).toFixed(1)),
    });
  }
  await archive.close();
  return out;
}

export default async function (args: string[]) {
  const cores = os.availableParallelism();
  const sizes = arg(args, 'pool', [1, 2, 4, 8, 16].filter((n) => n <= cores).join(',')).split(',').map(Number);
  const plots = Number(arg(args, 'plots', '100'));
  const latency = Number(arg(args, 'latency', '50'));
  const bandwidth = Number(arg(args, 'bandwidth', '50'));
  const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-job-'));
  try {
    const root = await world();
    // `--only pool` measures the pool's scaling alone (a quick run on a lent multicore host).
    const poolOnly = arg(args, 'only', 'all') === 'pool';
    const single = poolOnly ? undefined : await singlePlot(root, dataDir, Math.min(2, cores));
    if (single) console.log(`one ${single.area_ha} ha plot (${single.site}, ${single.seasons} seasons, ${single.scenes_kept} scenes kept), pool of ${single.pool_size}: cold ${single.cold_ms} ms, warm ${single.warm_ms} ms (best ${single.warm_best_ms} ms)`);
    const job = poolOnly ? undefined : await hundredPlots(root, dataDir, plots, latency, bandwidth, cores);
    if (job) {
      console.log(`job of ${job.plots} plots through the local archive server at ${job.latency_ms} ms latency and ${job.bandwidth_mb_s} MB/s, pool of ${job.pool_size}: ${job.seconds} s, ${job.plots_per_minute} plots/min (${job.seconds_per_plot} s a plot, ${job.requests_per_plot} requests a plot); ${job.times_faster_than_reference}x the reference's 3 min a plot`);
      console.log(`  fetched ${job.mb_fetched_per_plot} MB a plot (${job.unique_mb} MB distinct in all: ${job.bandwidth_limit_s} s at the cap, the job took ${job.time_over_bandwidth_limit}x that); ${job.tiles_decoded_per_plot} tiles decoded a plot; hit rates: decoded tiles ${job.decoded_tile_hit_rate}, range cache ${job.range_cache_hit_rate}`);
    }
    const pool = await poolScaling(root, dataDir, sizes);
    for (const p of pool) console.log(`pool of ${p.size}: ${p.plots_per_s} plot tasks/s (${p.speedup}x one thread; plain arithmetic on as many threads: ${p.machine_speedup}x, ratio ${p.ratio}; memory churn on as many threads: ${p.memory_speedup}x); ${p.task_ms} ms a task, threads busy ${p.threads_busy}, main thread busy ${p.main_busy} (${p.main_ms_per_task} ms a task)`);
    console.log(JSON.stringify({
      bench: 'job',
      plot_10ha: single,
      job,
      plots_per_minute: job?.plots_per_minute,
      pool,
      cores,
      node: process.version,
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
