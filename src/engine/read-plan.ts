/**
 * Planning a plot's read on the main thread: which windows of which COGs each block needs. A block
 * names them as RasterRequests; the engine fetches their tiles (raster-shipment.ts), the plot task
 * assembles them by key (kernels/raster-window.ts) and hands each block its rasters.
 */
import type { Cog, PixelWindow } from './sources/cog.ts';
import type { Bbox } from './sources/reproject.ts';

/** A window of an opened COG that a block needs, under a key stable for that COG, band and window. */
export interface RasterRequest {
  key: string;
  cog: Cog;
  window: PixelWindow;
  /** One sample of an interleaved file; all samples when absent. */
  band?: number;
}

export function rasterRequest(cog: Cog, window: PixelWindow, band?: number): RasterRequest {
  const key = `${cog.id}#${band ?? '*'}@${window.x0},${window.y0},${window.width}x${window.height}`;
  return band === undefined ? { key, cog, window } : { key, cog, window, band };
}

/** The window of a COG covering a box given in longitude and latitude (clipped to the raster). */
export function requestForBox(cog: Cog, box: Bbox, band?: number): RasterRequest {
  return rasterRequest(cog, cog.windowFor(box, 'EPSG:4326'), band);
}
