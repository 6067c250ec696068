/**
 * The geolocation of a statement per the EU GeoJSON file description (v1.3): one FeatureCollection per
 * producer, each plot a Feature with `ProducerName`, `ProducerCountry`, `ProductionPlace` and `Area`
 * (hectares); coordinates on the system's 6-decimal grid. What the system would refuse (no geometry,
 * a rejected plot, a hole, a point standing for more than 4 ha, vertices that meet on the grid) is
 * named among the problems; the geometry is never changed to pass.
 */
import { randomBytes } from 'node:crypto';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { onSixDecimalGrid } from '../intake/decimals.ts';
import type { PlotGeometry, Position } from '../intake/types.ts';
import { problem, type Problem } from './problems.ts';

/** A point stands for at most 4 ha (except cattle) and at least 0.0001 ha. */
export const POINT_AREA_HA = { min: 0.0001, max: 4 } as const;
/** A point without a declared area is taken as 4 ha by the system. */
export const POINT_DEFAULT_AREA_HA = 4;

/** A plot of the batch as the geolocation needs it. */
export interface GeolocatedPlot {
  id: string;
  external_ref: string | null;
  validation_state: string;
  geometry: PlotGeometry | null;
  area_ha: number | null;
  declared_area_ha: number | null;
  producer_name: string | null;
  country: string | null;
}

const grid = (x: number) => onSixDecimalGrid(x) / 1e6;
const onGrid = (p: Position): Position => [grid(p[0]), grid(p[1])];

/** Vertices next to each other that meet once on the grid (the closing vertex aside). */
function collapses(ring: Position[]): boolean {
  for (let i = 1; i < ring.length; i++) {
    if (ring[i][0] === ring[i - 1][0] && ring[i][1] === ring[i - 1][1]) return true;
  }
  return false;
}

function gridded(geometry: PlotGeometry): PlotGeometry {
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: onGrid(geometry.coordinates) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: geometry.coordinates.map((r) => r.map(onGrid)) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((poly) => poly.map((r) => r.map(onGrid))) };
  }
}

const polygonsOf = (g: PlotGeometry): Position[][][] => (g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : []);
const place = (plot: GeolocatedPlot) => plot.external_ref ?? plot.id;
const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

/** The plot's Feature, or the problems that keep it out of a filing. */
export function plotFeature(plot: GeolocatedPlot, producerName: string | null, producerCountry: string | null, field: string): { feature: Feature | null; problems: Problem[] } {
  const name = `plot ${place(plot)}`;
  if (plot.validation_state === 'rejected') {
    return { feature: null, problems: [problem('plot_rejected', field, `The ${name} was rejected at upload and cannot be filed: upload a corrected boundary or take it off the batch.`, 'EUDR_COMMODITIES_PRODUCER_GEO_INVALID', [plot.id])] };
  }
  if (plot.geometry === null) {
    return { feature: null, problems: [problem('plot_without_geometry', field, `The ${name} has no geometry to file: upload its boundary or take it off the batch.`, 'EUDR_COMMODITIES_PRODUCER_GEO_EMPTY', [plot.id])] };
  }
  const problems: Problem[] = [];
  const geometry = gridded(plot.geometry);
  let area = plot.area_ha;
  if (geometry.type === 'Point') {
    area = plot.declared_area_ha ?? POINT_DEFAULT_AREA_HA;
    if (area > POINT_AREA_HA.max || area < POINT_AREA_HA.min) {
      problems.push(problem('point_area_out_of_range', field, `The ${name} is a point standing for ${area} ha; a point stands for ${POINT_AREA_HA.min} to ${POINT_AREA_HA.max} ha: upload the plot's polygon.`, 'EUDR_COMMODITIES_PRODUCER_GEO_AREA_INVALID', [plot.id]));
    }
  }
  const polygons = polygonsOf(geometry);
  if (polygons.some((rings) => rings.length > 1)) {
    problems.push(problem('polygon_with_hole', field, `The ${name} has a hole; the information system takes no holes: upload its boundary without the hole, or the hole's land as its own plot.`, 'EUDR_COMMODITIES_PRODUCER_GEO_POLYGON_INVALID', [plot.id]));
  }
  if (polygons.some((rings) => rings.some(collapses))) {
    problems.push(problem('vertices_collapse', field, `Vertices of the ${name} meet once its coordinates are on the 6-decimal grid: upload the boundary without vertices closer than about 10 cm.`, 'EUDR_COMMODITIES_PRODUCER_GEO_POLYGON_INVALID', [plot.id]));
  }
  const feature: Feature = {
    type: 'Feature',
    properties: {
      ProducerName: producerName,
      ProducerCountry: producerCountry,
      ProductionPlace: place(plot),
      Area: area === null ? null : round(area, 4),
    },
    geometry: geometry as Geometry,
  };
  return { feature, problems };
}

/**
 * A FeatureCollection of the geolocation as its file is written: every coordinate with six decimals
 * (`99.130000`), as the grid holds it. JSON.stringify writes the shortest form (`99.13`), which the
 * information system, and this service's own `low_precision` check on a re-upload, read as two decimals.
 */
export function featureCollection(features: Feature[]): string {
  const collection: FeatureCollection = { type: 'FeatureCollection', features };
  // Coordinates go out as strings under a mark no text of the file can carry (a fresh nonce), then lose their quotes.
  const mark = `@${randomBytes(12).toString('hex')}@`;
  const text = JSON.stringify(collection, (key, value) => (key === 'coordinates' ? `${mark}${coordinateText(value)}` : value));
  return text.replace(new RegExp(`"${mark}([-\\d.,[\\]]*)"`, 'g'), '$1');
}

const coordinateText = (c: unknown): string => (Array.isArray(c) ? `[${c.map(coordinateText).join(',')}]` : (c as number).toFixed(6));
