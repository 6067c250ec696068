import { onSixDecimalGrid } from './decimals.ts';
import { finding, type Finding } from './findings.ts';
import type { Position } from './types.ts';

export type RingsTidied = { polygons: Position[][][]; repairs: Finding[]; rejection?: undefined } | { rejection: Finding };

const same = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];
const sameOnGrid = (a: Position, b: Position) =>
  onSixDecimalGrid(a[0]) === onSixDecimalGrid(b[0]) && onSixDecimalGrid(a[1]) === onSixDecimalGrid(b[1]);

/** Twice the signed planar area of a ring in degrees, open or closed; counterclockwise is positive. */
export function signedArea2(ring: Position[]): number {
  const [x0, y0] = ring[0];
  let s = 0;
  for (let i = 1; i + 1 < ring.length; i++) {
    s += (ring[i][0] - x0) * (ring[i + 1][1] - y0) - (ring[i + 1][0] - x0) * (ring[i][1] - y0);
  }
  return s;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Closes rings, drops repeated vertices (exact, or equal once cut to 6 decimals as the EU system cuts
 * them), refuses rings of fewer than three distinct vertices, and turns rings to RFC 7946 orientation
 * (outer rings counterclockwise, holes clockwise). `reportOrientation` is false where the file format
 * fixes the orientation itself (a shapefile's outer rings run clockwise by definition).
 */
export function tidyRings(polygons: Position[][][], reportOrientation: boolean): RingsTidied {
  let unclosed = 0;
  let repeated = 0;
  let collapsed = 0;
  let turned = 0;
  const out: Position[][][] = [];
  for (const rings of polygons) {
    const tidied: Position[][] = [];
    for (let r = 0; r < rings.length; r++) {
      const ring = rings[r];
      const first = ring[0];
      const last = ring[ring.length - 1];
      let open = ring;
      if (ring.length > 1 && same(first, last)) open = ring.slice(0, -1);
      // A ring closed once cut to 6 decimals is closed for the EU system too: no finding.
      else if (ring.length > 1 && sameOnGrid(first, last)) open = ring.slice(0, -1);
      else unclosed++;

      const kept: Position[] = [];
      for (const p of open) {
        const prev = kept[kept.length - 1];
        if (prev && same(prev, p)) repeated++;
        else if (prev && sameOnGrid(prev, p)) collapsed++;
        else kept.push(p);
      }
      while (kept.length > 1 && sameOnGrid(kept[kept.length - 1], kept[0])) {
        if (same(kept[kept.length - 1], kept[0])) repeated++;
        else collapsed++;
        kept.pop();
      }
      if (kept.length < 3) {
        const which = r === 0 ? 'The outer ring' : 'A hole';
        return { rejection: finding('too_few_vertices', `${which} has ${plural(kept.length, 'distinct vertex', 'distinct vertices')}.`) };
      }
      const area = signedArea2(kept);
      const wantCounterclockwise = r === 0;
      if (area !== 0 && area > 0 !== wantCounterclockwise) {
        kept.reverse();
        kept.unshift(kept.pop()!); // the ring still starts where the file started it
        turned++;
      }
      kept.push(kept[0]);
      tidied.push(kept);
    }
    out.push(tidied);
  }
  const repairs: Finding[] = [];
  if (unclosed) repairs.push(finding('unclosed_ring', `${plural(unclosed, 'ring was', 'rings were')} open.`));
  if (repeated) repairs.push(finding('duplicate_vertices', `${plural(repeated, 'repeated vertex', 'repeated vertices')} removed.`));
  if (collapsed) repairs.push(finding('vertices_collapse_at_6_decimals', `${plural(collapsed, 'vertex', 'vertices')} merged.`));
  if (turned && reportOrientation) repairs.push(finding('ring_orientation', `${plural(turned, 'ring', 'rings')} reversed.`));
  return { polygons: out, repairs };
}
