// A worker thread of the demo generator: writes the optical scenes (Sentinel-2, Landsat) of the
// sites it is given. Scenes are most of the world's files and each belongs to one site, so
// sites split cleanly across threads; everything tiled across sites stays on the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { writeLandsat, writeSentinel2, type S2SceneRecord } from './optical.ts';
import { RasterFiles } from './raster-files.ts';
import { type WorldKind, worldModels } from './world.ts';

export interface OpticalJob {
  world: WorldKind;
  seed: string;
  root: string;
  sites: string[];
}

export interface OpticalResult {
  sentinel2: S2SceneRecord[];
  landsatScenes: number;
}

const job = workerData as OpticalJob;
const files = new RasterFiles();
const result: OpticalResult = { sentinel2: [], landsatScenes: 0 };
for (const m of worldModels(job.world, job.seed, job.sites)) {
  result.sentinel2.push(...writeSentinel2(m, job.seed, files, job.root));
  result.landsatScenes += writeLandsat(m, job.seed, files, job.root);
  files.writeAll(job.root);
}
parentPort!.postMessage(result);
