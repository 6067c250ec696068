/**
 * The XYZ tile grid of web maps (Web Mercator, EPSG:3857, 256-pixel tiles, y counted from the
 * north): where a tile's pixels lie in longitude and latitude, and which tile holds a point.
 */
export const TILE_SIZE = 256;
/** The grid's edge in latitude: Web Mercator's square world ends here. */
export const MAX_LATITUDE = 85.0511287798066;

/** Longitude of a tile column edge `x` (fractional) at zoom `z`. */
export function tileLon(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

/** Latitude of a tile row edge `y` (fractional) at zoom `z`. */
export function tileLat(y: number, z: number): number {
  const n = Math.PI - (2 * Math.PI * y) / 2 ** z;
  return (180 / Math.PI) * Math.atan(Math.sinh(n));
}

/** [west, south, east, north] of a tile, degrees. */
export function tileBounds(z: number, x: number, y: number): [number, number, number, number] {
  return [tileLon(x, z), tileLat(y + 1, z), tileLon(x + 1, z), tileLat(y, z)];
}

/** The fractional tile coordinates of a point at zoom `z`. */
export function lonLatToTile(lon: number, lat: number, z: number): { x: number; y: number } {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const r = (clamped * Math.PI) / 180;
  const n = 2 ** z;
  return { x: ((lon + 180) / 360) * n, y: ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n };
}

/**
 * Longitude of each pixel column's centre and latitude of each pixel row's centre of a tile: in
 * Web Mercator a column shares one longitude and a row one latitude, so two short arrays
 * describe all of a tile's pixels.
 */
export function tilePixelCentres(z: number, x: number, y: number, size = TILE_SIZE): { lons: Float64Array; lats: Float64Array } {
  const lons = new Float64Array(size);
  const lats = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    lons[i] = tileLon(x + (i + 0.5) / size, z);
    lats[i] = tileLat(y + (i + 0.5) / size, z);
  }
  return { lons, lats };
}

/**
 * The deepest zoom (from `minZoom` to `maxZoom`) at which a box still fits within one tile's
 * width, and the tile under its centre: the chip of a plot drawn from the tile grid.
 */
export function tileAround(box: readonly [number, number, number, number], minZoom: number, maxZoom: number): { z: number; x: number; y: number } {
  const [w, s, e, n] = box;
  let z = minZoom;
  for (let k = maxZoom; k >= minZoom; k--) {
    const a = lonLatToTile(w, n, k);
    const b = lonLatToTile(e, s, k);
    if (Math.max(b.x - a.x, b.y - a.y) <= 0.5) {
      z = k;
      break;
    }
  }
  const c = lonLatToTile((w + e) / 2, (s + n) / 2, z);
  return { z, x: Math.floor(c.x), y: Math.floor(c.y) };
}
