/**
 * The API process's pool for alert scans: each scanned plot's pixels are clustered on one of its
 * threads (src/engine/kernels/alert-clusters.ts) and only the alerts come back. Threads start on
 * the first scan and stop after a minute idle. A scan sends at most its plots at once (50).
 */
import { createPool, PoolError } from '../engine/worker/pool.ts';
import type { AlertCluster, AlertPixels } from '../engine/kernels/alert-clusters.ts';
import { busy } from '../errors.ts';
import type { AlertTasks } from './cluster-task.ts';
import { ALERT_LIMITS } from './limits.ts';

/** Two full scans may wait for threads. */
const QUEUE = 2 * ALERT_LIMITS.maxScanPlots;

export interface AlertPool {
  /** Alert pixels of one grid (cells of `pixelDeg`) clustered into alerts. */
  clusters(pixels: AlertPixels, pixelDeg: number): Promise<AlertCluster[]>;
  close(): Promise<void>;
}

export function createAlertPool(size: number): AlertPool {
  const pool = createPool<AlertTasks>({ size, minThreads: 0, maxQueue: QUEUE, filename: new URL('./cluster-task.ts', import.meta.url), name: 'alerts' });
  return {
    clusters(pixels, pixelDeg) {
      return pool.run('clusters', { pixels, pixelDeg, maxGapDays: ALERT_LIMITS.clusterDays }).catch((error: unknown) => {
        if (error instanceof PoolError && error.code === 'pool_full') throw busy('As many alert scans as the service clusters at once are waiting; scan again shortly.', 5);
        throw error;
      });
    },
    close: () => pool.close(),
  };
}
