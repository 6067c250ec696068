// The cells of a regular grid in degrees (the products' tiles) that a box touches.
import type { Bbox } from '../reproject.ts';

/**
 * A point inside each `size`° cell a box (lon/lat) touches, rows from the north, each west to
 * east. A box edge on a cell edge does not take the neighbour. The cell holding the box's
 * north-west corner comes first.
 */
export function cellsTouching([w, s, e, n]: Bbox, size: number): Array<[number, number]> {
  const c0 = Math.floor(w / size);
  const c1 = Math.max(c0, Math.ceil(e / size) - 1);
  const r0 = Math.floor(s / size);
  const r1 = Math.max(r0, Math.ceil(n / size) - 1);
  const out: Array<[number, number]> = [];
  for (let r = r1; r >= r0; r--) for (let c = c0; c <= c1; c++) out.push([(c + 0.5) * size, (r + 0.5) * size]);
  return out;
}
