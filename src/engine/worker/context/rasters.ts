// How a block finds its windows among a plot task's rasters. A window missing or of the wrong type
// is a planning fault, never a plot without data, so it throws.
import type { WorkerRaster } from '../raster-window.ts';

export type ContextErrorCode =
  | 'raster_missing' // a planned window did not arrive with the task
  | 'raster_type' // a window of another data type than its product's
  | 'raster_grid'; // windows of one product on different grids

export class ContextError extends Error {
  readonly code: ContextErrorCode;

  constructor(code: ContextErrorCode, message: string) {
    super(message);
    this.name = 'ContextError';
    this.code = code;
  }
}

export function rasterAt(rasters: ReadonlyMap<string, WorkerRaster>, key: string): WorkerRaster {
  const r = rasters.get(key);
  if (r === undefined) throw new ContextError('raster_missing', `the window ${key} was planned but not shipped`);
  return r;
}

export function uint8(r: WorkerRaster, what: string): Uint8Array {
  if (!(r.raw instanceof Uint8Array) || r.samplesPerPixel !== 1) throw new ContextError('raster_type', `${what} should be one band of uint8`);
  return r.raw;
}

export function uint16(r: WorkerRaster, what: string): Uint16Array {
  if (!(r.raw instanceof Uint16Array) || r.samplesPerPixel !== 1) throw new ContextError('raster_type', `${what} should be one band of uint16`);
  return r.raw;
}

/** Throws unless every window lies on the first one's grid (same size and placement). */
export function sameGrid(what: string, windows: readonly WorkerRaster[]): void {
  const [a] = windows;
  for (const b of windows) {
    if (b.width !== a.width || b.height !== a.height || b.geoTransform.some((v, k) => Math.abs(v - a.geoTransform[k]) > 1e-9)) {
      throw new ContextError('raster_grid', `the windows of ${what} do not share one grid`);
    }
  }
}
