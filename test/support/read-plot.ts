/**
 * Reads a plot as finishPlot does, with no database: planned against an archive, computed step by
 * step with every pool task run on this thread, decided and assembled into its evidence object.
 */
import { area } from '@turf/turf';
import type { Polygon } from 'geojson';
import type { Archive } from '../../src/engine/archive.ts';
import { assembleEvidence } from '../../src/engine/assemble-evidence.ts';
import { DecodedTiles } from '../../src/engine/plan/raster-shipment.ts';
import { planRead, type PlotToRead } from '../../src/engine/plan/read-plan.ts';
import { computePlan, decisionOf } from '../../src/engine/read-plot.ts';
import type { EnginePool } from '../../src/engine/worker/pool.ts';
import * as tasks from '../../src/engine/worker/plot-task.ts';
import type { EngineTasks } from '../../src/engine/worker/tasks.ts';

/** A pool of this thread: each task run at once on a clone of its params, as a thread would receive them. */
export const thisThread: EnginePool = {
  size: 1,
  queued: 0,
  run: async <K extends keyof EngineTasks>(task: K, params: EngineTasks[K]['params']) => (tasks[task] as (p: EngineTasks[K]['params']) => EngineTasks[K]['result'])(structuredClone(params)),
  close: async () => {},
};

/** A footprint as the engine reads a plot: its area from its geometry, none declared. */
export function plotToRead(footprint: Polygon, country: string, ref = 'plot'): PlotToRead {
  return { id: 'p1', workspaceId: 'w1', ref, geometry: footprint, areaHa: area(footprint) / 10_000, declaredAreaHa: null, country, producerCountry: country };
}

export async function readPlotHere(archive: Archive, footprint: Polygon, country: string) {
  const { plan, result } = await computePlan(await planRead(plotToRead(footprint, country), archive), { pool: thisThread, tiles: new DecodedTiles() });
  const decision = decisionOf(plan, result);
  return { plan, result, decision, evidence: assembleEvidence({ plan, result, decision, issued: new Date('2026-11-24T00:00:00Z'), synthetic: true }) };
}
