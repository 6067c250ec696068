// A worker thread of the demo generator: writes the optical scenes (Sentinel-2, Landsat) of the
// groups of sites it is given. A scene's item and files hold every site of its tile and date, so
// the sites sharing a tile are one group, written by one thread and flushed together, a year of
// scenes at a time: a scene's files hold one date, so no file spans two flushes, and the thread
// holds one year of its group's ground instead of the whole record (a region of the hard world
// is one group of some 85 sites).
import { parentPort, workerData } from 'node:worker_threads';
import { SceneItems, writeLandsat, writeSentinel2, type S2SceneRecord } from './optical.ts';
import { RasterFiles } from './raster-files.ts';
import { FIRST_YEAR, LAST_YEAR } from './schedule.ts';
import { type WorldKind, worldModels } from './world.ts';

export interface OpticalJob {
  world: WorldKind;
  seed: string;
  root: string;
  /** Names of sites, in groups sharing optical tiles. */
  groups: string[][];
}

export interface OpticalResult {
  sentinel2: S2SceneRecord[];
  landsatScenes: number;
}

const job = workerData as OpticalJob;
const files = new RasterFiles();
const items = new SceneItems();
const result: OpticalResult = { sentinel2: [], landsatScenes: 0 };
for (const group of job.groups) {
  const models = worldModels(job.world, job.seed, group);
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) {
    for (const m of models) {
      result.sentinel2.push(...writeSentinel2(m, job.seed, files, items, year));
      result.landsatScenes += writeLandsat(m, job.seed, files, items, year);
    }
    files.writeAll(job.root);
    items.writeAll(job.root);
  }
}
parentPort!.postMessage(result);
