/**
 * KML, the format field apps and Google Earth export, and KMZ, its zip (doc.kml, or the first .kml
 * it holds). One plot per Placemark, in document order through Documents and Folders: its Polygon
 * (outer and inner boundaries), Point or MultiGeometry of either, its `name` and its ExtendedData
 * (Data/value and SchemaData/SimpleData) as properties, its `id` attribute as a reference when those
 * hold no `ref`. KML coordinates are WGS84 longitude, latitude (and altitude, dropped).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { writtenDecimals } from './decimals.ts';
import { badKml, emptyFile, nestingTooDeep, tooManyPlots, tooManyVertices, unsupportedFormat, zipTooLarge } from './errors.ts';
import { capText, DEFAULT_CAPS, MAX_KML_BYTES, MAX_NESTING_DEPTH, MAX_PLOTS, MAX_QUOTED_CHARS, type IntakeCaps } from './limits.ts';
import { utf8Text } from './text.ts';
import type { ParsedFile, RawPlot } from './types.ts';
import { unzip, zipPaths } from './zip.ts';

/** An element as the parser gives it in document order: `{ tag: children, ':@': attributes }`, or `{ '#text': text }`. */
type Node = Record<string, unknown>;

const GEOMETRIES = ['Polygon', 'Point', 'MultiGeometry', 'LineString', 'LinearRing', 'Track', 'Model'];

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // The parser builds the tree recursively; a document nested deeper is refused before it recurses further.
  maxNestedTags: MAX_NESTING_DEPTH,
});

const isNode = (x: unknown): x is Node => x !== null && typeof x === 'object' && !Array.isArray(x);
const tagOf = (node: Node) => Object.keys(node).find((k) => k !== ':@') ?? '';
const childrenOf = (node: Node): Node[] => {
  const children = node[tagOf(node)];
  return Array.isArray(children) ? children.filter(isNode) : [];
};
const children = (node: Node, tag: string) => childrenOf(node).filter((c) => tagOf(c) === tag);
const child = (node: Node, tag: string): Node | undefined => children(node, tag)[0];
const attribute = (node: Node, name: string): unknown => (isNode(node[':@']) ? node[':@'][name] : undefined);
/** An element's text, its text nodes joined; undefined when it has none. */
function textOf(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  const texts = childrenOf(node).filter((c) => '#text' in c).map((c) => String(c['#text']));
  return texts.length > 0 ? texts.join('') : undefined;
}

/** Whether a zip is a KMZ: it holds a .kml and no shapefile. */
export async function isKmz(bytes: Uint8Array): Promise<boolean> {
  const paths = (await zipPaths(bytes)).map((p) => p.toLowerCase());
  return paths.some((p) => p.endsWith('.kml')) && !paths.some((p) => p.endsWith('.shp'));
}

/** A KMZ: its doc.kml, else the first .kml in it, read as KML. */
export async function parseKmz(bytes: Uint8Array, caps: IntakeCaps = DEFAULT_CAPS): Promise<ParsedFile> {
  const paths = await zipPaths(bytes);
  const kml = paths.find((p) => p.toLowerCase() === 'doc.kml') ?? paths.find((p) => p.toLowerCase().endsWith('.kml'));
  const { taken } = await unzip(bytes, (path, declared) => {
    if (path !== kml) return null;
    if (declared > MAX_KML_BYTES) throw zipTooLarge(`expands ${path} to ${declared.toLocaleString('en')} bytes of KML`, MAX_KML_BYTES);
    return () => {};
  });
  if (taken.length === 0) throw badKml('the KMZ holds no .kml document.');
  return { ...parseKml(taken[0].bytes, caps), format: 'kmz' };
}

export function parseKml(bytes: Uint8Array, caps: IntakeCaps = DEFAULT_CAPS): ParsedFile {
  const text = utf8Text(bytes).replace(/^\uFEFF/, '');
  if (text.trim() === '') throw emptyFile();
  if (!/<([\w-]+:)?kml[\s>]/.test(text)) throw notKml();
  // KML declares no document type; one that does may define entities that expand without bound.
  if (/<!DOCTYPE/i.test(text)) throw badKml('it declares a DOCTYPE, which KML does not use.');
  if (placemarkTagsPast(text, MAX_PLOTS)) throw tooManyPlots();
  const root = parsed(text).find((node) => tagOf(node) === 'kml');
  if (!root) throw notKml();

  const plots: RawPlot[] = [];
  const read: Read = { decimals: 0, vertices: 0, caps };
  for (const placemark of placemarks(root)) {
    read.decimals = 0;
    const geometry = geometryOf(placemark, read);
    plots.push({ index: plots.length, geometry, properties: propertiesOf(placemark), featureId: attribute(placemark, 'id'), writtenDecimals: read.decimals });
  }
  return { format: 'kml', plots, notes: [], row_errors: [], row_errors_omitted: 0 };
}

/** The document as the parser gives it; a malformed one refused naming its line, one past the parser's own bounds (nesting depth) as it says. */
function parsed(text: string): Node[] {
  const checked = XMLValidator.validate(text);
  if (checked !== true) throw badKml(malformed(text, checked.err));
  try {
    return parser.parse(text) as Node[];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/nested tags/i.test(message)) throw nestingTooDeep('elements within elements');
    throw badKml(`${message.slice(0, MAX_QUOTED_CHARS)}.`);
  }
}

/**
 * Whether the text opens more than `max` Placemark elements, counted on the text before it is parsed
 * into a tree (25 MB of KML has room for two million empty ones, a tree of some gigabytes). An upper
 * bound: one inside a comment counts too.
 */
function placemarkTagsPast(text: string, max: number): boolean {
  let count = 0;
  for (const _ of text.matchAll(/<(?:[\w-]+:)?Placemark[\s/>]/g)) if (++count > max) return true;
  return false;
}

const notKml = () => unsupportedFormat('The file is XML (or HTML) but not KML: its root element is not <kml>.');

/** The validator's complaint, with the line it names; a document that stops with elements still open is said to be truncated. */
function malformed(text: string, err: { msg: string; line: number }): string {
  const open = /^Invalid '(\[.*\])' found\.$/s.exec(err.msg);
  if (open) {
    const names = JSON.parse(open[1]) as string[];
    const lines = text.split('\n').length;
    return `it ends at line ${lines} with <${names.at(-1)}> (inside ${names.slice(0, -1).map((n) => `<${n}>`).join(', ') || 'nothing'}) still open: the file is truncated.`;
  }
  return `line ${err.line}: ${err.msg.slice(0, MAX_QUOTED_CHARS)}`;
}

/**
 * The Placemarks in document order, through Documents and Folders at any depth, walked without
 * recursion and refused past MAX_PLOTS as they are found (a Folder may hold millions of them).
 */
function placemarks(root: Node): Node[] {
  const found: Node[] = [];
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (tagOf(node) === 'Placemark') {
      if (found.length >= MAX_PLOTS) throw tooManyPlots();
      found.push(node);
      continue;
    }
    // Pushed last to first, one at a time, so that they come off in document order.
    const inner = childrenOf(node);
    for (let i = inner.length - 1; i >= 0; i--) if (CONTAINERS.has(tagOf(inner[i]))) pending.push(inner[i]);
  }
  return found;
}

const CONTAINERS = new Set(['Placemark', 'Document', 'Folder']);

function propertiesOf(placemark: Node): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const name = textOf(child(placemark, 'name'));
  if (name !== undefined) properties.name = name;
  const extended = child(placemark, 'ExtendedData');
  if (!extended) return properties;
  for (const data of children(extended, 'Data')) {
    const key = attribute(data, 'name');
    if (typeof key === 'string') properties[key] = textOf(child(data, 'value')) ?? '';
  }
  for (const schema of children(extended, 'SchemaData')) {
    for (const simple of children(schema, 'SimpleData')) {
      const key = attribute(simple, 'name');
      if (typeof key === 'string') properties[key] = textOf(simple) ?? '';
    }
  }
  return properties;
}

/** What reading coordinates has counted: the decimals written in this Placemark's, the vertices of the file so far. */
type Read = { decimals: number; vertices: number; caps: IntakeCaps };

/** The Placemark's geometry as GeoJSON-like data for readShape(): what it is not, it names. */
function geometryOf(placemark: Node, read: Read): unknown {
  const geometries = childrenOf(placemark).filter((c) => GEOMETRIES.includes(tagOf(c)));
  if (geometries.length === 0) return null;
  if (geometries.length > 1) return { type: `Placemark holding ${geometries.map(tagOf).join(' and ')}` };
  const [geometry] = geometries;
  const kind = tagOf(geometry);
  if (kind === 'Polygon') return { type: 'Polygon', coordinates: polygonOf(geometry, read) };
  if (kind === 'Point') return { type: 'Point', coordinates: positionsOf(geometry, read)[0] ?? [] };
  if (kind === 'MultiGeometry') return multiGeometryOf(geometry, read);
  return { type: kind };
}

function polygonOf(polygon: Node, read: Read): number[][][] {
  const boundaries = [...children(polygon, 'outerBoundaryIs').slice(0, 1), ...children(polygon, 'innerBoundaryIs')];
  return boundaries.flatMap((b) => children(b, 'LinearRing')).map((r) => positionsOf(r, read));
}

/** A MultiGeometry of Polygons is a MultiPolygon, of one Point a Point (nested ones flattened); anything else is named. */
function multiGeometryOf(multi: Node, read: Read): unknown {
  const polygons: number[][][][] = [];
  const points: number[][] = [];
  const others = new Set<string>();
  const pending: Node[] = [multi];
  while (pending.length > 0) {
    for (const part of childrenOf(pending.pop()!)) {
      const kind = tagOf(part);
      if (kind === 'Polygon') polygons.push(polygonOf(part, read));
      else if (kind === 'Point') points.push(positionsOf(part, read)[0] ?? []);
      else if (kind === 'MultiGeometry') pending.push(part);
      else if (GEOMETRIES.includes(kind)) others.add(kind);
    }
  }
  if (others.size === 0 && points.length === 0 && polygons.length > 0) return { type: 'MultiPolygon', coordinates: polygons };
  if (others.size === 0 && polygons.length === 0 && points.length === 1) return { type: 'Point', coordinates: points[0] };
  if (others.size === 0 && polygons.length === 0 && points.length === 0) return null;
  const held = [polygons.length ? `${polygons.length} Polygon(s)` : '', points.length ? `${points.length} Point(s)` : '', ...others].filter(Boolean);
  return { type: `MultiGeometry of ${held.join(', ')}` };
}

/**
 * The tuples of a `coordinates` element, "lon,lat[,alt]" separated by white space (a space after a
 * comma, which some writers put, is read too); a tuple that is not numbers gives NaN, which the
 * validation refuses as unreadable. The decimals written are counted here, on the text.
 */
function positionsOf(geometry: Node, read: Read): number[][] {
  const text = textOf(child(geometry, 'coordinates'))?.trim().replace(/\s*,\s*/g, ',') ?? '';
  if (text === '') return [];
  const tuples = text.split(/\s+/);
  // Counted before a tuple is read, so a file over the cap costs no more than its text.
  read.vertices += tuples.length;
  if (read.vertices > read.caps.verticesPerFile) throw tooManyVertices(capText(read.caps, 'verticesPerFile'));
  return tuples.map((tuple) => {
    const [lon = '', lat = ''] = tuple.split(',');
    read.decimals = Math.max(read.decimals, Math.min(writtenDecimals(lon), writtenDecimals(lat)));
    return [numberOf(lon), numberOf(lat)];
  });
}

const numberOf = (text: string) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN);
