/**
 * The alert pool's task entry: a scanned plot's alert pixels clustered into alerts on a worker
 * thread, so a plot of a million pixels never holds the API's event loop. Its closure is the kernel.
 */
import { alertClusters, type AlertCluster, type AlertPixels } from '../engine/kernels/alert-clusters.ts';

export interface ClusterRequest {
  pixels: AlertPixels;
  pixelDeg: number;
  maxGapDays: number;
}

export interface AlertTasks {
  clusters: { params: ClusterRequest; result: AlertCluster[] };
}

export function clusters(request: ClusterRequest): AlertCluster[] {
  return alertClusters(request.pixels, request.pixelDeg, request.maxGapDays);
}
