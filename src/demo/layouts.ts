// The files of the real products as data-products.md lays them out: each file's whole extent on
// its grid (image size and origin), its internal tile size and its compression. The demo writes
// every file at this size and leaves the tiles without site data sparse, so a plot costs the
// engine what it costs on the real archive: whole 1024² tiles of a Sentinel-2 band, a 10° TMF
// BigTIFF's header. Where data-products.md states no tile size or compression, the demo takes
// GDAL's COG defaults (512² DEFLATE) and says so beside the product.
import { transformer } from '../engine/sources/reproject.ts';
import { utmEpsg } from '../engine/sources/products/mgrs.ts';
import { demColumns } from '../engine/sources/products/copernicus-dem/codes.ts';
import type { Grid, GridWindow } from './geometry.ts';
import type { CogCompression } from './tiff-writer.ts';

export interface FileLayout {
  /** The whole file as a window of its grid. */
  window: GridWindow;
  tileSize: number;
  compression: CogCompression;
  bigTiff?: boolean;
}

/** GDAL's COG driver defaults, for products whose tiling data-products.md leaves unconfirmed. */
const COG_DEFAULT = { tileSize: 512, compression: 'deflate' } as const;

const geographicGrid = (pixelDegrees: number): Grid => ({ epsg: 4326, pixel: pixelDegrees, anchorX: 0, anchorY: 0 });

/** A file of `width`×`height` pixels of `grid` whose upper-left corner is at (x, y) in the grid's CRS. */
function fileAt(grid: Grid, x: number, y: number, width: number, height: number): GridWindow {
  return { grid, col0: Math.round((x - grid.anchorX) / grid.pixel), row0: Math.round((grid.anchorY - y) / grid.pixel), width, height };
}

/** The `size`° cell of a geographic product holding a point, as a file of that product's grid. */
function degreeCell(lon: number, lat: number, size: number, pixelsPerDegree: number): GridWindow {
  const west = Math.floor(lon / size) * size;
  const north = Math.floor(lat / size) * size + size;
  const side = Math.round(size * pixelsPerDegree);
  return fileAt(geographicGrid(1 / pixelsPerDegree), west, north, side, side);
}

// --- Sentinel-2 L2A (data-products.md §1a) --------------------------------------------------------

/** An MGRS tile spans 109.8 km: its 100 km square and 9.8 km of the squares east and south. */
export const S2_TILE_M = 109_800;

/**
 * The Sentinel-2 L2A file of the MGRS tile whose square holds a point, at a band's resolution:
 * 10980² at 10 m (5490² at 20 m, 1830² at 60 m) in 1024² DEFLATE tiles, upper-left corner 20 m
 * west of the square's north-west corner (`proj:transform [10,0,199980,0,-10,2100000]` of 39QTA).
 */
export function sentinel2Layout(lon: number, lat: number, pixel: 10 | 20 | 60): FileLayout {
  const epsg = utmEpsg(lon, lat);
  const [x, y] = transformer('EPSG:4326', epsg)(lon, lat);
  const west = Math.floor(x / 100_000) * 100_000;
  const north = Math.floor(y / 100_000) * 100_000 + 100_000;
  const side = S2_TILE_M / pixel;
  return { window: fileAt({ epsg, pixel, anchorX: 0, anchorY: 0 }, west - 20, north, side, side), tileSize: 1024, compression: 'deflate' };
}

// --- Landsat Collection 2 Level-2 (§2) ------------------------------------------------------------

/** WRS-2 paths step about 1.55° westward; rows about 1.45° southward from row 60 at the equator. */
const WRS2_PATH_DEGREES = 360 / 233;
const WRS2_ROW_DEGREES = 1.45;

/**
 * WRS-2 path and row of a point, approximated from longitude and latitude: plausible names for
 * synthetic scenes, not a real orbit computation.
 */
export function approximateWrs2(lon: number, lat: number): { path: number; row: number } {
  const path = ((Math.round((295.6 - lon) / WRS2_PATH_DEGREES) % 233) + 233) % 233 + 1;
  const row = Math.round(60 - lat / WRS2_ROW_DEGREES);
  return { path, row };
}

/** The centre of a path/row scene under the same approximation. */
export function wrs2Centre(path: number, row: number): [number, number] {
  const lon = 295.6 - (path - 1) * WRS2_PATH_DEGREES;
  return [((lon + 540) % 360) - 180, (60 - row) * WRS2_ROW_DEGREES];
}

/**
 * A Landsat scene file: about 185 × 180 km (7,811 × 7,911 pixels of 30 m) around its path/row's
 * centre, in the UTM zone of that centre, pixel edges on the 30 m grid offset by half a pixel.
 * Tiling is not in data-products.md: 512² DEFLATE assumed.
 */
export function landsatLayout(path: number, row: number): FileLayout {
  const [lon, lat] = wrs2Centre(path, row);
  const epsg = utmEpsg(lon, lat);
  const grid: Grid = { epsg, pixel: 30, anchorX: 15, anchorY: 15 };
  const [cx, cy] = transformer('EPSG:4326', epsg)(lon, lat);
  const width = 7811;
  const height = 7911;
  const x = Math.round((cx - (width * 30) / 2 - 15) / 30) * 30 + 15;
  const y = Math.round((cy + (height * 30) / 2 - 15) / 30) * 30 + 15;
  return { window: fileAt(grid, x, y, width, height), ...COG_DEFAULT };
}

// --- Map products ---------------------------------------------------------------------------------

/** PALSAR yearly mosaic, Planetary Computer (§3): 4500² per 1°, DEFLATE; tiling 512² assumed. */
export function palsarLayout(lon: number, lat: number, tileDegrees: 1 | 5): FileLayout {
  return { window: degreeCell(lon, lat, tileDegrees, 4500), ...COG_DEFAULT };
}

/** ETH canopy height (§4a): 3° tiles at 1/12000° (36000²); tiling assumed. */
export function canopyHeightLayout(lon: number, lat: number): FileLayout {
  return { window: degreeCell(lon, lat, 3, 12000), ...COG_DEFAULT };
}

/** Copernicus DEM GLO-30 (§5): 1° tiles of 3600 rows and `demColumns` columns (3600 below 50°); tiling assumed. */
export function demLayout(lon: number, lat: number): FileLayout {
  const cell = degreeCell(lon, lat, 1, 3600);
  return { window: { ...cell, width: demColumns(lat) }, tileSize: 1024, compression: 'deflate' };
}

/** JRC TMF (§6): 10° at 0.00025° (40000²), BigTIFF in 256² LZW tiles. */
export function tmfLayout(lon: number, lat: number): FileLayout {
  return { window: degreeCell(lon, lat, 10, 4000), tileSize: 256, compression: 'lzw', bigTiff: true };
}

/** JRC GFC2020 and GFT2020 (§7), and the rubber map filed on their tiles: 10° at 0.0001° (100000²); tiling assumed. */
export function euForestLayout(lon: number, lat: number): FileLayout {
  return { window: degreeCell(lon, lat, 10, 10000), ...COG_DEFAULT };
}

/** Hansen GFC (§8): 10° at 0.00025° (40000²), uint8; compression and tiling unconfirmed, assumed. */
export function hansenLayout(lon: number, lat: number): FileLayout {
  return { window: degreeCell(lon, lat, 10, 4000), ...COG_DEFAULT };
}

/** Descals et al. oil palm (§12), on the demo's 1° cells: extent at 0.0001°, planting year at 0.00025°; tiling assumed. */
export function oilPalmLayout(lon: number, lat: number, pixelDegrees: number): FileLayout {
  return { window: degreeCell(lon, lat, 1, Math.round(1 / pixelDegrees)), ...COG_DEFAULT };
}

/**
 * Open Buildings 2.5D Temporal (§9): 25000² pixels of 0.5 m in UTM, 512² DEFLATE tiles with the
 * floating-point predictor. The real tiles follow S2 cells, so one is centred on each site here.
 */
export function openBuildingsLayout(lon: number, lat: number): FileLayout {
  const epsg = utmEpsg(lon, lat);
  const grid: Grid = { epsg, pixel: 0.5, anchorX: 0, anchorY: 0 };
  const [cx, cy] = transformer('EPSG:4326', epsg)(lon, lat);
  const side = 25_000;
  const halfM = (side * grid.pixel) / 2;
  return { window: fileAt(grid, Math.round(cx - halfM), Math.round(cy + halfM), side, side), tileSize: 512, compression: 'deflate' };
}
