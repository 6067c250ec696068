/**
 * The alert pool's task entry: a scanned plot's alert pixels clustered into alerts on a worker
 * thread, so a plot of a million pixels never holds the API's event loop. Its closure is the kernel;
 * a worker process runs the same kernel as a task of its engine pool (src/engine/worker/plot-task.ts).
 */
import { alertClusters, type AlertCluster, type AlertClusterRequest } from '../engine/kernels/alert-clusters.ts';

export interface AlertTasks {
  clusters: { params: AlertClusterRequest; result: AlertCluster[] };
}

export function clusters(request: AlertClusterRequest): AlertCluster[] {
  return alertClusters(request.pixels, request.pixelDeg, request.maxGapDays);
}
