// The plot as the context blocks see it, and the questions about its ground that more than one
// block asks (which box holds its centroid, what box to read around it).
import type { MultiPolygon, Polygon } from 'geojson';
import { metresPerDegree } from '../sources/reproject.ts';

export interface ContextPlot {
  /** The boundary read (WGS 84): the uploaded one, or the circle drawn around a declared point. */
  footprint: Polygon | MultiPolygon;
  /** [longitude, latitude] of the boundary's centroid. */
  centroid: [number, number];
  area_ha: number;
  /** The plot's own country (alpha-2), as registered. */
  country: string | null;
  /** The producer's country (alpha-2): it decides the country classification and the calibration region, before the plot's own. */
  producer_country: string | null;
}

/** [west, south, east, north] in degrees. */
export type LonLatBox = readonly [number, number, number, number];

export function inBox(box: LonLatBox, [lon, lat]: readonly [number, number]): boolean {
  return lon >= box[0] && lon <= box[2] && lat >= box[1] && lat <= box[3];
}

/** Bounding box of a footprint, grown by `marginM` metres on every side. */
export function footprintBox(footprint: Polygon | MultiPolygon, marginM = 0): [number, number, number, number] {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  const polygons = footprint.type === 'Polygon' ? [footprint.coordinates] : footprint.coordinates;
  for (const rings of polygons) {
    for (const [lon, lat] of rings[0]) {
      if (lon < w) w = lon;
      if (lon > e) e = lon;
      if (lat < s) s = lat;
      if (lat > n) n = lat;
    }
  }
  // Degrees of longitude are shortest at the latitude farthest from the equator.
  const m = metresPerDegree(Math.max(Math.abs(s), Math.abs(n)));
  const dLat = marginM / m.lat;
  const dLon = marginM / m.lon;
  return [w - dLon, s - dLat, e + dLon, n + dLat];
}
