// `npm run bench -- pool-start [rounds]`: what starting one thread of the engine's pool costs. Each
// round makes a pool of one thread on the real task module, runs a trivial chip (a 1×1 cut of three
// empty windows) and closes it: the time to that first answer is the thread's start (module load
// included), and the process's RSS growth over it is what the thread holds. The task entry's
// module closure is counted from the source (local files and packages reached by value imports).
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createPool } from '../src/engine/worker/pool.ts';
import type { ChipTaskParams } from '../src/engine/worker/tasks.ts';
import type { ShippedRaster } from '../src/engine/worker/raster-window.ts';
import { packShipment } from '../src/engine/worker/shipment-wire.ts';
import { importClosure } from '../test/support/import-closure.ts';

const TASK_ENTRY = fileURLToPath(new URL('../src/engine/worker/plot-task.ts', import.meta.url));

function emptyWindow(key: string): ShippedRaster {
  return { key, x0: 0, y0: 0, width: 1, height: 1, dtype: 'uint16', samplesPerPixel: 1, planar: false, tiles: [], geoTransform: [0, 1, 0, 1, 0, -1], epsg: 4326, nodata: 0, scale: 1, offset: 0 };
}

const TRIVIAL_CHIP: ChipTaskParams = {
  shipment: packShipment({ tiles: [], rasters: ['r', 'g', 'b'].map(emptyWindow) }),
  red: 'r',
  green: 'g',
  blue: 'b',
  reflectance: { scale: 1, offset: 0, nodata: 0 },
  bbox: [0, 0, 1, 1],
  width: 1,
  height: 1,
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function poolStart(args: string[]): Promise<void> {
  const rounds = Number(args[0] ?? 5);
  const startMs: number[] = [];
  const rssMb: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const pool = createPool({ size: 1 });
    await pool.run('chip', TRIVIAL_CHIP);
    startMs.push(performance.now() - t0);
    rssMb.push((process.memoryUsage().rss - rss0) / 2 ** 20);
    await pool.close();
  }
  const closure = importClosure([TASK_ENTRY]);
  const figures = {
    bench: 'pool-start',
    rounds,
    thread_start_ms: { median: +median(startMs).toFixed(1), all: startMs.map((v) => +v.toFixed(1)) },
    rss_growth_mb: { median: +median(rssMb).toFixed(1), all: rssMb.map((v) => +v.toFixed(1)) },
    task_entry_closure: { files: closure.files.size, packages: [...closure.packages.keys()].sort() },
    cores: os.availableParallelism(),
    node: process.version,
  };
  console.log(`thread start ${figures.thread_start_ms.median} ms (median of ${rounds}), RSS growth ${figures.rss_growth_mb.median} MB, task entry closure ${figures.task_entry_closure.files} files`);
  console.log(JSON.stringify(figures));
}
