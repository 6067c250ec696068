/**
 * The pool's half of a map tile: the tile's pixels placed on each shipped raster (reprojected from
 * Web Mercator into the raster's CRS), sampled, composited, coloured and encoded as a PNG with
 * sharp, so neither the pixel loop nor the encode runs on the API's event loop.
 */
import { type ChangeClass, type ImageryLayer, NDVI_STOPS, TRUE_COLOUR_WHITE } from '../map-layers.ts';
import type { Encoding } from '../kernels/raster.ts';
import { sclClearLookup } from '../kernels/scene-stats.ts';
import { cellRgba, classRgba, medianStack, ndviOf, nearestPixels, rampRgba, type StackedScene, trueColourRgba } from '../kernels/tile-pixels.ts';
import { lonLatToTile, TILE_SIZE, tilePixelCentres } from '../kernels/web-mercator.ts';
import { operatingPoints as op } from '../operating-points.ts';
import { transformer } from '../sources/reproject.ts';
import type { WindowBuffer, WorkerRaster } from './raster-window.ts';
import { assembleShipment, type RasterShipment } from './shipment-wire.ts';
import { encodePng } from './png.ts';
import { gridPlaces } from './grid-places.ts';
import { answerMoving } from './transfer.ts';

/** One scene of an imagery tile: its band windows in the layer's order (true colour: red, green, blue; NDVI: red, near-infrared). */
export interface TileScene {
  bands: string[];
  encoding: Encoding;
  /** The scene classification that tells clear pixels (a season's composite); null draws every pixel with data. */
  clear: string | null;
}

export type TileDrawing =
  | { kind: 'imagery'; layer: ImageryLayer; scenes: TileScene[] }
  /** A class raster (a loss map); null when no file of the product lies under the tile. */
  | { kind: 'classes'; raster: string | null; classes: ChangeClass[] }
  /** Alert cells: centres in degrees, each `halfDeg` wide either side, valued by class. */
  | { kind: 'cells'; lons: Float64Array; lats: Float64Array; halfDeg: number; values: Uint8Array; classes: ChangeClass[] };

export interface MapTileTaskParams {
  tile: { z: number; x: number; y: number };
  shipment: RasterShipment;
  draw: TileDrawing;
}

const SCL_CLEAR = sclClearLookup(op.scenes.sclClearClasses);

function need(rasters: ReadonlyMap<string, WorkerRaster>, key: string): WorkerRaster {
  const r = rasters.get(key);
  if (r === undefined) throw new Error(`the tile task was sent no raster ${key}`);
  return r;
}

/** Each tile pixel's centre on a raster in longitude and latitude. */
function lonLatPlaces(lons: Float64Array, lats: Float64Array): { xs: Float64Array; ys: Float64Array } {
  const xs = new Float64Array(TILE_SIZE * TILE_SIZE);
  const ys = new Float64Array(TILE_SIZE * TILE_SIZE);
  for (let r = 0; r < TILE_SIZE; r++) {
    xs.set(lons, r * TILE_SIZE);
    ys.fill(lats[r], r * TILE_SIZE, (r + 1) * TILE_SIZE);
  }
  return { xs, ys };
}

/** Each tile pixel's centre in a raster's CRS (gridPlaces), made once per CRS. */
function pixelPlaces(tile: MapTileTaskParams['tile']): (epsg: number | null) => { xs: Float64Array; ys: Float64Array } {
  const { lons, lats } = tilePixelCentres(tile.z, tile.x, tile.y);
  const byCrs = new Map<number, { xs: Float64Array; ys: Float64Array }>();
  return (epsg) => {
    const crs = epsg ?? 4326;
    let placed = byCrs.get(crs);
    if (placed === undefined) {
      placed = crs === 4326 ? lonLatPlaces(lons, lats) : gridPlaces(lons, lats, transformer('EPSG:4326', crs));
      byCrs.set(crs, placed);
    }
    return placed;
  };
}

function drawImagery(p: MapTileTaskParams, layer: ImageryLayer, scenes: TileScene[], rasters: ReadonlyMap<string, WorkerRaster>): Uint8Array {
  const places = pixelPlaces(p.tile);
  const at = (r: WorkerRaster) => {
    const { xs, ys } = places(r.epsg);
    return nearestPixels(xs, ys, r);
  };
  const stacked: StackedScene[] = scenes.map((s) => {
    const bands = s.bands.map((k) => need(rasters, k));
    const clear = s.clear === null ? null : need(rasters, s.clear);
    return { at: at(bands[0]), bands: bands.map((b) => b.raw), encoding: s.encoding, clear: clear === null ? null : { classes: clear.raw, lookup: SCL_CLEAR, at: at(clear) } };
  });
  const pixels = TILE_SIZE * TILE_SIZE;
  if (layer === 'true_colour') {
    const [red, green, blue] = medianStack(stacked, pixels, 3);
    return trueColourRgba(red, green, blue, TRUE_COLOUR_WHITE);
  }
  const [red, nir] = medianStack(stacked, pixels, 2);
  return rampRgba(ndviOf(red, nir), NDVI_STOPS);
}

function drawCells(p: MapTileTaskParams, d: Extract<TileDrawing, { kind: 'cells' }>): Uint8Array {
  const n = d.values.length;
  const cells = { x0: new Int32Array(n), y0: new Int32Array(n), x1: new Int32Array(n), y1: new Int32Array(n), values: d.values };
  for (let k = 0; k < n; k++) {
    const nw = lonLatToTile(d.lons[k] - d.halfDeg, d.lats[k] + d.halfDeg, p.tile.z);
    const se = lonLatToTile(d.lons[k] + d.halfDeg, d.lats[k] - d.halfDeg, p.tile.z);
    cells.x0[k] = Math.floor((nw.x - p.tile.x) * TILE_SIZE);
    cells.y0[k] = Math.floor((nw.y - p.tile.y) * TILE_SIZE);
    cells.x1[k] = Math.ceil((se.x - p.tile.x) * TILE_SIZE);
    cells.y1[k] = Math.ceil((se.y - p.tile.y) * TILE_SIZE);
  }
  return cellRgba(cells, TILE_SIZE, d.classes);
}

/** The tile's RGBA pixels: transparent wherever nothing was read. Its windows are cut into `into` when given (a pool task's). */
export function mapTilePixels(p: MapTileTaskParams, into?: WindowBuffer): Uint8Array {
  const d = p.draw;
  if (d.kind === 'cells') return drawCells(p, d);
  const rasters = assembleShipment(p.shipment, into);
  if (d.kind === 'imagery') return drawImagery(p, d.layer, d.scenes, rasters);
  const rgba = new Uint8Array(TILE_SIZE * TILE_SIZE * 4);
  if (d.raster === null) return rgba;
  const r = need(rasters, d.raster);
  const { xs, ys } = pixelPlaces(p.tile)(r.epsg);
  classRgba(r.raw, nearestPixels(xs, ys, r), d.classes, rgba);
  return rgba;
}

/** The tile as PNG bytes, moved back to the calling thread rather than copied. */
export async function renderMapTile(p: MapTileTaskParams, into?: WindowBuffer): Promise<Uint8Array> {
  const png = await encodePng(mapTilePixels(p, into), TILE_SIZE, TILE_SIZE, 4);
  return answerMoving(png, [png]);
}
