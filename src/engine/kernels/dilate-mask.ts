/**
 * Cloud edges buffered. Scene classifications draw cloud and shadow where they are thick enough to
 * call; the thin fringe around them (haze, a dimmed or brightened rim) is labelled clear and pulls
 * a plot's NDVI down. So a clear pixel within `radius` pixels (Euclidean) of a cloud or shadow
 * pixel is taken as not clear. Only the classes marked in `spread` grow: no data and other
 * not-clear classes stay as they are, so a window's nodata edge does not eat into the plot.
 */
import type { ClassTest } from './raster.ts';

export interface BufferedClearInput extends ClassTest {
  readonly width: number;
  readonly height: number;
  /** Indexed by class value like `lookup`: 1 for the classes whose edges are buffered (cloud, shadow). */
  readonly spread: Uint8Array;
  /** Buffer radius in pixels of this grid; 0 buffers nothing. */
  readonly radius: number;
}

/** The clear mask after buffering (1 = clear), on the classes' grid; pass it with CLEAR_MASK_LOOKUP. */
export function bufferedClearMask(input: BufferedClearInput): Uint8Array {
  const { classes, lookup, spread, width, height } = input;
  const radius = Math.max(0, Math.floor(input.radius));
  const n = width * height;
  if (classes.length < n) throw new RangeError(`classes hold ${classes.length} values, under the ${width}×${height} window`);
  const clear = new Uint8Array(n);
  for (let i = 0; i < n; i++) clear[i] = lookup[classes[i]];
  if (radius === 0) return clear;
  // Per row, each pixel's distance to the nearest spreading pixel of that row, capped past the radius.
  const far = radius + 1;
  const across = new Int32Array(n);
  let any = false;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let d = far;
    for (let x = 0; x < width; x++) {
      d = spread[classes[row + x]] === 1 ? 0 : Math.min(far, d + 1);
      across[row + x] = d;
      any ||= d === 0;
    }
    d = far;
    for (let x = width - 1; x >= 0; x--) {
      d = spread[classes[row + x]] === 1 ? 0 : Math.min(far, d + 1);
      if (d < across[row + x]) across[row + x] = d;
    }
  }
  if (!any) return clear;
  // A pixel is within the disc when some row dy away holds a spreading pixel within reach[|dy|] across.
  const reach = Int32Array.from({ length: radius + 1 }, (_, dy) => Math.floor(Math.sqrt(radius * radius - dy * dy)));
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(height - 1, y + radius);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (clear[i] === 0) continue;
      for (let yy = y0; yy <= y1; yy++) {
        if (across[yy * width + x] <= reach[yy > y ? yy - y : y - yy]) {
          clear[i] = 0;
          break;
        }
      }
    }
  }
  return clear;
}
