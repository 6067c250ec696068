/**
 * Buildings on a fine raster gathered into coarser square cells, then counted over a mask of
 * cells. The raster carries, per pixel, a presence score, a fractional building count and a
 * height (interleaved samples); a cell of `factor × factor` pixels takes the mean presence of its
 * pixels with data, their summed count and their greatest height (never below 0). A cell is built
 * up when its mean presence reaches the threshold; only built-up cells give a height.
 *
 * The gathering loop walks each pixel row cell by cell, summing a cell's pixels of the row in
 * locals and storing once per cell (sums kept at the raster's single precision); the mask loop adds per-cell flags and values, with no branch
 * per cell.
 */
import type { PixelMask } from './rasterise-mask.ts';
import type { Raster } from './raster.ts';

export interface BuildingCellsInput {
  /** Interleaved samples, row-major: `width × height × samplesPerPixel`. */
  readonly raw: Raster;
  readonly width: number;
  readonly height: number;
  readonly samplesPerPixel: number;
  /** The sample index of each band within a pixel. */
  readonly bands: { readonly presence: number; readonly count: number; readonly height: number };
  /** Presence value meaning no data (NaN is always no data). */
  readonly nodata: number | null;
  /** Pixels per cell side. */
  readonly factor: number;
  /** Mean presence from which a cell is built up. */
  readonly presenceThreshold: number;
}

export interface BuildingCells {
  /** Cells across and down (partial cells at the right and bottom edges are dropped). */
  width: number;
  height: number;
  /** 1 where the cell holds a pixel with data. */
  valid: Uint8Array;
  /** 1 where the cell is built up. */
  built: Uint8Array;
  /** Summed fractional building count of the cell's pixels. */
  count: Float32Array;
  /** The cell's greatest height where built up, −Infinity elsewhere. */
  builtHeight: Float32Array;
}

export function buildingCells(input: BuildingCellsInput): BuildingCells {
  const { raw, samplesPerPixel: spp, factor: k } = input;
  // Band offsets and the row stride as locals, so the pixel loop reads no object property.
  const P = input.bands.presence;
  const C = input.bands.count;
  const H = input.bands.height;
  const stride = input.width * spp;
  const width = Math.floor(input.width / k);
  const height = Math.floor(input.height / k);
  const n = width * height;
  const presence = new Float32Array(n);
  const tallest = new Float32Array(n);
  const count = new Float32Array(n);
  const seen = new Uint16Array(n);
  const nodata = input.nodata ?? Number.NaN;
  for (let y = 0; y < height * k; y++) {
    const cellRow = Math.floor(y / k) * width;
    let at = y * stride;
    for (let c = cellRow; c < cellRow + width; c++) {
      // The cell's k pixels of this row, added in locals and stored once; each sum is rounded to
      // single precision at every step, as adding into the Float32Array would.
      let got = 0;
      let p = presence[c];
      let sum = count[c];
      let t = tallest[c];
      for (let x = 0; x < k; x++, at += spp) {
        const v = raw[at + P];
        // NaN is never equal to itself: a float raster's NaN is no data too.
        if (v === nodata || v !== v) continue;
        got++;
        p = Math.fround(p + v);
        sum = Math.fround(sum + raw[at + C]);
        const h = raw[at + H];
        if (h > t) t = h;
      }
      seen[c] += got;
      presence[c] = p;
      count[c] = sum;
      tallest[c] = t;
    }
  }
  const valid = new Uint8Array(n);
  const built = new Uint8Array(n);
  const builtHeight = new Float32Array(n).fill(-Infinity);
  for (let c = 0; c < n; c++) {
    if (seen[c] === 0) continue;
    valid[c] = 1;
    // The mean kept at the raster's single precision, as the cell's presence.
    if (Math.fround(presence[c] / seen[c]) >= input.presenceThreshold) {
      built[c] = 1;
      builtHeight[c] = tallest[c];
    }
  }
  return { width, height, valid, built, count, builtHeight };
}

export interface BuildingsInMask {
  /** Cells of the mask holding data. */
  valid: number;
  /** Of those, cells built up. */
  built: number;
  /** Summed fractional building count over the valid cells. */
  count: number;
  /** The greatest height of a built-up cell; null when none is. */
  tallest: number | null;
}

export function buildingsInMask(cells: BuildingCells, mask: PixelMask): BuildingsInMask {
  const { valid, built, count, builtHeight } = cells;
  const { spans } = mask;
  let nValid = 0;
  let nBuilt = 0;
  let sum = 0;
  let tallest = -Infinity;
  for (let s = 0; s < spans.length; s += 2) {
    const end = spans[s + 1];
    for (let i = spans[s]; i < end; i++) {
      nValid += valid[i];
      nBuilt += built[i];
      sum += count[i];
      tallest = Math.max(tallest, builtHeight[i]);
    }
  }
  return { valid: nValid, built: nBuilt, count: sum, tallest: nBuilt === 0 ? null : tallest };
}
