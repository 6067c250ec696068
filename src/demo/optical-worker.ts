// A worker thread of the demo generator: writes the optical scenes (Sentinel-2, Landsat) of the
// groups of sites it is given. A scene's item and files hold every site of its tile and date, so
// the sites sharing a tile are one group, written by one thread and flushed together.
import { parentPort, workerData } from 'node:worker_threads';
import { SceneItems, writeLandsat, writeSentinel2, type S2SceneRecord } from './optical.ts';
import { RasterFiles } from './raster-files.ts';
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
  for (const m of worldModels(job.world, job.seed, group)) {
    result.sentinel2.push(...writeSentinel2(m, job.seed, files, items));
    result.landsatScenes += writeLandsat(m, job.seed, files, items);
  }
  files.writeAll(job.root);
  items.writeAll(job.root);
}
parentPort!.postMessage(result);
