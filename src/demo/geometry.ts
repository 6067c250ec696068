// Where things are in the demo world: a local metric frame around each site, the plot polygon
// drawn in it, and the pixel grids of the products placed over it. Every raster is sampled at
// its pixel centres in the site's frame, so a plot covers the same ground in every product.
import { metresPerDegree, transformer } from '../engine/sources/reproject.ts';

/** Equirectangular metres around a site centre: exact enough over the kilometre or two of a site. */
export interface LocalFrame {
  lon0: number;
  lat0: number;
  mPerDegLon: number;
  mPerDegLat: number;
}

export function localFrame(lon0: number, lat0: number): LocalFrame {
  const m = metresPerDegree(lat0);
  return { lon0, lat0, mPerDegLon: m.lon, mPerDegLat: m.lat };
}

export function toLocal(f: LocalFrame, lon: number, lat: number): [number, number] {
  return [(lon - f.lon0) * f.mPerDegLon, (lat - f.lat0) * f.mPerDegLat];
}

export function toLonLat(f: LocalFrame, x: number, y: number): [number, number] {
  return [f.lon0 + x / f.mPerDegLon, f.lat0 + y / f.mPerDegLat];
}

/**
 * The tiles of a product that a square of half-size `halfM` around a site reaches, the centre's
 * tile first, each with a corner of the square inside it: a site's window is far smaller than any
 * tile, so its corners find them all. A corner, not the centre, places each file, as a centre may
 * lie exactly on an edge, where a tile's name and its extent can disagree about the side it is on.
 * A site straddling a tile edge writes its window into each, clipped (RasterFiles), and the engine
 * reads the plot from both.
 */
export function tilesUnder(f: LocalFrame, halfM: number, name: (lon: number, lat: number) => string): Map<string, [number, number]> {
  const tiles = new Map<string, [number, number]>();
  for (const [sx, sy] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
    const p = toLonLat(f, sx * halfM, sy * halfM);
    const n = name(...p);
    if (!tiles.has(n)) tiles.set(n, p);
  }
  const home = name(f.lon0, f.lat0);
  const first = tiles.get(home);
  return first === undefined ? tiles : new Map([[home, first], ...[...tiles].filter(([n]) => n !== home)]);
}

export type Ring = Array<[number, number]>;

/** Even-odd test of a point against a closed or open ring. */
export function insideRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function ringArea(ring: Ring): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return Math.abs(a) / 2;
}

/**
 * A field-like quadrilateral of `areaHa` in local metres: a rectangle of the given aspect,
 * turned by `angleDeg`, its corners nudged by `jitter` (fractions of the half sides) so it is
 * not a perfect rectangle. Counter-clockwise, not closed.
 */
export function plotRing(areaHa: number, aspect: number, angleDeg: number, jitter: ReadonlyArray<[number, number]>): Ring {
  const base: Ring = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([sx, sy], i) => [sx * aspect * (1 + jitter[i][0]), sy * (1 + jitter[i][1])]);
  const scale = Math.sqrt((areaHa * 10_000) / ringArea(base));
  const t = (angleDeg * Math.PI) / 180;
  return base.map(([x, y]) => [scale * (x * Math.cos(t) - y * Math.sin(t)), scale * (x * Math.sin(t) + y * Math.cos(t))]);
}

/** A grid of a product: square pixels of `pixel` CRS units whose edges fall on `anchor + k·pixel`. */
export interface Grid {
  epsg: number;
  pixel: number;
  anchorX: number;
  anchorY: number;
}

/** A window of a grid: its top-left pixel index (from the anchor) and size. */
export interface GridWindow {
  grid: Grid;
  col0: number;
  row0: number;
  width: number;
  height: number;
}

export function windowGeoTransform(w: GridWindow): [number, number, number, number, number, number] {
  const g = w.grid;
  return [g.anchorX + w.col0 * g.pixel, g.pixel, 0, g.anchorY - w.row0 * g.pixel, 0, -g.pixel];
}

/** The part of `w` inside `within`, two windows of one grid (empty when they do not meet). */
export function windowWithin(w: GridWindow, within: GridWindow): GridWindow {
  const col0 = Math.max(w.col0, within.col0);
  const row0 = Math.max(w.row0, within.row0);
  const width = Math.max(0, Math.min(w.col0 + w.width, within.col0 + within.width) - col0);
  const height = Math.max(0, Math.min(w.row0 + w.height, within.row0 + within.height) - row0);
  return { grid: w.grid, col0, row0, width, height };
}

/** The window of `grid` covering a square of half-size `halfM` metres around the frame's centre. */
export function windowAround(f: LocalFrame, grid: Grid, halfM: number): GridWindow {
  let minX: number, minY: number, maxX: number, maxY: number;
  if (grid.epsg === 4326) {
    [minX, minY] = toLonLat(f, -halfM, -halfM);
    [maxX, maxY] = toLonLat(f, halfM, halfM);
  } else {
    const [cx, cy] = transformer('EPSG:4326', grid.epsg)(f.lon0, f.lat0);
    [minX, minY, maxX, maxY] = [cx - halfM, cy - halfM, cx + halfM, cy + halfM];
  }
  const col0 = Math.floor((minX - grid.anchorX) / grid.pixel);
  const col1 = Math.ceil((maxX - grid.anchorX) / grid.pixel);
  const row0 = Math.floor((grid.anchorY - maxY) / grid.pixel);
  const row1 = Math.ceil((grid.anchorY - minY) / grid.pixel);
  return { grid, col0, row0, width: col1 - col0, height: row1 - row0 };
}

/** Local-frame coordinates (metres) of every pixel centre of a window, row by row. */
export function pixelCentres(f: LocalFrame, w: GridWindow): { x: Float64Array; y: Float64Array } {
  const n = w.width * w.height;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const [ox, px, , oy, , py] = windowGeoTransform(w);
  // CRS → local is affine to well under a centimetre over a site: fit it on three points.
  const toLocalFromCrs = (cx: number, cy: number): [number, number] => {
    if (w.grid.epsg === 4326) return toLocal(f, cx, cy);
    const [lon, lat] = transformer(w.grid.epsg, 'EPSG:4326')(cx, cy);
    return toLocal(f, lon, lat);
  };
  const p00 = toLocalFromCrs(ox, oy);
  const p10 = toLocalFromCrs(ox + px * w.width, oy);
  const p01 = toLocalFromCrs(ox, oy + py * w.height);
  const ax = [(p10[0] - p00[0]) / w.width, (p10[1] - p00[1]) / w.width];
  const ay = [(p01[0] - p00[0]) / w.height, (p01[1] - p00[1]) / w.height];
  for (let r = 0, i = 0; r < w.height; r++) {
    for (let c = 0; c < w.width; c++, i++) {
      x[i] = p00[0] + ax[0] * (c + 0.5) + ay[0] * (r + 0.5);
      y[i] = p00[1] + ax[1] * (c + 0.5) + ay[1] * (r + 0.5);
    }
  }
  return { x, y };
}
