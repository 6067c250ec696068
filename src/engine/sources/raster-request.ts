/**
 * What a reader hands the planner: windows of opened COGs, each under a key stable for its COGs,
 * band and window. The engine fetches their tiles on the main thread (plan/raster-shipment.ts) and
 * the plot task assembles them by key (worker/raster-window.ts). A box that spans several files of
 * one grid becomes one mosaic request whose parts are windows of those files.
 */
import type { Cog, PixelWindow } from './cog.ts';
import { isSourceError } from './errors.ts';
import type { Encoding } from '../kernels/raster.ts';
import type { Provenance } from './products/provenance.ts';
import { type Bbox, gridWindow, transformBbox } from './reproject.ts';

/** One file's share of a mosaic: a window of its COG, placed at (x, y) of the request's window. */
export interface MosaicPart {
  cog: Cog;
  window: PixelWindow;
  x: number;
  y: number;
}

export interface RasterRequest {
  key: string;
  /** The COG whose grid, sample type and encoding the raster has (a mosaic's first part read). */
  cog: Cog;
  /** The raster in that COG's pixel coordinates (a mosaic's may reach past the COG's edges). */
  window: PixelWindow;
  /** One sample of an interleaved file; all samples when absent. */
  band?: number;
  /** A mosaic's parts; a plain request reads `window` of `cog` alone. */
  parts?: MosaicPart[];
  /** Set when a file of the mosaic is missing: the value its pixels read as. */
  fill?: number;
}

/** One layer a reader plans: its request, how to read its values, where they come from. */
export interface PlannedLayer {
  request: RasterRequest;
  encoding: Encoding;
  provenance: Provenance;
}

/** A product's layers over a box: every tile the box touches, and those that could not be read. */
export interface ProductWindows<L extends string> {
  layers: Record<L, PlannedLayer>;
  /** Names of the tiles the box touches. */
  tiles: string[];
  /** Tiles the box touches that the archive does not hold (read as nodata). */
  notRead: string[];
}

/** The tiles a product's windows were read from: those the box touches that the archive holds. */
export function tilesRead(w: Pick<ProductWindows<string>, 'tiles' | 'notRead'>): string[] {
  return w.tiles.filter((t) => !w.notRead.includes(t));
}

/**
 * A short name for each opened COG, never given to another, that request keys carry in place of its
 * address: a plot's task names some 300 windows, and with the address in each (about 200
 * characters) the keys were most of what its message cloned and its maps hashed on the main thread.
 */
const handles = new WeakMap<Cog, string>();
let lastHandle = 0;

function handleOf(cog: Cog): string {
  let h = handles.get(cog);
  if (h === undefined) handles.set(cog, (h = `c${(++lastHandle).toString(36)}`));
  return h;
}

export function rasterRequest(cog: Cog, window: PixelWindow, band?: number): RasterRequest {
  const key = `${handleOf(cog)}#${band ?? '*'}@${window.x0},${window.y0},${window.width}x${window.height}`;
  return band === undefined ? { key, cog, window } : { key, cog, window, band };
}

/** The window of a COG covering a box given in longitude and latitude (clipped to the raster). */
export function requestForBox(cog: Cog, box: Bbox, band?: number): RasterRequest {
  return rasterRequest(cog, cog.windowFor(box, 'EPSG:4326'), band);
}

/**
 * One request over a box (lon/lat) from the files of one grid that it touches, each opened or
 * refused. One file read is a plain request; several become a mosaic on the first one's grid
 * (same CRS and pixel size, origins a whole number of pixels apart). A refusal other than a
 * missing file fails the request, as does every file missing (the first refusal is thrown).
 */
export function mosaicForBox(opened: ReadonlyArray<PromiseSettledResult<Cog>>, box: Bbox, fill: (first: Cog) => number): { request: RasterRequest; missing: number[] } {
  const missing: number[] = [];
  const cogs: Cog[] = [];
  for (const [i, o] of opened.entries()) {
    if (o.status === 'fulfilled') cogs.push(o.value);
    // A file missing from the archive, or not reaching the box: its pixels read as fill.
    else if (isSourceError(o.reason, 'not_found') || isSourceError(o.reason, 'window_outside')) missing.push(i);
    else throw o.reason;
  }
  if (cogs.length === 0) throw (opened[0] as PromiseRejectedResult).reason;
  if (cogs.length === 1 && missing.length === 0) return { request: requestForBox(cogs[0], box), missing };
  const ref = cogs[0];
  const [ox, pw, , oy, , ph] = ref.geoTransform;
  const window = gridWindow(ref.geoTransform, transformBbox(box, 'EPSG:4326', ref.epsg ?? 4326));
  const parts: MosaicPart[] = [];
  let outside: unknown = null;
  for (const cog of cogs) {
    const [cx, cw, , cy, , ch] = cog.geoTransform;
    const dx = (cx - ox) / pw;
    const dy = (cy - oy) / ph;
    if (cog.epsg !== ref.epsg || cw !== pw || ch !== ph || Math.abs(dx - Math.round(dx)) > 1e-6 || Math.abs(dy - Math.round(dy)) > 1e-6) {
      throw new RangeError(`${cog.name} is not on the grid of ${ref.name}, so the two cannot be read as one mosaic`);
    }
    let part: PixelWindow;
    try {
      part = cog.windowFor(box, 'EPSG:4326');
    } catch (err) {
      if (!isSourceError(err, 'window_outside')) throw err;
      outside ??= err;
      continue;
    }
    parts.push({ cog, window: part, x: Math.round(dx) + part.x0 - window.x0, y: Math.round(dy) + part.y0 - window.y0 });
  }
  if (parts.length === 0) throw outside;
  const key = `mosaic(${parts.map((p) => `${handleOf(p.cog)}@${p.window.x0},${p.window.y0},${p.window.width}x${p.window.height}`).join('|')})@${window.width}x${window.height}`;
  return { request: missing.length === 0 ? { key, cog: ref, window, parts } : { key, cog: ref, window, parts, fill: fill(ref) }, missing };
}
