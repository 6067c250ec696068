import { localFrame } from './geodesic.ts';
import type { PlotGeometry, Position } from './types.ts';

/** Spec 8: a boundary change of more than about one centimetre withdraws the evidence. */
export const BOUNDARY_MOVE_TOLERANCE_M = 0.01;

type XY = [number, number];

function vertexRings(g: PlotGeometry): Position[][] {
  if (g.type === 'Point') return [[g.coordinates]];
  if (g.type === 'Polygon') return g.coordinates;
  return g.coordinates.flat();
}

function distanceSqToSegment(p: XY, a: XY, b: XY): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = a[0] + t * dx - p[0];
  const ey = a[1] + t * dy - p[1];
  return ex * ex + ey * ey;
}

/** Segments of the rings (a point is a segment of length zero). */
function segments(rings: XY[][]): [XY, XY][] {
  const out: [XY, XY][] = [];
  for (const r of rings) {
    if (r.length === 1) out.push([r[0], r[0]]);
    for (let i = 0; i + 1 < r.length; i++) out.push([r[i], r[i + 1]]);
  }
  return out;
}

/**
 * The largest distance from a vertex of `from` to the boundary of `to`, in metres squared, stopping
 * as soon as it exceeds `stopAboveSq`. The search for each vertex starts at the segment that was
 * nearest to the previous vertex, so an unchanged boundary costs one segment per vertex.
 */
function directedShiftSq(from: XY[][], to: [XY, XY][], stopAboveSq: number): number {
  let worst = 0;
  let hint = 0;
  for (const ring of from) {
    for (const p of ring) {
      let best = Infinity;
      for (let k = 0; k < to.length; k++) {
        const i = (hint + k) % to.length;
        const d = distanceSqToSegment(p, to[i][0], to[i][1]);
        if (d < best) {
          best = d;
          hint = i;
          if (best <= worst) break; // this vertex cannot raise the maximum
        }
      }
      if (best > worst) worst = best;
      if (worst > stopAboveSq) return worst;
    }
  }
  return worst;
}

const sameCoordinates = (a: PlotGeometry, b: PlotGeometry) => a.type === b.type && JSON.stringify(a.coordinates) === JSON.stringify(b.coordinates);

function shiftSq(a: PlotGeometry, b: PlotGeometry, stopAboveSq: number): number {
  if (sameCoordinates(a, b)) return 0;
  if ((a.type === 'Point') !== (b.type === 'Point')) return Infinity;
  const ra = vertexRings(a);
  const project = localFrame(ra[0][0]);
  const pa = ra.map((r) => r.map(project));
  const pb = vertexRings(b).map((r) => r.map(project));
  const ab = directedShiftSq(pa, segments(pb), stopAboveSq);
  if (ab > stopAboveSq) return ab;
  return Math.max(ab, directedShiftSq(pb, segments(pa), stopAboveSq));
}

/**
 * How far one boundary lies from another, in metres: the larger of the two directed distances from
 * each one's vertices to the other's edges (a Hausdorff distance measured at the vertices, which is
 * where boundaries move). A point against a polygon is infinitely far.
 */
export function boundaryShiftM(a: PlotGeometry, b: PlotGeometry): number {
  return Math.sqrt(shiftSq(a, b, Infinity));
}

/**
 * Whether a re-uploaded boundary moved by more than the tolerance against the stored one (spec 3.1).
 * A boundary gained or lost (a plot rejected before or now) counts as moved.
 */
export function boundaryMoved(
  stored: PlotGeometry | null,
  incoming: PlotGeometry | null,
  toleranceM = BOUNDARY_MOVE_TOLERANCE_M,
): boolean {
  if (stored === null || incoming === null) return stored !== incoming;
  return shiftSq(stored, incoming, toleranceM * toleranceM) > toleranceM * toleranceM;
}
