// `npm run bench -- tiles`: map tiles drawn over the demo world through GET /tiles, with the
// engine's pool at one thread and at every core.
//
// For each pool size, TILES tiles around a demo site (true colour and NDVI of one scene, zooms 15
// to 17) are asked for at once from a client thread of their own: first with every cache empty
// (cold: the archive's headers, compressed bytes and decoded tiles all read for the first time),
// then the same tiles again with those caches warm (the disk cache of rendered tiles is off,
// MAP_TILE_CACHE_MB=0, so every tile is drawn again). Figures: tiles per second, and the most CPU
// time the API's thread spent between two turns of its loop (`max_busy_ms`, the 20 ms target),
// garbage collection included; beside it the same over turns without a collection, and the
// collections' count and longest pause (wall time). The process exits 1 when a burst held the
// thread 20 ms or more.
// While the warm burst renders, the client thread also asks GET /portal/plots one call after
// another; its p99 latency is set against the same calls with no tile in flight (the reference).
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { runAdminCommand } from '../src/admin/commands.ts';
import { openDemoArchive } from '../src/demo/open-archive.ts';
import type { Archive } from '../src/engine/archive.ts';
import { lonLatToTile } from '../src/engine/kernels/web-mercator.ts';
import { insertSitePlot, site } from '../test/engine/evidence-helpers.ts';
import { startTestApp } from '../test/support/app.ts';
import { demoWorld } from '../test/support/demo-world.ts';
import { loopDelayDuring } from '../test/support/event-loop.ts';

const SITE = 'th-surat-thani-rubber';
const TILES = 150;
const TARGET_MS = 20;
const PLOTS_IN_REGISTER = 7;

const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { tiles, list, headers } = workerData;
const timed = async (url) => {
  const t = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(url + ' answered ' + res.status);
  return performance.now() - t;
};
parentPort.on('message', async (what) => {
  const listed = [];
  let rendering = what === 'tiles';
  const lists = (async () => {
    // The register asked one call after another, for as long as the tiles render (or 100 calls alone).
    for (let n = 0; rendering ? true : n < 100; n++) {
      listed.push(await timed(list));
      if (!rendering && what === 'tiles') break;
    }
  })();
  const t = performance.now();
  if (what === 'tiles') await Promise.all(tiles.map(timed));
  const seconds = (performance.now() - t) / 1000;
  rendering = false;
  await lists;
  parentPort.postMessage({ seconds, listed });
});
parentPort.postMessage('ready');
`;

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] * 10) / 10;
};

async function client(data: { tiles: string[]; list: string; headers: Record<string, string> }) {
  const worker = new Worker(CLIENT, { eval: true, workerData: data });
  await new Promise((resolve) => worker.once('message', resolve));
  const ask = (what: 'tiles' | 'list') => new Promise<{ seconds: number; listed: number[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(what);
  });
  return { ask, close: () => worker.terminate() };
}

async function oneScene(archive: Archive, lon: number, lat: number): Promise<string> {
  const d = 0.001;
  const scenes = await archive.sentinel2.search({ bbox: [lon - d, lat - d, lon + d, lat + d], start: '2020-01-01', end: '2020-12-31' });
  const clearest = scenes.sort((a, b) => (a.cloudCover ?? 100) - (b.cloudCover ?? 100))[0];
  if (clearest === undefined) throw new Error(`no Sentinel-2 scene over ${SITE} in 2020`);
  return clearest.id;
}

function tilePaths(lon: number, lat: number, scene: string): string[] {
  const out: string[] = [];
  for (let z = 17; out.length < TILES; z--) {
    const c = lonLatToTile(lon, lat, z);
    for (let dy = -2; dy <= 2 && out.length < TILES; dy++) {
      for (let dx = -2; dx <= 2 && out.length < TILES; dx++) {
        for (const layer of ['true_colour', 'ndvi']) if (out.length < TILES) out.push(`/api/v1/tiles/${layer}/${z}/${Math.floor(c.x) + dx}/${Math.floor(c.y) + dy}.png?scene=${scene}`);
      }
    }
  }
  return out;
}

async function run(root: string, poolSize: number) {
  let archive: Archive | null = null;
  const app = await startTestApp('postgresql', { POOL_SIZE: String(poolSize), MAP_TILE_CACHE_MB: '0' }, { archive: async () => (archive ??= await openDemoArchive({ dataDir: root, root })) });
  try {
    const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Tiles', plan: 'enterprise', email: 'tiles@bench.test', password: 'bench pass' });
    const em = app.services.store.em();
    for (let i = 0; i < PLOTS_IN_REGISTER; i++) await insertSitePlot(em, created.workspace_id as string, SITE, { ref: `TILE-${i}` });
    const [lon, lat] = site(SITE).centre;
    const scene = await oneScene(await app.services.archive(), lon, lat);
    const headers = { authorization: `Bearer ${created.api_key as string}` };
    const c = await client({ tiles: tilePaths(lon, lat, scene).map((p) => app.url + p), list: `${app.url}/api/v1/portal/plots`, headers });
    try {
      const idle = await c.ask('list');
      const cold = await loopDelayDuring(() => c.ask('tiles'));
      const warm = await loopDelayDuring(() => c.ask('tiles'));
      return {
        tiles_per_s_cold: Math.round((TILES / cold.result.seconds) * 10) / 10,
        tiles_per_s_warm: Math.round((TILES / warm.result.seconds) * 10) / 10,
        max_busy_ms_cold: cold.delay.max_busy_ms,
        max_busy_ms_warm: warm.delay.max_busy_ms,
        max_busy_outside_gc_ms_cold: cold.delay.max_busy_outside_gc_ms,
        max_busy_outside_gc_ms_warm: warm.delay.max_busy_outside_gc_ms,
        gc_pauses: cold.delay.gc.pauses + warm.delay.gc.pauses,
        gc_max_pause_ms: Math.max(cold.delay.gc.max_ms, warm.delay.gc.max_ms),
        list_p99_ms_idle: p99(idle.listed),
        list_p99_ms_rendering: p99(warm.result.listed),
        list_calls_rendering: warm.result.listed.length,
      };
    } finally {
      await c.close();
    }
  } finally {
    await app.close();
    await (archive as Archive | null)?.close();
  }
}

export default async function tilesBench(): Promise<void> {
  const { root } = await demoWorld();
  const cores = os.availableParallelism();
  const figures: Record<string, Awaited<ReturnType<typeof run>>> = {};
  for (const size of [...new Set([1, cores])]) figures[`pool_${size}`] = await run(root, size);
  const one = figures.pool_1;
  for (const [name, f] of Object.entries(figures)) {
    console.log(`${name}: cold ${f.tiles_per_s_cold} tiles/s, warm ${f.tiles_per_s_warm} tiles/s; the API's thread held at most ${f.max_busy_ms_cold} ms cold, ${f.max_busy_ms_warm} ms warm${Math.max(f.max_busy_ms_cold, f.max_busy_ms_warm) < TARGET_MS ? '' : ` (over ${TARGET_MS} ms)`} (${f.max_busy_outside_gc_ms_cold} and ${f.max_busy_outside_gc_ms_warm} ms in turns without a collection; ${f.gc_pauses} collections, the longest ${f.gc_max_pause_ms} ms); GET /portal/plots p99 ${f.list_p99_ms_rendering} ms while rendering (${f.list_calls_rendering} calls) against ${f.list_p99_ms_idle} ms idle`);
  }
  const ratios = Object.fromEntries(Object.entries(figures).map(([name, f]) => [name, {
    warm_over_cold: Math.round((f.tiles_per_s_warm / f.tiles_per_s_cold) * 100) / 100,
    warm_over_pool_1_warm: Math.round((f.tiles_per_s_warm / one.tiles_per_s_warm) * 100) / 100,
    list_p99_rendering_over_idle: Math.round((f.list_p99_ms_rendering / f.list_p99_ms_idle) * 100) / 100,
  }]));
  // The target is held here, run by hand: test/api/map-tiles.test.ts holds the test's burst only to what no load explains.
  const over = Object.keys(figures).filter((name) => !(Math.max(figures[name].max_busy_ms_cold, figures[name].max_busy_ms_warm) < TARGET_MS));
  console.log(JSON.stringify({ bench: 'tiles', tiles: TILES, cores, target_ms: TARGET_MS, figures, ratios, over_target: over, load_average: os.loadavg().map((l) => +l.toFixed(1)), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown' }));
  if (over.length > 0) process.exitCode = 1;
}
