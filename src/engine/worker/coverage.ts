/**
 * What share of the plot each read covered (kernels/coverage.ts), on the worker side: a window is
 * clipped where the archive's files end, so the plot's pixels are counted on the window's grid
 * as if it reached the whole footprint, and pixels outside the window count as not read.
 */
import { percent } from '../context/wording.ts';
import { COVERAGE_NEEDED, coverageShare, covers, pixelsWithData } from '../kernels/coverage.ts';
import type { Raster } from '../kernels/raster.ts';
import type { PixelMask } from '../kernels/rasterise-mask.ts';
import { transformer } from '../sources/reproject.ts';
import type { TypedArray } from './tile-decode.ts';
import type { RasterGrid } from './tasks.ts';
import { type LonLatFootprint, maskFor, pixelSizeM, ringFor, toPixels, type WorkerRaster } from './raster-window.ts';


/** A raster's grid cut to the footprint's extent, wherever the raster's own window ends. */
function plotGrid(raster: Pick<WorkerRaster, 'geoTransform' | 'epsg'>, footprint: LonLatFootprint): RasterGrid {
  const px = toPixels(raster, footprint);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const rings = px.type === 'Polygon' ? px.coordinates : px.coordinates.flat();
  for (const ring of rings) {
    for (const [x, y] of ring) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  const [x0, y0] = [Math.floor(minX), Math.floor(minY)];
  const [ox, pw, rx, oy, ry, ph] = raster.geoTransform;
  return {
    geoTransform: [ox + x0 * pw + y0 * rx, pw, rx, oy + x0 * ry + y0 * ph, ry, ph],
    epsg: raster.epsg,
    width: Math.max(0, Math.ceil(maxX) - x0),
    height: Math.max(0, Math.ceil(maxY) - y0),
  };
}

/** The plot's pixels on a raster's grid, wherever its window ends: what a read of the whole plot would count. */
export function plotPixelsOn(grid: Pick<WorkerRaster, 'geoTransform' | 'epsg'>, footprint: LonLatFootprint): number {
  return maskFor(plotGrid(grid, footprint), footprint).count;
}

/** The share of the plot that `layers` (windows of one grid, `mask` the plot on it) hold data for in at least one of them. */
export function windowCoverage(grid: Pick<WorkerRaster, 'geoTransform' | 'epsg'>, mask: PixelMask, layers: readonly Raster[], nodata: number | null, footprint: LonLatFootprint): number {
  return coverageShare(pixelsWithData(mask, layers, nodata), plotPixelsOn(grid, footprint));
}

/** The share of the plot a mask of read pixels covers on its window's grid. */
export function maskCoverage(grid: Pick<WorkerRaster, 'geoTransform' | 'epsg'>, read: PixelMask, footprint: LonLatFootprint): number {
  return coverageShare(read.count, plotPixelsOn(grid, footprint));
}

/** Why a map read over too little of the plot (or of its ring) gives no share, in words for its note. */
export function tooLittleRead(share: number, of = 'the plot'): string {
  return `it holds data for ${percent(share)} of ${of}, under the ${percent(COVERAGE_NEEDED)} a share is given from; the rest lies beyond its tiles or has no data`;
}

/**
 * The share of a ring around the plot (`innerM` to `outerM`, as ringFor draws it) that `read`
 * pixels cover, the whole ring counted on the grid however far the window reaches.
 */
export function ringCoverage(grid: Pick<WorkerRaster, 'geoTransform' | 'epsg' | 'height'>, read: number, footprint: LonLatFootprint, innerM: number, outerM: number): number {
  const g = plotGrid(grid, footprint);
  const pad = Math.ceil(outerM / pixelSizeM(grid).y) + 1;
  const [ox, pw, rx, oy, ry, ph] = g.geoTransform;
  const padded: RasterGrid = { geoTransform: [ox - pad * (pw + rx), pw, rx, oy - pad * (ry + ph), ry, ph], epsg: g.epsg, width: g.width + 2 * pad, height: g.height + 2 * pad };
  return coverageShare(read, ringFor(maskFor(padded, footprint), padded, innerM, outerM).count);
}

const crsOf = (epsg: number | null) => epsg ?? 4326;

/** Marks in `read` (one byte a pixel of the raster's grid) every pixel the raster holds data for. */
export function markRead(read: Uint8Array, raw: TypedArray, nodata: number | null): void {
  for (let i = 0; i < read.length; i++) {
    const v = raw[i];
    if (v !== nodata && v === v) read[i] = 1;
  }
}

/**
 * The share of the plot's pixels on `first`'s grid that at least one of `grids` (of any grid and
 * CRS, each with the pixels its windows held data for, markRead) covers: the optical record's
 * coverage over its kept scenes. Scenes of one grid are merged first, so each grid is looked up
 * once per plot pixel.
 */
export function unionCoverage(first: RasterGrid, grids: Iterable<{ grid: RasterGrid; read: Uint8Array }>, footprint: LonLatFootprint): number {
  const ref = plotGrid(first, footprint);
  const mask = maskFor(ref, footprint);
  if (mask.count === 0) return 0;
  const covered = new Uint8Array(ref.width * ref.height);
  const [ox, pw, , oy, , ph] = ref.geoTransform;
  for (const { grid: raster, read: data } of grids) {
    const to = transformer(crsOf(ref.epsg), crsOf(raster.epsg));
    const [sx, sw, , sy, , sh] = raster.geoTransform;
    for (let s = 0; s < mask.spans.length; s += 2) {
      for (let i = mask.spans[s]; i < mask.spans[s + 1]; i++) {
        if (covered[i] === 1) continue;
        const [x, y] = to(ox + ((i % ref.width) + 0.5) * pw, oy + (Math.floor(i / ref.width) + 0.5) * ph);
        const c = Math.floor((x - sx) / sw);
        const r = Math.floor((y - sy) / sh);
        if (c >= 0 && r >= 0 && c < raster.width && r < raster.height && data[r * raster.width + c] === 1) covered[i] = 1;
      }
    }
  }
  let n = 0;
  for (let s = 0; s < mask.spans.length; s += 2) for (let i = mask.spans[s]; i < mask.spans[s + 1]; i++) n += covered[i];
  return coverageShare(n, mask.count);
}

/** An instrument's answer kept only when it read enough of the plot; otherwise it does not answer, and says what share it read. */
export function answerWhenCovered<T extends { forest_like: boolean | null; confident: boolean; refusal: string | null }>(reading: T | null, share: number | null, what: string): T | null {
  if (reading === null || share === null || covers(share) || reading.forest_like === null) return reading;
  return {
    ...reading,
    forest_like: null,
    confident: false,
    // The radar's polarimetric answer is an answer too.
    ...('polarimetry_cultivated' in reading ? { polarimetry_cultivated: null } : {}),
    refusal: `The ${what} held data for ${Math.floor(share * 100)}% of the plot (the rest lies outside the archive's tiles or has no data); an instrument answers only from ${Math.round(COVERAGE_NEEDED * 100)}% of the plot or more.`,
  };
}
