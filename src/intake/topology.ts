import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import Location from 'jsts/org/locationtech/jts/geom/Location.js';
import IsValidOp from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';
import TopologyValidationError from 'jsts/org/locationtech/jts/operation/valid/TopologyValidationError.js';
import Polygonizer from 'jsts/org/locationtech/jts/operation/polygonize/Polygonizer.js';
import UnaryUnionOp from 'jsts/org/locationtech/jts/operation/union/UnaryUnionOp.js';
import InteriorPointArea from 'jsts/org/locationtech/jts/algorithm/InteriorPointArea.js';
import RayCrossingCounter from 'jsts/org/locationtech/jts/algorithm/RayCrossingCounter.js';
import RobustLineIntersector from 'jsts/org/locationtech/jts/algorithm/RobustLineIntersector.js';
import MCIndexNoder from 'jsts/org/locationtech/jts/noding/MCIndexNoder.js';
import NodedSegmentString from 'jsts/org/locationtech/jts/noding/NodedSegmentString.js';
import ArrayList from 'jsts/java/util/ArrayList.js';
import OverlayOp from 'jsts/org/locationtech/jts/operation/overlay/OverlayOp.js';
import { finding, type Finding } from './findings.ts';
import type { IntakeCaps } from './limits.ts';
import { PlotOutOfTime, plotDeadline, type PlotDeadline } from './plot-deadline.ts';
import { overCap } from './shape.ts';
import { signedArea2 } from './rings.ts';
import type { Position } from './types.ts';

/**
 * Validity and its repairs, with JSTS (the JavaScript port of JTS, which GEOS and PostGIS also follow).
 * Input rings are closed, free of repeated vertices and oriented (see rings.ts).
 */

// JSTS ships loose typings (mostly `any`); these are the few members used here.
interface JGeometry {
  getGeometryType(): string;
  getNumGeometries(): number;
  getGeometryN(i: number): JGeometry;
  getArea(): number;
  isEmpty(): boolean;
  getExteriorRing(): JGeometry;
  getNumInteriorRing(): number;
  getInteriorRingN(i: number): JGeometry;
  getCoordinates(): JCoordinate[];
}
interface JCoordinate {
  x: number;
  y: number;
}

const factory = new GeometryFactory();

const toRing = (ring: Position[]) => factory.createLinearRing(ring.map(([x, y]) => new Coordinate(x, y)));
const toPolygon = (rings: Position[][]): JGeometry =>
  factory.createPolygon(toRing(rings[0]), rings.slice(1).map(toRing));
const positions = (g: JGeometry): Position[] => g.getCoordinates().map((c) => [c.x, c.y]);

function polygonsIn(g: JGeometry): JGeometry[] {
  if (g.isEmpty()) return [];
  if (g.getGeometryType() === 'Polygon') return [g];
  const out: JGeometry[] = [];
  for (let i = 0; i < g.getNumGeometries(); i++) out.push(...polygonsIn(g.getGeometryN(i)));
  return out;
}

/**
 * Rebuilds an invalid polygon from its linework: the rings are noded at every crossing, the faces
 * are formed, and a face is kept when an odd number of the rings surround it (even-odd rule). This is
 * the "linework" repair of GEOS/PostGIS ST_MakeValid: a figure eight becomes its two lobes.
 */
function rebuildEvenOdd(rings: Position[][], deadline: PlotDeadline): JGeometry[] {
  const lines = rings.map((r) => factory.createLineString(r.map(([x, y]) => new Coordinate(x, y))));
  const noded = UnaryUnionOp.union(factory.createMultiLineString(lines));
  deadline.check();
  const polygonizer = new Polygonizer();
  polygonizer.add(noded);
  const ringCoordinates = rings.map((r) => r.map(([x, y]) => new Coordinate(x, y)));
  const kept: JGeometry[] = [];
  for (const face of polygonizer.getPolygons().toArray() as JGeometry[]) {
    const inside = new InteriorPointArea(face).getInteriorPoint();
    let surrounding = 0;
    // Each look-up walks a whole ring: faces times vertices, the rebuild's own quadratic loop.
    for (const ring of ringCoordinates) {
      deadline.check();
      if (RayCrossingCounter.locatePointInRing(inside, ring) === Location.INTERIOR) surrounding++;
    }
    if (surrounding % 2 === 1) kept.push(face);
  }
  if (kept.length === 0) return [];
  return polygonsIn(UnaryUnionOp.union(factory.createMultiPolygon(kept)));
}

const CROSSINGS = new Set([TopologyValidationError.SELF_INTERSECTION, TopologyValidationError.RING_SELF_INTERSECTION]);

const near = (c: JCoordinate | null) => (c ? `Near ${c.x.toFixed(6)}, ${c.y.toFixed(6)}.` : undefined);

/** Thrown from inside the noder once the count passes the cap: the rest of the pairs are not looked at. */
const OVER = new Error('over the crossing cap');

/**
 * Counts the points where a plot's rings cross, touch or run along one another or themselves, up to
 * one past `cap`. The monotone-chain index visits only segments whose boxes overlap, so the count
 * costs about the number of crossings it finds, and stopping at the cap bounds it however the
 * rings are drawn (a ring retracing a square thousands of times overlaps itself millions of times).
 */
function crossingsUpTo(polygons: Position[][][], cap: number, deadline: PlotDeadline): number {
  const intersector = new RobustLineIntersector();
  let count = 0;
  const counter = {
    processIntersections(e0: JSegments, i0: number, e1: JSegments, i1: number) {
      deadline.check();
      const a = e0.getCoordinates();
      const b = e1.getCoordinates();
      intersector.computeIntersection(a[i0], a[i0 + 1], b[i1], b[i1 + 1]);
      if (!intersector.hasIntersection()) return;
      // Neighbouring segments of a ring meet at their shared vertex; that counts only where they run back along each other.
      const last = a.length - 2;
      const neighbours = e0 === e1 && (Math.abs(i0 - i1) === 1 || (Math.min(i0, i1) === 0 && Math.max(i0, i1) === last));
      if (neighbours && intersector.getIntersectionNum() === 1) return;
      if (++count > cap) throw OVER;
    },
    isDone: () => false,
  };
  const lines = new ArrayList(null);
  for (const rings of polygons) for (const ring of rings) lines.add(new NodedSegmentString(ring.map(([x, y]) => new Coordinate(x, y)), null));
  try {
    new MCIndexNoder(counter).computeNodes(lines);
  } catch (error) {
    if (error !== OVER) throw error;
  }
  return count;
}

interface JSegments {
  getCoordinates(): JCoordinate[];
}

export type TopologyChecked = { polygons: Position[][][]; repairs: Finding[]; rejection?: undefined } | { rejection: Finding };

/**
 * Makes the polygons valid and fit for a filing: crossings and badly nested rings are rebuilt
 * (even-odd), overlapping parts merged, holes filled (the EU system keeps only outer boundaries).
 * Every output polygon is a single counterclockwise ring. Throws PlotOutOfTime once `deadline` (by
 * default the plot's budget from the call) has passed.
 */
export function checkTopology(polygons: Position[][][], caps: IntakeCaps, deadline = plotDeadline(caps.plotBudgetMs)): TopologyChecked {
  const repairs: Finding[] = [];
  try {
    if (crossingsUpTo(polygons, caps.crossingsPerPlot, deadline) > caps.crossingsPerPlot) {
      return { rejection: overCap(`more than ${caps.crossingsPerPlot.toLocaleString('en')} points where its rings cross or touch`, caps, 'crossingsPerPlot') };
    }
    let parts: JGeometry[] = [];
    for (const rings of polygons) {
      const covering = holeCoveringShell(rings, deadline);
      if (covering) return { rejection: covering };
      const polygon = toPolygon(rings);
      const op = new IsValidOp(polygon);
      const valid = op.isValid();
      deadline.check();
      if (valid) {
        parts.push(polygon);
        continue;
      }
      const error = op.getValidationError();
      const code = CROSSINGS.has(error.getErrorType()) ? 'self_intersection' : 'invalid_rings';
      const rebuilt = rebuildEvenOdd(rings, deadline);
      deadline.check();
      parts.push(...rebuilt);
      if (rebuilt.length > 0 && !repairs.some((f) => f.code === code)) repairs.push(finding(code, near(error.getCoordinate())));
    }
    if (parts.length > 1) {
      const multi = factory.createMultiPolygon(parts);
      const overlapping = !IsValidOp.isValid(multi);
      deadline.check();
      if (overlapping) {
        parts = polygonsIn(UnaryUnionOp.union(multi));
        deadline.check();
        repairs.push(finding('overlapping_parts'));
      }
    }
    parts = parts.filter((p) => p.getArea() > 0);
    if (parts.length === 0) return { rejection: finding('degenerate_polygon') };
    const holes = parts.reduce((n, p) => n + p.getNumInteriorRing(), 0);
    if (holes > 0) {
      repairs.push(finding('polygon_with_holes', `${holes === 1 ? '1 hole was' : `${holes} holes were`} filled.`));
      // A part lying in another part's hole overlaps it once the hole is filled.
      const shells = parts.map((p) => factory.createPolygon(p.getExteriorRing()));
      parts = shells.length > 1 ? polygonsIn(UnaryUnionOp.union(factory.createMultiPolygon(shells))) : shells;
    }
    const out = parts.map((p) => [counterclockwise(positions(p.getExteriorRing()))]);
    return { polygons: out, repairs };
  } catch (error) {
    if (error instanceof PlotOutOfTime) throw error;
    return unrepairable(error);
  }
}

/**
 * A hole that covers its outer ring (the same ring, or a larger one around it): the even-odd rebuild
 * would leave nothing or the wrong ring's inside, and the EU system, ignoring holes, the outer ring alone.
 */
function holeCoveringShell(rings: Position[][], deadline: PlotDeadline): Finding | null {
  const shell = rings[0].map(([x, y]) => new Coordinate(x, y));
  for (let h = 1; h < rings.length; h++) {
    const hole = rings[h].map(([x, y]) => new Coordinate(x, y));
    // Shell vertices times hole vertices when the hole covers the shell: the clock is read at each.
    const outside = (c: JCoordinate) => {
      deadline.check();
      return RayCrossingCounter.locatePointInRing(c, hole) === Location.EXTERIOR;
    };
    if (shell.some(outside)) continue;
    const how = Math.abs(signedArea2(rings[h])) <= Math.abs(signedArea2(rings[0])) * (1 + 1e-9) ? 'equal to' : 'larger than and around';
    return finding('hole_covers_outer_ring', `Hole ${h} is ${how} the outer ring.`);
  }
  return null;
}

/**
 * JSTS throws TopologyException on input its noding cannot resolve (edges that nearly coincide), with
 * the point where it stopped; the finding says so in its own words and names that point, never the
 * library's message, which quotes its classes and the plot's whole linework.
 */
function unrepairable(error: unknown): { rejection: Finding } {
  const at = (error as { getCoordinate?: () => JCoordinate | undefined } | null)?.getCoordinate?.();
  const detail = at ? `Edges nearly coincide where the repair stopped. ${near(at)}` : undefined;
  return { rejection: finding('unrepairable_geometry', detail) };
}

const counterclockwise = (ring: Position[]) => (signedArea2(ring) < 0 ? ring.slice().reverse() : ring);

/**
 * A polygon written across the antimeridian as one ring has an edge spanning over 180 degrees of
 * longitude (from 179.5 to -179.5, say); RFC 7946 (3.1.9) asks for it cut in two instead. Such a
 * polygon's longitudes are unwrapped east of 180 so that it can be repaired as drawn, then cut by
 * splitAtAntimeridian.
 */
export function unwrapAntimeridian(polygons: Position[][][]): { polygons: Position[][][]; crossed: boolean } {
  const crosses = (rings: Position[][]) => rings.some((r) => r.some((p, i) => i > 0 && Math.abs(p[0] - r[i - 1][0]) > 180));
  let crossed = false;
  const out = polygons.map((rings) => {
    if (!crosses(rings)) return rings;
    crossed = true;
    return rings.map((r) => r.map(([x, y]): Position => [x < 0 ? x + 360 : x, y]));
  });
  return { polygons: out, crossed };
}

const box = (west: number, east: number) =>
  factory.createPolygon(toRing([[west, -90], [east, -90], [east, 90], [west, 90], [west, -90]]), []);

/** Unwrapped polygons (single counterclockwise rings) cut at 180 degrees, the part east of it moved back to -180..; a part from each side. */
export function splitAtAntimeridian(polygons: Position[][][]): TopologyChecked {
  try {
    const out: Position[][][] = [];
    for (const [ring] of polygons) {
      if (ring.every(([x]) => x <= 180)) {
        out.push([ring]);
        continue;
      }
      const polygon = toPolygon([ring]);
      for (const west of polygonsIn(OverlayOp.intersection(polygon, box(-180, 180)))) out.push([counterclockwise(positions(west.getExteriorRing()))]);
      for (const east of polygonsIn(OverlayOp.intersection(polygon, box(180, 540)))) {
        out.push([counterclockwise(positions(east.getExteriorRing()).map(([x, y]): Position => [x - 360, y]))]);
      }
    }
    return { polygons: out, repairs: [finding('crosses_antimeridian')] };
  } catch (error) {
    return unrepairable(error);
  }
}
