/**
 * The footprint a plot is read over (spec 2.7 `footprint`): the uploaded boundary, or for a point
 * a circle of the plot's area (the declared area, 4 ha when none was declared) drawn around it,
 * with the sentence that says which and states the area.
 */
import { centerOfMass, circle } from '@turf/turf';
import type { MultiPolygon, Point, Polygon, Position } from 'geojson';
import { polygonsAreaHa } from '../intake/geodesic.ts';
import { EVIDENCE_FLOOR_KM2 } from './decide.ts';

export interface PlotFootprint {
  footprint: Polygon | MultiPolygon;
  /** [longitude, latitude] of the footprint's centre of mass. */
  centroid: [number, number];
  /** The area the evidence states for the plot: the register's for a boundary, the drawn polygon's measured area for a point. */
  areaHa: number;
  /** False for a point with no declared area: the circle is the service's, so the plot's own area is not known (decide.ts, the floor). */
  areaKnown: boolean;
  /** True when the footprint is a circle drawn around a declared point. */
  drawn: boolean;
  sentence: string;
}

/** A point stands for this much ground when no area was declared (as the EU information system takes it). */
export const POINT_AREA_HA = EVIDENCE_FLOOR_KM2 * 100;
const CIRCLE_STEPS = 64;

const ha = (v: number) => `${v.toFixed(2)} ha`;

/** Area in hectares of a polygon's rings, measured on the ellipsoid as the register measures boundaries. */
export function polygonAreaHa(rings: Position[][]): number {
  return polygonsAreaHa([rings as [number, number][][]]);
}

/**
 * A 64-sided polygon around `centre` holding `areaHa`, measured as the register measures boundaries.
 * Inscribed in the circle of that area on a sphere it would hold 0.16% less near the equator (a
 * "4 ha" circle of 3.99 ha) and more towards the poles, so the radius is scaled until the polygon
 * itself holds the area: a declared area is then read whole, and the area stated is what was drawn.
 */
function circleOfArea(centre: Position, areaHa: number): { polygon: Polygon; radiusM: number; areaHa: number } {
  let radiusM = Math.sqrt((areaHa * 10_000) / Math.PI);
  const draw = (r: number) => circle(centre, r / 1000, { steps: CIRCLE_STEPS, units: 'kilometers' }).geometry;
  let polygon = draw(radiusM);
  let measured = polygonAreaHa(polygon.coordinates);
  // Area grows about as the square of the radius (less so for a circle of continental size, hence
  // a few steps); a hair over keeps a declared 4 ha from falling under the floor by rounding.
  const close = () => measured >= areaHa && measured - areaHa < areaHa * 1e-9;
  for (let step = 0; step < 8 && !close(); step++) {
    radiusM *= Math.sqrt(areaHa / measured) * (1 + 1e-10);
    polygon = draw(radiusM);
    measured = polygonAreaHa(polygon.coordinates);
  }
  return { polygon, radiusM, areaHa: measured };
}

export function plotFootprint(geometry: Point | Polygon | MultiPolygon, areaHa: number | null, declaredAreaHa: number | null): PlotFootprint {
  if (geometry.type === 'Point') {
    const declared = declaredAreaHa !== null && declaredAreaHa > 0;
    const drawn = circleOfArea(geometry.coordinates, declared ? declaredAreaHa : POINT_AREA_HA);
    const [lon, lat] = geometry.coordinates;
    const circleRead = (what: string) => `a circle of ${ha(drawn.areaHa)} (${what}), radius ${Math.round(drawn.radiusM)} m, drawn around the declared point was read`;
    return {
      footprint: drawn.polygon,
      centroid: [lon, lat],
      areaHa: drawn.areaHa,
      areaKnown: declared,
      drawn: true,
      sentence: declared
        ? `No boundary was uploaded: ${circleRead('the declared area')}.`
        : `No boundary was uploaded and no area was declared: ${circleRead('the area a point stands for')}. The plot's own area is not known, so it is not shown to reach the evidence floor.`,
    };
  }
  const [lon, lat] = centerOfMass(geometry).geometry.coordinates;
  const area = areaHa ?? 0;
  const parts = geometry.type === 'MultiPolygon' && geometry.coordinates.length > 1 ? geometry.coordinates.length : 1;
  const sentence = parts > 1
    ? `The uploaded boundary, in ${parts} parts, was read part by part (${ha(area)} in all), each part on the archives' tiles under it.`
    : `The uploaded boundary was read (${ha(area)}).`;
  return { footprint: geometry, centroid: [lon, lat], areaHa: area, areaKnown: true, drawn: false, sentence };
}
