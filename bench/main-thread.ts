/**
 * `npm run bench -- main-thread [--plots 60] [--seed 1] [--rounds 7]`
 *
 * The main thread's own CPU a plot, away from the pool's threads: in a job on two cores the
 * main thread shares them with two busy pool threads, and its CPU a plot moves by a fifth from run
 * to run (bench/RESULTS.md, "book"), more than a change to one of its steps does. Here the first
 * plots of the book world are read once through the pool (every tile decoded, every task's answer
 * kept); then, on this thread alone, each plot's read is planned again (`plan_ms`), and its steps are
 * shipped and posted to a port as they go to a thread, the pool's answers replayed (`ship_ms`:
 * finding the tiles, lending slots, packing, the structured clone). Beside it, the reference: the
 * same shipments posted as the objects they are built as (`post_objects_ms`) and as they travel,
 * packed (`pack_and_post_ms`). Each figure is the best of `--rounds`, over thread CPU time.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { bookPath, bookWorld, ensureBookWorld } from '../src/demo/book-world/world.ts';
import { openDemoArchive } from '../src/demo/open-archive.ts';
import { DecodedTiles } from '../src/engine/plan/raster-shipment.ts';
import { planRead, type PlotPlan, type PlotToRead } from '../src/engine/plan/read-plan.ts';
import { computePlan } from '../src/engine/read-plot.ts';
import { createPool, type EnginePool } from '../src/engine/worker/pool.ts';
import { packShipment, type RasterShipment, unpackShipment } from '../src/engine/worker/shipment-wire.ts';

export function arg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
}

/** This thread's CPU time in ms. */
export const cpuMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

/** The least CPU ms of `rounds` runs of `fn`, over `per`. */
async function best(rounds: number, per: number, fn: () => Promise<void> | void): Promise<number> {
  let least = Infinity;
  for (let r = 0; r < rounds; r++) {
    const c = cpuMs();
    await fn();
    least = Math.min(least, cpuMs() - c);
  }
  return Number((least / per).toFixed(3));
}

export default async function mainThread(args: string[]): Promise<void> {
  const count = Number(arg(args, 'plots', '60'));
  const rounds = Number(arg(args, 'rounds', '7'));
  const w = bookWorld(join(os.tmpdir(), 'precutoff-bench-book'), Number(arg(args, 'seed', '1')), 1000);
  await ensureBookWorld(w);
  const features = (JSON.parse(readFileSync(bookPath(w), 'utf8')) as { features: Array<{ properties: { ref: string; area_ha: number }; geometry: PlotToRead['geometry'] }> }).features.slice(0, count);
  const plots = features.map((f): PlotToRead => ({ id: f.properties.ref, workspaceId: 'bench', ref: f.properties.ref, geometry: f.geometry, areaHa: f.properties.area_ha, declaredAreaHa: null, country: 'CI', producerCountry: 'CI' }));
  const archive = await openDemoArchive({ dataDir: join(w.dir, 'bench-data'), root: w.root });
  const pool = createPool({ size: os.availableParallelism() });
  const tiles = new DecodedTiles({ maxBytes: 2 ** 30 });
  const plans: PlotPlan[] = [];
  for (const p of plots) plans.push(await planRead(p, archive));
  // Read once through the pool: every tile decoded, every answer and shipment kept, in order.
  const answers: unknown[] = [];
  const shipments: RasterShipment[] = [];
  const recording: EnginePool = { ...pool, run: async (task, params, opts) => {
    const answer = await pool.run(task, params, opts);
    answers.push(answer);
    shipments.push((params as { shipment: RasterShipment }).shipment);
    return answer;
  } };
  for (const plan of plans) await computePlan(plan, { pool: recording, tiles });
  await pool.close();

  const { port1, port2 } = new MessageChannel();
  port2.on('message', () => {});
  let next = 0;
  const replaying = { size: 1, queued: 0, close: async () => {}, run: async (_task: string, params: unknown) => {
    port1.postMessage(params);
    return answers[next++ % answers.length];
  } } as unknown as EnginePool;
  const objects = shipments.map(unpackShipment);
  const figures = {
    plan_ms: await best(rounds, plots.length, async () => {
      for (const p of plots) await planRead(p, archive);
    }),
    ship_ms: await best(rounds, plots.length, async () => {
      next = 0;
      for (const plan of plans) await computePlan(plan, { pool: replaying, tiles });
    }),
    post_objects_ms: await best(rounds, plots.length, () => {
      for (const o of objects) port1.postMessage(o);
    }),
    pack_and_post_ms: await best(rounds, plots.length, () => {
      for (const o of objects) port1.postMessage(packShipment(o));
    }),
  };
  port1.close();
  await archive.close();
  const tilesAPlot = objects.reduce((n, o) => n + o.tiles.length, 0) / plots.length;
  const windowsAPlot = objects.reduce((n, o) => n + o.rasters.length, 0) / plots.length;
  console.log(`main thread, ${plots.length} plots of the book (${tilesAPlot.toFixed(0)} tiles and ${windowsAPlot.toFixed(0)} windows shipped a plot), CPU ms a plot, best of ${rounds}: planning ${figures.plan_ms}, shipping its steps ${figures.ship_ms}; posting its shipments as objects ${figures.post_objects_ms}, packed ${figures.pack_and_post_ms} (packing included)`);
  console.log(JSON.stringify({ bench: 'main-thread', plots: plots.length, tiles_a_plot: Math.round(tilesAPlot), windows_a_plot: Math.round(windowsAPlot), ...figures, packed_over_objects: Number((figures.pack_and_post_ms / figures.post_objects_ms).toFixed(2)), cores: os.availableParallelism(), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown' }));
}
