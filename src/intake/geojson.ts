import { writtenCoordinateDecimals } from './decimals.ts';
import { badGeoJson, badJson, emptyFile, nestingTooDeep, tooManyPlots, tooManyVertices } from './errors.ts';
import { jsonNestingPast } from './json-nesting.ts';
import { capText, DEFAULT_CAPS, MAX_NESTING_DEPTH, MAX_PLOTS, type IntakeCaps } from './limits.ts';
import { reprojectGeometry, toWgs84, type Reprojection } from './reproject.ts';
import { countOf, depthOf } from './shape.ts';
import { utf8Text } from './text.ts';
import { rowErrorLog } from './row-errors.ts';
import type { ParsedFile, RawPlot } from './types.ts';

const GEOMETRY_TYPES = new Set(['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']);

/** Names under which a (pre-RFC 7946) `crs` member declares plain WGS84 longitude/latitude. */
const WGS84_NAME = /(CRS84|EPSG:{1,2}4326|WGS ?84)$/i;

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/**
 * A GeoJSON FeatureCollection, Feature or bare geometry; one plot per feature. A legacy `crs` member
 * naming another system proj4 knows (EPSG:3857, UTM zones) is converted to WGS84, with a note.
 */
export function parseGeoJson(bytes: Uint8Array, caps: IntakeCaps = DEFAULT_CAPS): ParsedFile {
  const text = utf8Text(bytes);
  if (text.trim() === '') throw emptyFile();
  const deep = jsonNestingPast(text, MAX_NESTING_DEPTH);
  if (deep) throw nestingTooDeep(`at line ${deep.line}`);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw badJson(error instanceof Error ? error.message : String(error));
  }
  if (!isObject(root)) throw badGeoJson('the top level is not an object with a "type".');

  const notes: string[] = [];
  const convert = crsConversion(root, notes);
  // Precision is judged as written; coordinates converted from another system have no written degrees.
  const written = convert ? null : writtenCoordinateDecimals(text);
  const plots: RawPlot[] = [];
  const rowErrors = rowErrorLog();
  let vertices = 0;
  const add = (index: number, where: string, geometry: unknown, properties: unknown, featureId?: unknown) => {
    if (plots.length >= MAX_PLOTS) throw tooManyPlots();
    const coordinates = isObject(geometry) ? geometry.coordinates : undefined;
    vertices += countOf(coordinates, depthOf(coordinates)).vertices;
    if (vertices > caps.verticesPerFile) throw tooManyVertices(capText(caps, 'verticesPerFile'));
    plots.push({
      index,
      geometry: convert ? reprojectGeometry(geometry, convert) : geometry,
      properties: isObject(properties) ? properties : {},
      featureId,
      writtenDecimals: written?.get(where),
    });
  };

  const type = root.type;
  if (type === 'FeatureCollection') {
    if (!Array.isArray(root.features)) throw badGeoJson('the FeatureCollection has no "features" array.');
    root.features.forEach((feature: unknown, index: number) => {
      if (isObject(feature) && feature.type === 'Feature') add(index, `features/${index}`, feature.geometry ?? null, feature.properties, feature.id);
      else rowErrors.add({ index, code: 'not_a_feature', message: `Item ${index + 1} of "features" is not a GeoJSON Feature.` });
    });
  } else if (type === 'Feature') {
    add(0, 'geometry', root.geometry ?? null, root.properties, root.id);
  } else if (typeof type === 'string' && GEOMETRY_TYPES.has(type)) {
    add(0, 'root', root, {});
  } else {
    throw badGeoJson(`"type" is ${JSON.stringify(type)}, not FeatureCollection, Feature or a geometry.`);
  }
  return { format: 'geojson', plots, notes, ...rowErrors.fields() };
}

function crsConversion(root: Record<string, unknown>, notes: string[]): Reprojection | null {
  const crs = root.crs;
  if (crs === undefined || crs === null) return null;
  const name = isObject(crs) && isObject(crs.properties) ? crs.properties.name : undefined;
  if (typeof name !== 'string') return null;
  if (WGS84_NAME.test(name.trim())) return null;
  const code = /EPSG:{1,2}(\d+)$/i.exec(name.trim());
  const { convert, name: crsName } = toWgs84(code ? `EPSG:${code[1]}` : name, `The file's "crs" member (${name})`);
  if (convert) notes.push(`Coordinates were converted from ${crsName} (the file's "crs" member) to WGS84 longitude and latitude.`);
  return convert;
}
