/**
 * The main thread's half of a map tile: which scenes or product files lie under it, their windows
 * over the tile's ground, and what the pool is to draw from them (worker/map-tile.ts). Scenes are
 * found and read through the same adapters, range cache and decoded-tile cache as evidence.
 */
import { sceneDate } from '../../documents/scene-date.ts';
import type { Archive } from '../archive.ts';
import { tileBounds } from '../kernels/web-mercator.ts';
import { ALERT_CONFIDENCE_CODE, ALERTS_FROM, CHANGE_LEGENDS, type ChangeLayer, type ImageryLayer } from '../map-layers.ts';
import type { TileDrawing, TileScene } from '../worker/map-tile.ts';
import type { S2Asset, S2Scene } from '../sources/products/sentinel-2/codes.ts';
import type { LandsatAsset, LandsatScene } from '../sources/products/landsat/codes.ts';
import type { RasterRequest } from '../sources/raster-request.ts';
import { type Bbox, metresPerDegree } from '../sources/reproject.ts';
import { onePerAcquisition, sentinel2Publication } from './acquisitions.ts';
import { permanent } from './read-plan.ts';

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** What a tile shows of the imagery: one scene as it was seen, or a season's median of clear scenes. */
export type ImageryChoice = { scene: string } | { season: number };

export interface PlannedTile {
  requests: RasterRequest[];
  draw: TileDrawing;
}

/** A season's composite is the median of at most this many of its clearest acquisitions, so a tile reads a bounded number of files. */
export const SEASON_SCENES = 12;
/** Items the catalogue rates this cloudy or worse add little to a clear median and are not read. */
const SEASON_MAX_CLOUD = 60;
/** Alerts are 10 m cells. */
const ALERT_CELL_M = 10;

const S2_BANDS: Record<ImageryLayer, S2Asset[]> = { true_colour: ['red', 'green', 'blue'], ndvi: ['red', 'nir'] };
const LANDSAT_BANDS: Record<ImageryLayer, LandsatAsset[]> = { true_colour: ['red', 'green', 'blue'], ndvi: ['red', 'nir08'] };

/** The sensor a scene identifier names: Sentinel-2 (`S2A_…`) or Landsat (`LC08_…`); null for neither. */
export function sceneSensor(id: string): 'sentinel-2' | 'landsat' | null {
  if (/^S2[ABCD]_/.test(id)) return 'sentinel-2';
  if (/^L[CEOT]0\d_/.test(id)) return 'landsat';
  return null;
}

/** The tile's ground with a margin of a source pixel or two, so pixels at its edge have a neighbour to sample. */
function tileBox(t: TileAddress): Bbox {
  const [w, s, e, n] = tileBounds(t.z, t.x, t.y);
  const pad = 60 / metresPerDegree((s + n) / 2).lat;
  return [w - pad, s - pad, e + pad, n + pad];
}

const empty = (draw: TileDrawing): PlannedTile => ({ requests: [], draw });

async function sentinel2Scene(archive: Archive, scene: S2Scene, box: Bbox, layer: ImageryLayer, clear: boolean, signal?: AbortSignal) {
  const bands = S2_BANDS[layer];
  const assets: S2Asset[] = clear ? [...bands, 'scl'] : bands;
  const layers = await archive.sentinel2.sceneWindows(scene, box, assets, signal);
  const tile: TileScene = { bands: bands.map((a) => layers[a].request.key), encoding: layers.red.encoding, clear: clear ? layers.scl.request.key : null };
  return { tile, requests: assets.map((a) => layers[a].request) };
}

async function landsatScene(archive: Archive, scene: LandsatScene, box: Bbox, layer: ImageryLayer, signal?: AbortSignal) {
  const bands = LANDSAT_BANDS[layer];
  const layers = await archive.landsat.sceneWindows(scene, box, bands, signal);
  const tile: TileScene = { bands: bands.map((a) => layers[a].request.key), encoding: layers.red.encoding, clear: null };
  return { tile, requests: bands.map((a) => layers[a].request) };
}

type FoundScene = { s2: S2Scene } | { landsat: LandsatScene };

/** Scenes found by identifier, per archive: a map's tiles of one scene search the catalogue once. */
const FOUND = new WeakMap<Archive, Map<string, FoundScene>>();
const FOUND_KEPT = 512;

/**
 * One scene by its identifier, searched over the tile on the day it names; null when it does not
 * lie under the tile. A scene once found is kept: under a tile it does not reach its windows are
 * refused as outside (a permanent absence, so the tile is transparent).
 */
async function findScene(archive: Archive, id: string, box: Bbox, signal?: AbortSignal): Promise<FoundScene | null> {
  let found = FOUND.get(archive);
  if (found === undefined) FOUND.set(archive, (found = new Map()));
  const kept = found.get(id);
  if (kept !== undefined) return kept;
  const day = sceneDate(id);
  if (day === null) return null;
  const q = { bbox: box, start: day, end: day };
  let scene: FoundScene | null = null;
  if (sceneSensor(id) === 'sentinel-2') {
    const s2 = (await archive.sentinel2.search(q, signal)).find((s) => s.id === id);
    scene = s2 === undefined ? null : { s2 };
  } else {
    const landsat = (await archive.landsat.search(q, signal)).find((s) => s.id === id);
    scene = landsat === undefined ? null : { landsat };
  }
  if (scene !== null) {
    if (found.size >= FOUND_KEPT) found.delete(found.keys().next().value!);
    found.set(id, scene);
  }
  return scene;
}

/**
 * An imagery tile: one scene drawn as it was seen (clouds and all, as the timeline shows it), or a
 * season's median of the clear pixels of its clearest Sentinel-2 acquisitions. A scene not under
 * the tile, or a season without one, draws nothing: the tile is transparent.
 */
export async function planImageryTile(archive: Archive, layer: ImageryLayer, t: TileAddress, choice: ImageryChoice, signal?: AbortSignal): Promise<PlannedTile> {
  const box = tileBox(t);
  const none = empty({ kind: 'imagery', layer, scenes: [] });
  if ('scene' in choice) {
    const found = await findScene(archive, choice.scene, box, signal);
    if (found === null) return none;
    try {
      const read = 's2' in found ? await sentinel2Scene(archive, found.s2, box, layer, false, signal) : await landsatScene(archive, found.landsat, box, layer, signal);
      return { requests: read.requests, draw: { kind: 'imagery', layer, scenes: [read.tile] } };
    } catch (err) {
      if (permanent(err)) return none;
      throw err;
    }
  }
  const year = choice.season;
  const found = await archive.sentinel2.search({ bbox: box, start: `${year}-01-01`, end: `${year}-12-31`, maxCloudCover: SEASON_MAX_CLOUD }, signal);
  const kept = onePerAcquisition(found.map((s) => sentinel2Publication(s, box))).kept
    .sort((a, b) => (a.scene.cloudCover ?? 100) - (b.scene.cloudCover ?? 100) || (a.id < b.id ? -1 : 1))
    .slice(0, SEASON_SCENES);
  // One scene at a time: opening a file parses its header on this thread, and a dozen scenes' files
  // opened at once would parse in one turn of the event loop.
  const read: Array<{ tile: TileScene; requests: RasterRequest[] }> = [];
  for (const p of kept) {
    try {
      read.push(await sentinel2Scene(archive, p.scene, box, layer, true, signal));
    } catch (err) {
      if (!permanent(err)) throw err;
    }
  }
  return { requests: read.flatMap((r) => r.requests), draw: { kind: 'imagery', layer, scenes: read.map((r) => r.tile) } };
}

/** A change tile: the loss map's year under each pixel, or the alerts published over the tile since the cutoff; nothing where the product holds nothing. */
export async function planChangeTile(archive: Archive, layer: ChangeLayer, t: TileAddress, today: string, signal?: AbortSignal): Promise<PlannedTile> {
  const box = tileBox(t);
  const { classes } = CHANGE_LEGENDS[layer];
  const none = empty({ kind: 'classes', raster: null, classes });
  try {
    if (layer === 'hansen_loss') {
      const read = await archive.hansen.windows(box, ['lossyear'], signal);
      const { request } = read.layers.lossyear;
      return { requests: [request], draw: { kind: 'classes', raster: request.key, classes } };
    }
    if (layer === 'tmf_loss') {
      const read = await archive.tmf.windows(box, ['DeforestationYear'], signal);
      if (!read.checked) return none;
      const { request } = read.layers.DeforestationYear;
      return { requests: [request], draw: { kind: 'classes', raster: request.key, classes } };
    }
    const [w, s, e, n] = box;
    const polygon = { type: 'Polygon' as const, coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] };
    const read = await archive.alerts.read('integrated', polygon, ALERTS_FROM, today, signal);
    const lons = Float64Array.from(read.pixels, (p) => p.longitude);
    const lats = Float64Array.from(read.pixels, (p) => p.latitude);
    const values = Uint8Array.from(read.pixels, (p) => ALERT_CONFIDENCE_CODE[p.confidence]);
    const halfDeg = ALERT_CELL_M / 2 / metresPerDegree((s + n) / 2).lat;
    return empty({ kind: 'cells', lons, lats, halfDeg, values, classes });
  } catch (err) {
    if (permanent(err)) return none;
    throw err;
  }
}
