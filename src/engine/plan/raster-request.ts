/**
 * A window of an opened COG that a block needs, named by a key the plot task finds it under. The
 * planners of every block build these; the engine fetches their tiles (raster-shipment.ts) and the
 * plot task assembles them by key (worker/raster-window.ts).
 */
import type { Cog, PixelWindow } from '../sources/cog.ts';
import type { Bbox } from '../sources/reproject.ts';

export interface RasterRequest {
  key: string;
  cog: Cog;
  window: PixelWindow;
  /** One sample of an interleaved file; all samples when absent. */
  band?: number;
}

/** The request for a window, under a key stable for that COG, band and window. */
export function rasterRequest(cog: Cog, window: PixelWindow, band?: number): RasterRequest {
  const key = `${cog.id}#${band ?? '*'}@${window.x0},${window.y0},${window.width}x${window.height}`;
  return band === undefined ? { key, cog, window } : { key, cog, window, band };
}

/** The window of a COG covering a box given in longitude and latitude (clipped to the raster). */
export function requestForBox(cog: Cog, box: Bbox, band?: number): RasterRequest {
  return rasterRequest(cog, cog.windowFor(box, 'EPSG:4326'), band);
}
