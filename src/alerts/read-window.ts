/**
 * The read window of an alert (spec 4.4 rule 5): a polygon of at least the evidence floor is read
 * as sent; a point, or a smaller polygon, over a square of the floor's area centred on it. The
 * square is a drawn read area, stored as the plot's boundary, so the engine reads it as a boundary
 * (unlike a producer's point plot, which carries no boundary of its own).
 */
import { metresPerDegree } from '../engine/kernels/degree-metres.ts';
import { polygonsAreaHa } from '../intake/geodesic.ts';
import { centroidOf, type Shape } from '../intake/shape.ts';
import type { PlotGeometry, Position } from '../intake/types.ts';
import { ALERT_LIMITS } from './limits.ts';

export interface ReadWindow {
  geometry: PlotGeometry;
  area_ha: number;
  constructed: boolean;
}

/** A square of `areaHa` centred on a position, axis-aligned in longitude and latitude, as a closed counterclockwise ring. */
export function squareAround([x, y]: Position, areaHa: number): Position[] {
  const half = Math.sqrt(areaHa * 10_000) / 2;
  const m = metresPerDegree(y);
  const dx = half / m.lon;
  const dy = half / m.lat;
  return [[x - dx, y - dy], [x + dx, y - dy], [x + dx, y + dy], [x - dx, y + dy], [x - dx, y - dy]];
}

const round = (ha: number) => Number(ha.toFixed(4));

/** The footprint's area (0 for a point) and the window it is read over. */
export function readWindow(shape: Shape): { footprint_area_ha: number; window: ReadWindow } {
  const footprint = shape.kind === 'point' ? 0 : polygonsAreaHa(shape.polygons);
  if (shape.kind === 'polygons' && footprint >= ALERT_LIMITS.windowHa) {
    const geometry: PlotGeometry = shape.polygons.length === 1
      ? { type: 'Polygon', coordinates: shape.polygons[0] }
      : { type: 'MultiPolygon', coordinates: shape.polygons };
    return { footprint_area_ha: round(footprint), window: { geometry, area_ha: round(footprint), constructed: false } };
  }
  const ring = squareAround(centroidOf(shape), ALERT_LIMITS.windowHa);
  return {
    footprint_area_ha: round(footprint),
    window: { geometry: { type: 'Polygon', coordinates: [ring] }, area_ha: round(polygonsAreaHa([[ring]])), constructed: true },
  };
}
