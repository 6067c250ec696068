/**
 * The footprint a plot is read over (spec 2.7 `footprint`): the uploaded boundary, or for a point
 * a circle of the plot's area (the declared area, 4 ha when none was declared) drawn around it,
 * with the sentence that says which and states the area.
 */
import { centerOfMass, circle } from '@turf/turf';
import type { MultiPolygon, Point, Polygon } from 'geojson';
import { EVIDENCE_FLOOR_KM2 } from './decide.ts';

export interface PlotFootprint {
  footprint: Polygon | MultiPolygon;
  /** [longitude, latitude] of the footprint's centre of mass. */
  centroid: [number, number];
  /** The area the evidence states for the plot. */
  areaHa: number;
  /** True when the footprint is a circle drawn around a declared point. */
  drawn: boolean;
  sentence: string;
}

/** A point stands for this much ground when no area was declared (as the EU information system takes it). */
export const POINT_AREA_HA = EVIDENCE_FLOOR_KM2 * 100;
const CIRCLE_STEPS = 64;

const ha = (v: number) => `${v.toFixed(2)} ha`;

export function plotFootprint(geometry: Point | Polygon | MultiPolygon, areaHa: number | null, declaredAreaHa: number | null): PlotFootprint {
  if (geometry.type === 'Point') {
    const area = declaredAreaHa !== null && declaredAreaHa > 0 ? declaredAreaHa : POINT_AREA_HA;
    const radiusM = Math.sqrt((area * 10_000) / Math.PI);
    const drawn = circle(geometry.coordinates, radiusM / 1000, { steps: CIRCLE_STEPS, units: 'kilometers' }).geometry;
    const [lon, lat] = geometry.coordinates;
    const why = declaredAreaHa !== null && declaredAreaHa > 0 ? 'the declared area' : `${ha(POINT_AREA_HA)}: no area was declared`;
    return {
      footprint: drawn,
      centroid: [lon, lat],
      areaHa: area,
      drawn: true,
      sentence: `No boundary was uploaded: a circle of ${ha(area)} (${why}), radius ${Math.round(radiusM)} m, drawn around the declared point was read.`,
    };
  }
  const [lon, lat] = centerOfMass(geometry).geometry.coordinates;
  const area = areaHa ?? 0;
  const parts = geometry.type === 'MultiPolygon' && geometry.coordinates.length > 1 ? `, in ${geometry.coordinates.length} parts,` : '';
  return { footprint: geometry, centroid: [lon, lat], areaHa: area, drawn: false, sentence: `The uploaded boundary${parts} was read (${ha(area)}).` };
}
