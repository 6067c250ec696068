/**
 * Reads rasters in tests through the path production uses: the planned requests are shipped
 * (tile bytes fetched, slots made), packed as they travel to a thread, and assembled as a plot task
 * assembles them, on this thread.
 */
import { DecodedTiles, shipRasters } from '../../src/engine/plan/raster-shipment.ts';
import type { Cog, PixelWindow } from '../../src/engine/sources/cog.ts';
import { type RasterRequest, rasterRequest } from '../../src/engine/sources/raster-request.ts';
import type { WorkerRaster } from '../../src/engine/worker/raster-window.ts';
import { assembleShipment, packShipment } from '../../src/engine/worker/shipment-wire.ts';

/** Every request's pixels, by the request. */
export async function readWindows(requests: readonly RasterRequest[], signal?: AbortSignal): Promise<WorkerRaster[]> {
  const shipment = await shipRasters(requests, new DecodedTiles(), signal);
  const rasters = assembleShipment(packShipment(shipment));
  return requests.map((r) => rasters.get(r.key)!);
}

/** One request's pixels. */
export async function readWindow(request: RasterRequest, signal?: AbortSignal): Promise<WorkerRaster> {
  return (await readWindows([request], signal))[0];
}

/** A pixel window of a COG (one band of an interleaved file when `band` is given). */
export function readCogWindow(cog: Cog, window: PixelWindow, signal?: AbortSignal): Promise<WorkerRaster> {
  const { band, ...win } = window;
  return readWindow(rasterRequest(cog, win, band), signal);
}

/** raw × scale + offset, nodata as NaN (compared in the raster's own precision, as a float32 nodata is stored rounded). */
export function physical(r: WorkerRaster): Float32Array {
  const { raw, scale, offset, nodata } = r;
  const nd = nodata === null || Number.isNaN(nodata) ? null : raw instanceof Float32Array ? Math.fround(nodata) : nodata;
  const out = new Float32Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw[i] === nd ? Number.NaN : raw[i] * scale + offset;
  return out;
}
