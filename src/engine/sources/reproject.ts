// Coordinates between the CRSs the archives use: WGS84 (EPSG:4326, x = longitude), Web
// Mercator (EPSG:3857, the Meta canopy tiles) and the UTM zones of Sentinel-2, Landsat and
// Open Buildings (EPSG:326xx north, 327xx south). Anything else is refused by name.
import proj4 from 'proj4';
import { SourceError } from './errors.ts';

export type Crs = 'EPSG:4326' | number;
export type Bbox = [minX: number, minY: number, maxX: number, maxY: number];
/** [originX, pixelWidth, rowRotation, originY, columnRotation, pixelHeight] in a raster's CRS, GDAL's order. */
export type GeoTransform = [number, number, number, number, number, number];

export function epsgOf(crs: Crs): number {
  return crs === 'EPSG:4326' ? 4326 : crs;
}

export function proj4Definition(epsg: number): string {
  if (epsg === 4326) return '+proj=longlat +datum=WGS84 +no_defs';
  if (epsg === 3857) return '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs';
  const zone = epsg % 100;
  if (zone >= 1 && zone <= 60 && (epsg - zone === 32600 || epsg - zone === 32700)) {
    return `+proj=utm +zone=${zone}${epsg >= 32700 ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`;
  }
  throw new SourceError('unsupported_crs', `EPSG:${epsg} is not among the CRSs this service reprojects (4326, 3857, 326xx, 327xx)`);
}

export type PointTransform = (x: number, y: number) => [number, number];

const transforms = new Map<string, PointTransform>();

export function transformer(from: Crs, to: Crs): PointTransform {
  const a = epsgOf(from);
  const b = epsgOf(to);
  const key = `${a}>${b}`;
  let t = transforms.get(key);
  if (t === undefined) {
    if (a === b) {
      t = (x, y) => [x, y];
    } else {
      const converter = proj4(proj4Definition(a), proj4Definition(b));
      t = (x, y) => converter.forward([x, y]) as [number, number];
    }
    transforms.set(key, t);
  }
  return t;
}

/**
 * Boxes transformed lately. Each asset of a scene places the same box on the same CRS (three or
 * four a scene, a dozen scenes for a season's map tile), and one transform costs 84 proj4 calls
 * that allocate some 10 KiB of short-lived objects on the calling thread.
 */
const TRANSFORMED = new Map<string, Bbox>();
const TRANSFORMED_KEPT = 256;

/**
 * The bounding box, in `to`, of the box `bbox` given in `from`. Edges are sampled, not just
 * corners, because a straight edge in one CRS bends in the other.
 */
export function transformBbox(bbox: Bbox, from: Crs, to: Crs, pointsPerEdge = 21): Bbox {
  const key = `${epsgOf(from)}>${epsgOf(to)}/${pointsPerEdge}:${bbox.join(',')}`;
  let out = TRANSFORMED.get(key);
  if (out === undefined) {
    out = sampledBbox(bbox, from, to, pointsPerEdge);
    if (TRANSFORMED.size >= TRANSFORMED_KEPT) TRANSFORMED.delete(TRANSFORMED.keys().next().value!);
    TRANSFORMED.set(key, out);
  }
  return [...out];
}

function sampledBbox(bbox: Bbox, from: Crs, to: Crs, pointsPerEdge: number): Bbox {
  const t = transformer(from, to);
  const [x0, y0, x1, y1] = bbox;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const take = (x: number, y: number) => {
    const [u, v] = t(x, y);
    if (!Number.isFinite(u) || !Number.isFinite(v)) return;
    if (u < minX) minX = u;
    if (u > maxX) maxX = u;
    if (v < minY) minY = v;
    if (v > maxY) maxY = v;
  };
  for (let i = 0; i < pointsPerEdge; i++) {
    const f = i / (pointsPerEdge - 1);
    const x = x0 + (x1 - x0) * f;
    const y = y0 + (y1 - y0) * f;
    take(x, y0);
    take(x, y1);
    take(x0, y);
    take(x1, y);
  }
  if (minX > maxX) throw new SourceError('unsupported_crs', `the box ${bbox.join(',')} has no image in EPSG:${epsgOf(to)}`);
  return [minX, minY, maxX, maxY];
}

/** Metres per degree of longitude and of latitude at a latitude on the WGS 84 ellipsoid (the usual cosine series). */
export function metresPerDegree(lat: number): { lon: number; lat: number } {
  const phi = (lat * Math.PI) / 180;
  return {
    lon: 111_412.84 * Math.cos(phi) - 93.5 * Math.cos(3 * phi),
    lat: 111_132.92 - 559.82 * Math.cos(2 * phi) + 1.175 * Math.cos(4 * phi),
  };
}

/**
 * Every pixel of a north-up grid that a box in the grid's CRS touches, unclipped (the grid runs on
 * past any one file). The nudge keeps a box edge on a pixel edge from taking the neighbour.
 */
export function gridWindow(geoTransform: GeoTransform, [minX, minY, maxX, maxY]: Bbox): { x0: number; y0: number; width: number; height: number } {
  const [ox, pw, , oy, , ph] = geoTransform;
  const cols = [(minX - ox) / pw, (maxX - ox) / pw];
  const rows = [(minY - oy) / ph, (maxY - oy) / ph];
  const EPS = 1e-9;
  const x0 = Math.floor(Math.min(...cols) + EPS);
  const y0 = Math.floor(Math.min(...rows) + EPS);
  return { x0, y0, width: Math.ceil(Math.max(...cols) - EPS) - x0, height: Math.ceil(Math.max(...rows) - EPS) - y0 };
}
