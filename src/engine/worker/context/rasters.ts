// How a block finds its windows among a plot task's rasters, and which of their pixels were read. A
// window missing or of the wrong type is a planning fault, never a plot without data, so it throws.
import type { PartlyRead } from '../../context/partly-read.ts';
import type { PixelMask } from '../../kernels/rasterise-mask.ts';
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

/** The pixels of a mask that were read from files: all of them unless the window is partly read (context/partly-read.ts). */
export function readPixels(mask: PixelMask, key: string, partlyRead: PartlyRead | undefined): PixelMask {
  const rects = partlyRead?.[key];
  if (rects === undefined) return mask;
  const { width, height } = mask;
  const read = new Uint8Array(width * height);
  for (const r of rects) {
    const x0 = Math.max(0, r.x);
    const x1 = Math.min(width, r.x + r.width);
    for (let y = Math.max(0, r.y); y < Math.min(height, r.y + r.height); y++) if (x1 > x0) read.fill(1, y * width + x0, y * width + x1);
  }
  const inside = new Uint8Array(width * height);
  const spans: number[] = [];
  let count = 0;
  for (let s = 0; s < mask.spans.length; s += 2) {
    let start = -1;
    for (let i = mask.spans[s]; i < mask.spans[s + 1]; i++) {
      if (read[i] === 1) {
        inside[i] = 1;
        count++;
        if (start < 0) start = i;
      } else if (start >= 0) {
        spans.push(start, i);
        start = -1;
      }
    }
    if (start >= 0) spans.push(start, mask.spans[s + 1]);
  }
  return { width, height, inside, spans: Int32Array.from(spans), count };
}
