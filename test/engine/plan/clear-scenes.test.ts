// The plan split: a scene whose mask calls too little of the plot clear leaves the plan before its
// other bands are fetched, and says why; the record is read in runs of scenes of bounded tiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskKeys, otherRequests, sceneGroups, sceneRequests, underClearLine, withoutClouded } from '../../../src/engine/plan/clear-scenes.ts';
import type { PlotPlan } from '../../../src/engine/plan/read-plan.ts';
import { clearShare, sclClearLookup } from '../../../src/engine/kernels/scene-stats.ts';
import { operatingPoints as op } from '../../../src/engine/operating-points.ts';
import type { OpticalScenePlan } from '../../../src/engine/worker/tasks.ts';

function scene(id: string, day: number, shared?: string): OpticalScenePlan {
  return {
    id, sensor: 'sentinel-2', day, red: `${id}/red`, nir: `${id}/nir`, clear: { key: `${id}/scl`, kind: 'scl' },
    aot: { key: shared ?? `${id}/aot`, encoding: { scale: 0.001, offset: 0, nodata: 0 } }, aerosolQa: null, reflectance: { scale: 1e-4, offset: 0, nodata: 0 }, boaCheck: null,
  };
}

function planOf(optical: OpticalScenePlan[]): PlotPlan {
  const keys = [...new Set(optical.flatMap((o) => [o.red, o.nir, o.clear.key, o.aot!.key])), 'palsar/hv'];
  return {
    task: { optical },
    scenes: optical.map((o) => ({ id: o.id, sensor: o.sensor, date: new Date(o.day * 86_400_000).toISOString().slice(0, 10) })),
    // Each window on a file of its own, touching one 1024² uint16 tile (2 MiB decoded).
    requests: keys.map((key) => ({
      key,
      window: { x0: 0, y0: 0, width: 40, height: 40 },
      cog: { id: key, tilesFor: () => [{ index: 0, length: 100 }], tileSpec: () => ({ compression: 8, predictor: 2, dtype: 'uint16', width: 1024, height: 1024 }) },
    })),
    skipped: [{ scene: 'earlier', at: '2016-01-01', why: 'its files could not be read (not_found)' }],
  } as unknown as PlotPlan;
}

test('a mask clear share is the share of the plot pixels holding data whose class is clear, before any buffering', () => {
  // A 4×2 window, plot pixels 1..6 in two runs; SCL 4 vegetation and 5 bare soil clear, 9 cloud not, 0 no data (not counted).
  const mask = { width: 4, height: 2, inside: new Uint8Array(8), spans: Int32Array.of(1, 4, 4, 7), count: 6 };
  const classes = Uint8Array.of(4, 4, 9, 5, 0, 4, 9, 4);
  assert.equal(clearShare(mask, classes, sclClearLookup(op.scenes.sclClearClasses), 0), 3 / 5);
  assert.equal(clearShare(mask, Uint8Array.of(4, 0, 0, 0, 0, 0, 0, 4), sclClearLookup([4]), 0), null);
  assert.equal(clearShare({ ...mask, spans: new Int32Array(0), count: 0 }, classes, sclClearLookup([4]), 0), null);
});

test('scenes under the clear line leave the plan with why, their bands unfetched; others and shared windows stay', () => {
  const line = op.scenes.minClearFraction;
  const optical = [scene('a', 17000), scene('b', 17010, 'shared/aot'), scene('c', 17020, 'shared/aot'), scene('d', 17030), scene('e', 17040)];
  const plan = planOf(optical);
  assert.deepEqual(sceneRequests(plan, [0, 1, 2, 3, 4], maskKeys).map((r) => r.key), ['a/scl', 'b/scl', 'c/scl', 'd/scl', 'e/scl']);
  // b is clouded, c just under the line (left to the plot task, which buffers cloud edges on the red grid), d has no plot pixel on its mask.
  const split = withoutClouded(plan, [0.95, 0.3, line - 0.01, null, 0]);
  assert.deepEqual(split.task.optical.map((o) => o.id), ['a', 'c', 'd']);
  assert.deepEqual(split.scenes.map((s) => s.id), ['a', 'c', 'd']);
  const keys = split.requests.map((r) => r.key);
  for (const gone of ['b/red', 'b/nir', 'b/scl', 'e/red', 'e/nir', 'e/scl', 'e/aot']) assert.ok(!keys.includes(gone), gone);
  for (const kept of ['a/red', 'c/red', 'shared/aot', 'palsar/hv']) assert.ok(keys.includes(kept), kept);
  assert.deepEqual(split.skipped.map((s) => [s.scene, s.why]), [
    ['earlier', 'its files could not be read (not_found)'],
    ['b', underClearLine(0.3)],
    ['e', underClearLine(0)],
  ]);
  assert.equal(underClearLine(0.3), `30% of the plot clear, under the ${Math.round(line * 100)}% a scene needs`);
  assert.equal(withoutClouded(plan, [1, 1, 1, 1, 1]), plan);
});

test('the record is read in runs of consecutive scenes whose tiles stay within the bound; the other layers apart', () => {
  const MiB = 2 ** 20;
  const plan = planOf([scene('a', 17000), scene('b', 17010, 'shared/aot'), scene('c', 17020, 'shared/aot'), scene('d', 17030), scene('e', 17040)]);
  // Four windows a scene, 8 MiB of tiles; a window two scenes share counts with each.
  assert.deepEqual(sceneGroups(plan, 16 * MiB), [[0, 1], [2, 3], [4]]);
  assert.deepEqual(sceneGroups(plan, 24 * MiB), [[0, 1, 2], [3, 4]]);
  // A scene past the bound alone makes a run; no scene is ever left out.
  assert.deepEqual(sceneGroups(plan, MiB), [[0], [1], [2], [3], [4]]);
  assert.deepEqual(sceneGroups(plan, 4 * MiB, maskKeys), [[0, 1], [2, 3], [4]]);
  assert.deepEqual(sceneGroups(planOf([]), 16 * MiB), []);
  assert.deepEqual(sceneRequests(plan, [1, 2]).map((r) => r.key), ['b/red', 'b/nir', 'b/scl', 'shared/aot', 'c/red', 'c/nir', 'c/scl']);
  assert.deepEqual(otherRequests(plan).map((r) => r.key), ['palsar/hv']);
});
