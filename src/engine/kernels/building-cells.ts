/**
 * Buildings on a fine raster gathered into coarser square cells, then counted over a mask of
 * cells. The raster carries, per pixel, a presence score, a fractional building count and a
 * height (interleaved samples); a cell of `factor × factor` pixels takes the mean presence of its
 * pixels with data, their summed count and their greatest height (never below 0). A cell is built
 * up when its mean presence reaches the threshold; only built-up cells give a height.
 *
 * Gathering and judging are apart, so a tile can be gathered into its cells once, when it is
 * decoded, and its cells kept in place of its pixels (tile-decode.ts): a cell's sums are
 * CELL_SUMS samples, interleaved like the pixels. The gathering loop walks each pixel row cell by
 * cell, summing a cell's pixels of the row in locals and storing once per cell (sums kept at the
 * raster's single precision); the mask loop adds per-cell flags and values, with no branch per cell.
 */
import type { PixelMask } from './rasterise-mask.ts';
import type { Raster } from './raster.ts';

/** A cell's sums, in this order: presence over its pixels with data, those pixels, their count, the greatest height (0 at least). */
export const CELL_SUMS = 4;

/** Where each band lies within a pixel's samples. */
export interface BuildingBands {
  readonly presence: number;
  readonly count: number;
  readonly height: number;
}

export interface CellGatherInput {
  /** Interleaved samples, row-major, `stride` pixels a row. */
  readonly raw: Raster;
  readonly stride: number;
  /** The pixels gathered: from (0, 0), this many across and down; a last cell short of them holds what lies inside. */
  readonly width: number;
  readonly height: number;
  readonly samplesPerPixel: number;
  readonly bands: BuildingBands;
  /** Presence value meaning no data (NaN is always no data). */
  readonly nodata: number | null;
  /** Pixels per cell side. */
  readonly factor: number;
  /** Cells a row of the sums holds, when more than the pixels fill (a tile's cells past its file's edge stay empty). */
  readonly cellsAcross?: number;
}

/** Cells of `factor` pixels from the raster's first pixel: CELL_SUMS samples a cell, into `into` when given (it must hold them). */
export function gatherCellSums(input: CellGatherInput, into?: Float32Array): { sums: Float32Array; width: number; height: number } {
  const { raw, samplesPerPixel: spp, factor: k } = input;
  // Band offsets and the row stride as locals, so the pixel loop reads no object property.
  const P = input.bands.presence;
  const C = input.bands.count;
  const H = input.bands.height;
  const stride = input.stride * spp;
  const width = Math.max(input.cellsAcross ?? 0, Math.ceil(input.width / k));
  const height = Math.ceil(input.height / k);
  const sums = into === undefined ? new Float32Array(width * height * CELL_SUMS) : into.fill(0);
  const nodata = input.nodata ?? Number.NaN;
  for (let y = 0; y < input.height; y++) {
    let at = y * stride;
    let c = Math.floor(y / k) * width * CELL_SUMS;
    for (let x0 = 0; x0 < input.width; x0 += k, c += CELL_SUMS) {
      // The cell's pixels of this row, added in locals and stored once; each sum is rounded to
      // single precision at every step, as adding into the Float32Array would.
      let p = sums[c];
      let got = sums[c + 1];
      let sum = sums[c + 2];
      let t = sums[c + 3];
      const x1 = Math.min(x0 + k, input.width);
      for (let x = x0; x < x1; x++, at += spp) {
        const v = raw[at + P];
        // NaN is never equal to itself: a float raster's NaN is no data too.
        if (v === nodata || v !== v) continue;
        got++;
        p = Math.fround(p + v);
        sum = Math.fround(sum + raw[at + C]);
        const h = raw[at + H];
        if (h > t) t = h;
      }
      sums[c] = p;
      sums[c + 1] = got;
      sums[c + 2] = sum;
      sums[c + 3] = t;
    }
  }
  return { sums, width, height };
}

export interface BuildingCells {
  /** Cells across and down. */
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

/** Cells judged from their sums (CELL_SUMS interleaved samples a cell, `width × height` cells). */
export function judgeCells(sums: Raster, width: number, height: number, presenceThreshold: number): BuildingCells {
  const n = width * height;
  const valid = new Uint8Array(n);
  const built = new Uint8Array(n);
  const count = new Float32Array(n);
  const builtHeight = new Float32Array(n).fill(-Infinity);
  for (let c = 0, at = 0; c < n; c++, at += CELL_SUMS) {
    const seen = sums[at + 1];
    if (seen === 0) continue;
    valid[c] = 1;
    count[c] = sums[at + 2];
    // The mean kept at the raster's single precision, as the cell's presence.
    if (Math.fround(sums[at] / seen) >= presenceThreshold) {
      built[c] = 1;
      builtHeight[c] = sums[at + 3];
    }
  }
  return { width, height, valid, built, count, builtHeight };
}

export interface BuildingCellsInput extends Omit<CellGatherInput, 'stride'> {
  /** Mean presence from which a cell is built up. */
  readonly presenceThreshold: number;
}

/** A window's pixels gathered and judged; partial cells at its right and bottom edges are dropped. */
export function buildingCells(input: BuildingCellsInput): BuildingCells {
  const k = input.factor;
  const whole = { ...input, stride: input.width, width: Math.floor(input.width / k) * k, height: Math.floor(input.height / k) * k };
  const { sums, width, height } = gatherCellSums(whole);
  return judgeCells(sums, width, height, input.presenceThreshold);
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
