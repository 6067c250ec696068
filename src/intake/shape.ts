import { decimalsOf, needsSixDecimals } from './decimals.ts';
import { REQUIRED_DECIMALS, finding, type Finding } from './findings.ts';
import { capText, type IntakeCaps } from './limits.ts';
import type { Position } from './types.ts';

/** A plot's geometry once its coordinates are read: a point, or polygons as rings of positions. */
export type Shape = { kind: 'point'; at: Position } | { kind: 'polygons'; polygons: Position[][][] };

export type ShapeReading =
  | { shape: Shape; repairs: Finding[]; /** Decimals of the most precise coordinate, counted up to six. */ decimals: number; rejection?: undefined }
  | { rejection: Finding; shape?: undefined };

class Unreadable extends Error {}

/** Depth of array nesting along first elements: a position is 1, a ring 2, a polygon 3. */
export function depthOf(x: unknown): number {
  let depth = 0;
  while (Array.isArray(x)) {
    depth++;
    x = x[0];
  }
  return depth;
}

/** A MultiPolygon's coordinates nest 4 deep; deeper ones are unreadable (readShape rejects them) and not walked. */
const DEEPEST_COORDINATES = 4;

/** The parts and vertices of coordinates nested `depth` deep, counted from array lengths alone. */
export function countOf(coordinates: unknown, depth: number): { parts: number; vertices: number } {
  if (!Array.isArray(coordinates) || depth > DEEPEST_COORDINATES) return { parts: 0, vertices: 0 };
  if (depth <= 1) return { parts: 1, vertices: 1 };
  if (depth === 2) return { parts: 1, vertices: coordinates.length };
  let vertices = 0;
  for (const inner of coordinates) vertices += countOf(inner, depth - 1).vertices;
  return { parts: depth === 4 ? coordinates.length : 1, vertices };
}

/** The finding for a cap exceeded, naming the cap and the variable that sets it. */
export const overCap = (found: string, caps: IntakeCaps, cap: keyof IntakeCaps) =>
  finding('geometry_too_complex', `It has ${found}; the most one plot may have is ${capText(caps, cap)}.`);

/**
 * Reads a GeoJSON-like geometry as found in a file. Wrong nesting is read at the depth the
 * coordinates actually have (the whisp-app CICC file types MultiPolygon nesting as Polygon; the EU
 * File Description itself shows a Point as [[x, y]]); altitude is dropped.
 */
export function readShape(geometry: unknown, caps: IntakeCaps): ShapeReading {
  if (geometry === null || geometry === undefined) return { rejection: finding('empty_geometry') };
  if (typeof geometry !== 'object' || Array.isArray(geometry)) return { rejection: finding('unreadable_geometry') };
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (type !== 'Point' && type !== 'Polygon' && type !== 'MultiPolygon') {
    if (typeof type !== 'string') return { rejection: finding('unreadable_geometry', 'The geometry has no type.') };
    return { rejection: finding('unsupported_geometry_type', `This one is a ${type}.`) };
  }
  if (!Array.isArray(coordinates) || coordinates.length === 0) return { rejection: finding('empty_geometry') };

  let decimals = 0;
  const position = (p: unknown): Position => {
    if (!Array.isArray(p) || p.length < 2) throw new Unreadable();
    const [x, y] = p;
    if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) throw new Unreadable();
    // Counting stops at six: printing every coordinate would cost more than the rest of the reading.
    if (decimals < REQUIRED_DECIMALS) {
      decimals = needsSixDecimals(x) || needsSixDecimals(y) ? REQUIRED_DECIMALS : Math.max(decimals, decimalsOf(x), decimalsOf(y));
    }
    return [x, y];
  };
  const list = <T>(a: unknown, item: (x: unknown) => T): T[] => {
    if (!Array.isArray(a)) throw new Unreadable();
    return a.map(item);
  };
  const ring = (r: unknown) => list(r, position);
  const polygon = (p: unknown) => list(p, ring);

  const depth = depthOf(coordinates);
  // Counted before a position is copied, so a plot over the caps costs no more than its counting.
  const size = countOf(coordinates, depth);
  if (size.parts > caps.partsPerPlot) return { rejection: overCap(`${size.parts.toLocaleString('en')} parts`, caps, 'partsPerPlot') };
  if (size.vertices > caps.verticesPerPlot) return { rejection: overCap(`${size.vertices.toLocaleString('en')} vertices`, caps, 'verticesPerPlot') };
  const expected = type === 'Point' ? 1 : type === 'Polygon' ? 3 : 4;
  const repairs: Finding[] = [];
  if (depth !== expected) repairs.push(finding('wrong_nesting', `The ${type} has coordinates nested ${depth} deep instead of ${expected}.`));
  try {
    if (type === 'Point') {
      if (depth === 1) return { shape: { kind: 'point', at: position(coordinates) }, repairs, decimals };
      if (depth === 2 && coordinates.length === 1) return { shape: { kind: 'point', at: position(coordinates[0]) }, repairs, decimals };
      return { rejection: finding('unreadable_geometry', `The Point has coordinates nested ${depth} deep.`) };
    }
    let polygons: Position[][][];
    if (depth === 4) polygons = list(coordinates, polygon);
    else if (depth === 3) polygons = [polygon(coordinates)];
    else if (depth === 2) polygons = [[ring(coordinates)]];
    else return { rejection: finding('unreadable_geometry', `The ${type} has coordinates nested ${depth} deep.`) };
    polygons = polygons.filter((rings) => rings.length > 0 && rings[0].length > 0);
    if (polygons.length === 0) return { rejection: finding('empty_geometry') };
    return { shape: { kind: 'polygons', polygons }, repairs, decimals };
  } catch (error) {
    if (error instanceof Unreadable) return { rejection: finding('unreadable_geometry') };
    throw error;
  }
}

/** Whether every coordinate is a longitude in -180..180 and a latitude in -90..90. */
export function onEarth(shape: Shape): boolean {
  const ok = (p: Position) => p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90;
  if (shape.kind === 'point') return ok(shape.at);
  return shape.polygons.every((rings) => rings.every((r) => r.every(ok)));
}

export function swapAxes(shape: Shape): Shape {
  const swap = (p: Position): Position => [p[1], p[0]];
  if (shape.kind === 'point') return { kind: 'point', at: swap(shape.at) };
  return { kind: 'polygons', polygons: shape.polygons.map((rings) => rings.map((r) => r.map(swap))) };
}

/**
 * The area-weighted centroid of the outer rings (planar in degrees, which is what a point-in-country
 * test needs); the mean of their vertices when they enclose no area. Parts on either side of the
 * antimeridian are measured with western longitudes carried past 180, so their centroid lies between
 * them, not on the far side of the world.
 */
export function centroidOf(shape: Shape): Position {
  if (shape.kind === 'point') return shape.at;
  let west = Infinity;
  let east = -Infinity;
  for (const rings of shape.polygons) {
    for (const [x] of rings[0]) {
      west = Math.min(west, x);
      east = Math.max(east, x);
    }
  }
  // Only longitudes on Earth are carried: beyond ±180 (refused later, with a reason) one shift
  // would not close the span, and the centroid is wanted for the refusal's message all the same.
  if (east - west > 180 && west >= -180 && east <= 180) {
    const [x, y] = areaCentroid(shape.polygons.map((rings) => rings.map((r) => r.map(([px, py]): Position => [px < 0 ? px + 360 : px, py]))));
    return [x >= 180 ? x - 360 : x, y];
  }
  return areaCentroid(shape.polygons);
}

function areaCentroid(polygons: Position[][][]): Position {
  let a = 0;
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (const rings of polygons) {
    const r = rings[0];
    // Relative to the first vertex, so large coordinates do not swamp plot-sized areas.
    const [x0, y0] = r[0];
    for (let i = 0; i < r.length; i++) {
      const [x1, y1] = r[i];
      const [x2, y2] = r[(i + 1) % r.length];
      const u1 = x1 - x0, v1 = y1 - y0, u2 = x2 - x0, v2 = y2 - y0;
      const cross = u1 * v2 - u2 * v1;
      a += cross;
      cx += (u1 + u2) * cross + 3 * x0 * cross;
      cy += (v1 + v2) * cross + 3 * y0 * cross;
      sx += x1;
      sy += y1;
      n++;
    }
  }
  if (Math.abs(a) > 0) return [cx / (3 * a), cy / (3 * a)];
  return [sx / n, sy / n];
}
