/**
 * `npm run bench -- scan [--plots 50] [--latency 50] [--pixels 1000000]`
 *
 * 1. A scan of 50 plots (the demo sites, shifted, three of them under published alerts) through
 *    the scan's own path (register read, the GFW Data API adapter, clustering on the alert pool)
 *    against the local archive server in a process of its own, every request delayed by
 *    `--latency` ms: seconds, and requests per plot from the server's log. Reference, measured in
 *    the same run: the same plots scanned one after another.
 * 2. Clustering throughput on a synthetic alert raster of `--pixels` pixels (square patches of
 *    cleared cells, dates spread over two years so some neighbours fall more than 90 days apart):
 *    pixels per second, against a plain pass over the same arrays.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance as perf } from 'node:perf_hooks';
import { createAlertPool } from '../src/alerts/pool.ts';
import { scanAlerts, scanPlot } from '../src/alerts/scan.ts';
import { DEMO_GFW_API_KEY } from '../src/demo/api-transport.ts';
import { buildSiteModel } from '../src/demo/site-model.ts';
import { DEMO_SITES } from '../src/demo/sites.ts';
import { DEMO_SEED } from '../src/demo/world.ts';
import { alertClusters, type AlertPixels } from '../src/engine/kernels/alert-clusters.ts';
import { createHttpClient } from '../src/engine/sources/http-client.ts';
import { ALERT_PIXEL_DEG } from '../src/engine/sources/products/gfw-alerts/codes.ts';
import { createAlertsAdapter } from '../src/engine/sources/products/gfw-alerts/reader.ts';
import { openStore } from '../src/store/orm.ts';
import { plotsToScan } from '../src/store/register/alerts.ts';
import { demoWorld, TEST_SITES } from '../test/support/demo-world.ts';
import { serveArchiveProcess } from './archive-server-process.ts';

function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
}

/** `count` plots: the test world's sites in turn, each round shifted 40 m so no two are the same boundary. */
function plotRings(count: number): Array<{ name: string; ring: number[][] }> {
  const out: Array<{ name: string; ring: number[][] }> = [];
  for (let i = 0; out.length < count; i++) {
    const spec = DEMO_SITES.find((s) => s.name === TEST_SITES[i % TEST_SITES.length])!;
    const shift = Math.floor(i / TEST_SITES.length) * 40 / 111_320;
    out.push({ name: spec.name, ring: buildSiteModel(spec, DEMO_SEED).lonLatRing.map(([x, y]) => [x + shift, y]) });
  }
  return out;
}

async function scanOfPlots(plots: number, latencyMs: number) {
  const { root } = await demoWorld();
  const server = await serveArchiveProcess(root, { latencyMs });
  const store = await openStore({ databaseUrl: null, pgliteDir: 'memory://' });
  await store.migrate();
  const pool = createAlertPool(2);
  try {
    const em = store.em();
    const workspaceId = randomUUID();
    const ids: string[] = [];
    for (const { name, ring } of plotRings(plots)) {
      const id = randomUUID();
      ids.push(id);
      await em.execute(
        `insert into plots (id, workspace_id, external_ref, area_ha, geometry, validation_state, validation_report, created_at, updated_at)
         values (?, ?, ?, 10, ?::jsonb, 'valid', '{"findings":[],"repairs":[],"rejections":[]}'::jsonb, now(), now())`,
        [id, workspaceId, `${name}-${ids.length}`, JSON.stringify({ type: 'Polygon', coordinates: [ring] })],
      );
    }
    // A fresh adapter per pass: each pass asks the catalogue for the newest version once, as a process does after its cache expires.
    const source = () => createAlertsAdapter({ where: { root: server.url, synthetic: true }, http: createHttpClient(), apiKey: DEMO_GFW_API_KEY });
    const request = { plotIds: ids, start: '2021-01-01', end: '2025-12-31', product: 'integrated' as const, minAreaHa: 0 };
    // The pool's threads start before timing, as in a process that has served a scan.
    await scanAlerts({ em, source: source(), clusters: pool.clusters }, workspaceId, request);

    await server.clearRequests();
    let t = perf.now();
    const { answer } = await scanAlerts({ em, source: source(), clusters: pool.clusters }, workspaceId, request);
    const scanS = (perf.now() - t) / 1000;
    const requests = (await server.requests()).length;

    t = perf.now();
    const oneByOne = { source: source(), clusters: pool.clusters };
    for (const plot of await plotsToScan(em, workspaceId, ids)) await scanPlot(oneByOne, plot, request);
    const sequentialS = (perf.now() - t) / 1000;
    return { plots, latency_ms: latencyMs, seconds: +scanS.toFixed(3), requests_per_plot: +(requests / plots).toFixed(2), alerts_found: answer.alerts_found, plots_with_alerts: answer.plots_with_alerts, sequential_seconds: +sequentialS.toFixed(3), speedup_over_sequential: +(sequentialS / scanS).toFixed(2) };
  } finally {
    await pool.close();
    await store.close();
    await server.close();
  }
}

/** Square patches of 30 × 30 cells on a grid with gaps, dated patch by patch over two years. */
function syntheticRaster(pixels: number): AlertPixels {
  const px: AlertPixels = { lon: new Float64Array(pixels), lat: new Float64Array(pixels), day: new Int32Array(pixels), level: new Uint8Array(pixels) };
  const side = 30;
  const perRow = 40;
  const start = Date.UTC(2022, 0, 1) / 86_400_000;
  for (let i = 0; i < pixels; i++) {
    const patch = Math.floor(i / (side * side));
    const within = i % (side * side);
    const col = (patch % perRow) * (side + 2) + (within % side);
    const row = Math.floor(patch / perRow) * (side + 2) + Math.floor(within / side);
    px.lon[i] = 102 + (col + 0.5) * ALERT_PIXEL_DEG;
    px.lat[i] = 0.5 + (row + 0.5) * ALERT_PIXEL_DEG;
    // Half of each patch a season after the other half: 120 days apart splits it in two.
    px.day[i] = start + (patch * 37) % 600 + (within % side < side / 2 ? 0 : 120);
    px.level[i] = 1 + (i % 3);
  }
  return px;
}

function clustering(pixels: number) {
  const px = syntheticRaster(pixels);
  let best = Infinity;
  let clusters = 0;
  for (let round = 0; round < 5; round++) {
    const t = perf.now();
    clusters = alertClusters(px, ALERT_PIXEL_DEG, 90).length;
    best = Math.min(best, perf.now() - t);
  }
  // The reference: one plain pass reading the same arrays.
  let plain = Infinity;
  let sink = 0;
  for (let round = 0; round < 5; round++) {
    const t = perf.now();
    for (let i = 0; i < pixels; i++) sink += px.lon[i] + px.lat[i] + px.day[i] + px.level[i];
    plain = Math.min(plain, perf.now() - t);
  }
  if (sink === 0.5) console.log('');
  return { pixels, clusters, ms: +best.toFixed(1), pixels_per_s: Math.round(pixels / (best / 1000)), plain_pass_ms: +plain.toFixed(2), ratio_to_plain_pass: +(best / plain).toFixed(1) };
}

export default async function scan(args: string[]) {
  const plots = Number(arg(args, 'plots', '50'));
  const latency = Number(arg(args, 'latency', '50'));
  const pixels = Number(arg(args, 'pixels', '1000000'));
  const scanFigures = await scanOfPlots(plots, latency);
  console.log(`scan of ${plots} plots at ${latency} ms latency: ${scanFigures.seconds} s (${scanFigures.requests_per_plot} requests a plot, ${scanFigures.alerts_found} alerts on ${scanFigures.plots_with_alerts} plots); one plot after another: ${scanFigures.sequential_seconds} s`);
  const clusterFigures = clustering(pixels);
  console.log(`clustering ${pixels} pixels into ${clusterFigures.clusters} alerts: ${clusterFigures.ms} ms (${clusterFigures.pixels_per_s} pixels/s), ${clusterFigures.ratio_to_plain_pass}× a plain pass over the arrays`);
  console.log(JSON.stringify({ bench: 'scan', scan: scanFigures, clustering: clusterFigures, cores: os.availableParallelism(), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown' }));
}
