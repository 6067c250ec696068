/**
 * How a plot's read is split. Its scene masks (SCL, QA_PIXEL) are shipped first and read by the
 * pool's `clear` task, so a clouded scene's bands (a 1024² tile a band on the real Sentinel-2
 * layout) are never fetched: a scene whose mask calls too little of the plot clear leaves the plan
 * for `skipped`. The record is then read in runs of scenes whose tiles stay within a bound, so a
 * plot at the sensors' real revisit (some 440 scenes, 2 to 3 GB of whole tiles) never holds them
 * all at once.
 */
import { operatingPoints as op } from '../operating-points.ts';
import type { SkippedScene } from '../evidence-object.ts';
import type { RasterRequest } from '../sources/raster-request.ts';
import { decodedBytes, decodedBytesBound } from './raster-shipment.ts';
import type { OpticalScenePlan } from '../worker/tasks.ts';
import type { PlotPlan } from './read-plan.ts';

/**
 * The mask's share is taken on its own grid (20 m for SCL) before cloud edges are buffered, an
 * upper bound on the plot task's clear fraction up to the resampling onto the red band's grid; a
 * scene this close under the line is still fetched and left to the plot task.
 */
const RESAMPLING_MARGIN = 0.02;

/** Why a scene with this share of the plot clear is not read (also the evidence's words for a scene the plot task finds so). */
export function underClearLine(share: number): string {
  return `${Math.round(share * 100)}% of the plot clear, under the ${Math.round(op.scenes.minClearFraction * 100)}% a scene needs`;
}

export const maskKeys = (o: OpticalScenePlan) => [o.clear.key];
export const sceneKeys = (o: OpticalScenePlan) => [o.red, o.nir, o.clear.key, ...(o.aot ? [o.aot.key] : []), ...(o.aerosolQa ? [o.aerosolQa.key] : []), ...(o.boaCheck ? [o.boaCheck.blue] : [])];

/** The requests of `scenes` (indices in `task.optical`), the windows `keysOf` names of each. */
export function sceneRequests(plan: PlotPlan, scenes: readonly number[], keysOf: (o: OpticalScenePlan) => string[] = sceneKeys): RasterRequest[] {
  const keys = new Set(scenes.flatMap((k) => keysOf(plan.task.optical[k])));
  return plan.requests.filter((r) => keys.has(r.key));
}

/** The requests of every layer but the optical scenes': what the plot task reads beside the record. */
export function otherRequests(plan: PlotPlan): RasterRequest[] {
  const keys = new Set(plan.task.optical.flatMap(sceneKeys));
  return plan.requests.filter((r) => !keys.has(r.key));
}

/**
 * The plot's scenes in runs, in the record's order, whose windows' tiles (those `keysOf` names)
 * decode to at most `bytes` together; a scene larger than that alone makes a run.
 */
export function sceneGroups(plan: PlotPlan, bytes: number, keysOf: (o: OpticalScenePlan) => string[] = sceneKeys): number[][] {
  const all = plan.task.optical.map((_, k) => k);
  if (all.length === 0) return [];
  // The whole record under the bound, counted coarsely: one run, without counting each scene's tiles.
  if (decodedBytesBound(sceneRequests(plan, all, keysOf)) <= bytes) return [all];
  const byKey = new Map(plan.requests.map((r) => [r.key, r]));
  const groups: number[][] = [];
  let held = Infinity;
  plan.task.optical.forEach((o, k) => {
    const size = decodedBytes(keysOf(o).flatMap((key) => byKey.get(key) ?? []));
    if (held + size > bytes) {
      groups.push([]);
      held = 0;
    }
    groups[groups.length - 1].push(k);
    held += size;
  });
  return groups;
}

/** The plan without the scenes whose mask calls too little of the plot clear (`clear` in the order of `task.optical`), each skipped with why. */
export function withoutClouded(plan: PlotPlan, clear: ReadonlyArray<number | null>): PlotPlan {
  const dropped = plan.task.optical.flatMap((_, k) => {
    const c = clear[k];
    return c !== null && c < op.scenes.minClearFraction - RESAMPLING_MARGIN ? [k] : [];
  });
  if (dropped.length === 0) return plan;
  const kept = <T>(xs: readonly T[]) => xs.filter((_, k) => !dropped.includes(k));
  const optical = kept(plan.task.optical);
  const stillRead = new Set(optical.flatMap(sceneKeys));
  const unread = new Set(dropped.flatMap((k) => sceneKeys(plan.task.optical[k])).filter((key) => !stillRead.has(key)));
  const skipped: SkippedScene[] = dropped.map((k) => ({ scene: plan.scenes[k].id, at: plan.scenes[k].date, why: underClearLine(clear[k]!) }));
  return {
    ...plan,
    requests: plan.requests.filter((r) => !unread.has(r.key)),
    task: { ...plan.task, optical },
    scenes: kept(plan.scenes),
    skipped: [...plan.skipped, ...skipped].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
  };
}
