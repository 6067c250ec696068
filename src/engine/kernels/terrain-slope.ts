/**
 * Mean slope over the plot by Horn's method (Horn 1981, the weighted 3×3 gradient GDAL's
 * gdaldem uses), so the instruments are not read on ground steeper than they were characterised
 * on. Neighbours beyond the window repeat the edge pixel; a pixel next to no data is not counted.
 */
import type { PixelMask } from './rasterise-mask.ts';
import type { Encoding, Raster } from './raster.ts';

export interface TerrainInput {
  readonly mask: PixelMask;
  readonly dem: Raster;
  readonly encoding: Encoding;
  /** Ground size of a pixel in metres (a geographic DEM's pixel is narrower than it is tall away from the equator). */
  readonly pixelWidthM: number;
  readonly pixelHeightM: number;
}

export interface TerrainLines {
  readonly maxSlopeDeg: number;
}

export interface TerrainSlope {
  mean_slope_deg: number | null;
  /** Plot pixels whose slope was measured. */
  pixels: number;
  outside_characterised_range: boolean | null;
}

const DEGREES = 180 / Math.PI;

export function terrainSlope(input: TerrainInput, lines: TerrainLines): TerrainSlope {
  const { mask, dem, encoding, pixelWidthM, pixelHeightM } = input;
  const { width, height } = mask;
  const nodata = encoding.nodata ?? NaN;
  // Elevation scale folds into the gradient; the offset cancels.
  const kx = encoding.scale / (8 * pixelWidthM);
  const ky = encoding.scale / (8 * pixelHeightM);
  const spans = mask.spans;
  let sum = 0;
  let pixels = 0;
  for (let s = 0; s < spans.length; s += 2) {
    const start = spans[s];
    const end = spans[s + 1];
    const row = (start / width) | 0;
    const mid = row * width;
    const up = (row > 0 ? row - 1 : 0) * width;
    const down = (row < height - 1 ? row + 1 : row) * width;
    for (let i = start; i < end; i++) {
      const c = i - mid;
      const l = c > 0 ? c - 1 : 0;
      const r = c < width - 1 ? c + 1 : c;
      const a = dem[up + l], b = dem[up + c], cc = dem[up + r];
      const d = dem[mid + l], f = dem[mid + r];
      const g = dem[down + l], h = dem[down + c], k = dem[down + r];
      // NaN (a float DEM's no data) falls through the arithmetic; a numeric no-data value is tested.
      if (a === nodata || b === nodata || cc === nodata || d === nodata || f === nodata || g === nodata || h === nodata || k === nodata) continue;
      const dx = (cc + 2 * f + k - (a + 2 * d + g)) * kx;
      const dy = (g + 2 * h + k - (a + 2 * b + cc)) * ky;
      const slope = Math.atan(Math.sqrt(dx * dx + dy * dy));
      if (slope !== slope) continue;
      sum += slope;
      pixels++;
    }
  }
  const mean = pixels > 0 ? (sum / pixels) * DEGREES : null;
  return {
    mean_slope_deg: mean,
    pixels,
    outside_characterised_range: mean === null ? null : mean > lines.maxSlopeDeg,
  };
}
