/**
 * Mean slope over the plot by Horn's method (Horn 1981, the weighted 3×3 gradient GDAL's
 * gdaldem uses), so the instruments are not read on ground steeper than they were characterised
 * on. Neighbours beyond the window repeat the edge pixel; a pixel with no data, or next to one,
 * is not counted.
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

/** 1 when a column's three elevations all hold data (NaN, a float DEM's no data, fails v === v). */
function columnOk(t: number, m: number, b: number, nodata: number): number {
  return +(t !== nodata) & +(m !== nodata) & +(b !== nodata) & +(t === t) & +(m === m) & +(b === b);
}

/**
 * Horn's gradient read column by column: dz/dx needs each column's weighted sum (top + 2·middle
 * + bottom) and dz/dy its weighted difference (bottom − top), so sliding along a run loads one new
 * column per pixel instead of eight neighbours.
 */
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
    const last = mid + width - 1;
    // Offsets of the rows above and below, repeating the edge row at the window's edges.
    const up = Math.max(0, row - 1) * width - mid;
    const down = Math.min(height - 1, row + 1) * width - mid;
    const left = Math.max(mid, start - 1);
    let t = dem[left + up], m = dem[left], b = dem[left + down];
    let sumL = t + 2 * m + b;
    let difL = b - t;
    let okL = columnOk(t, m, b, nodata);
    t = dem[start + up]; m = dem[start]; b = dem[start + down];
    let sumM = t + 2 * m + b;
    let difM = b - t;
    let okM = columnOk(t, m, b, nodata);
    for (let i = start; i < end; i++) {
      const j = Math.min(last, i + 1);
      t = dem[j + up]; m = dem[j]; b = dem[j + down];
      const sumR = t + 2 * m + b;
      const difR = b - t;
      const okR = columnOk(t, m, b, nodata);
      const dx = (sumR - sumL) * kx;
      const dy = (difL + 2 * difM + difR) * ky;
      const slope = Math.atan(Math.sqrt(dx * dx + dy * dy));
      // The pixel and its eight neighbours must all hold data; the select keeps NaN out of the sum.
      const ok = okL & okM & okR;
      sum += ok === 1 ? slope : 0;
      pixels += ok;
      sumL = sumM; difL = difM; okL = okM;
      sumM = sumR; difM = difR; okM = okR;
    }
  }
  const mean = pixels > 0 ? (sum / pixels) * DEGREES : null;
  return {
    mean_slope_deg: mean,
    pixels,
    outside_characterised_range: mean === null ? null : mean > lines.maxSlopeDeg,
  };
}
