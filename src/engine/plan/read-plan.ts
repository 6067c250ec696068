/**
 * Planning a plot's read on the main thread: which windows of which COGs each block needs. The
 * product readers name them as RasterRequests; the engine fetches their tiles (raster-shipment.ts),
 * the plot task assembles them by key (worker/raster-window.ts) and hands each block its rasters.
 */
import type { MultiPolygon, Point, Polygon } from 'geojson';
import type { Archive } from '../archive.ts';
import type { CalibrationBlock } from '../context/calibration.ts';
import { type ContextPlot, footprintBox } from '../context/plot.ts';
import type { SkippedScene } from '../evidence-object.ts';
import { plotFootprint, type PlotFootprint } from '../footprint.ts';
import { utcDay } from '../kernels/days.ts';
import type { OpticalScenePlan, PlotTaskParams, RadarYearPlan } from '../worker/tasks.ts';
import { operatingPoints as op } from '../operating-points.ts';
import { isSourceError, isTransient, type SourceError, type SourceErrorCode } from '../sources/errors.ts';
import { CANOPY_HEIGHT_DATASET, canopyHeightTile } from '../sources/products/canopy-height/codes.ts';
import { DEM_DATASET } from '../sources/products/copernicus-dem/codes.ts';
import type { LandsatScene } from '../sources/products/landsat/codes.ts';
import { palsarTile1, PALSAR_CF_DB } from '../sources/products/palsar/codes.ts';
import { PalsarUnavailableError } from '../sources/products/palsar/reader.ts';
import type { S2Asset, S2Scene } from '../sources/products/sentinel-2/codes.ts';
import { type PlannedLayer, type RasterRequest, tilesRead } from '../sources/raster-request.ts';
import { type Bbox, metresPerDegree } from '../sources/reproject.ts';
import { landsatPublication, onePerAcquisition, sentinel2Publication } from './acquisitions.ts';
import { type ContextOptions, planContext } from './context/index.ts';
import { MAX_PLOT_AREA_HA } from '../../intake/limits.ts';
import { NO_ARCHIVE_COVERS } from '../next-step.ts';

// ---- the instruments' plan for one plot ----------------------------------------------------------

/** A register row as the read needs it. */
export interface PlotToRead {
  id: string;
  workspaceId: string;
  ref: string | null;
  geometry: Point | Polygon | MultiPolygon;
  areaHa: number | null;
  declaredAreaHa: number | null;
  country: string | null;
  producerCountry: string | null;
  /** The optical sensors whose record is read; both when not given (a studio boundary's first half reads Sentinel-2 alone). */
  sensors?: readonly OpticalSensor[];
}

/** The record that decides: the five seasons before the cutoff (spec 2.7 `read.start`, `read.end`). */
export const RECORD_PERIOD = { start: '2016-01-01', end: '2020-12-31' } as const;
/**
 * The radar mosaics pooled into one reading: the last two before the cutoff. Pooling two years'
 * looks halves the speckle of the plot mean and of the ring's forest baseline; both years share
 * their grid and (since 2017) their nodata value.
 */
export const RADAR_YEARS = [2019, 2020] as const;
/** The scene search's cloud query: tiles more than this cloudy (percent) are not worth opening. */
export const MAX_SCENE_CLOUD_COVER = 80;

export const SENSORS = { 'sentinel-2': 'Sentinel-2 MSI L2A', landsat: 'Landsat 8-9 OLI Collection 2 L2' } as const;
export type OpticalSensor = keyof typeof SENSORS;
export const RADAR_INSTRUMENT = 'ALOS-2 PALSAR-2 yearly mosaic (L-band HH/HV, 25 m)';
export const HEIGHT_INSTRUMENT = CANOPY_HEIGHT_DATASET.name;
export const TERRAIN_SOURCE = DEM_DATASET.name;

// Margins of the windows read around the footprint: a few pixels, so the rasterised edge is whole.
// The optical window also reaches as far as cloud edges are buffered, so a cloud just outside the plot is seen,
// and over the ring whose dip is held against the plot's (kernels/ring-dip.ts).
const OPTICAL_MARGIN_M = 30 + Math.max(op.scenes.cloudBufferM, op.seasons.ringOuterM);
const HEIGHT_MARGIN_M = 20;
const DEM_MARGIN_M = 60;
/** The radar window reaches past the ring by two 25 m pixels. */
const RADAR_MARGIN_M = 50;

/**
 * The largest footprint a read covers, in hectares: the intake's plot area cap, which the engine keeps on its
 * own, since every window it allocates grows with the footprint (a point declaring 1e9 ha asked for a circle
 * of 1,784 km radius, gigabytes of windows).
 */
export const MAX_READ_AREA_HA = MAX_PLOT_AREA_HA;
/** A long, thin footprint within the area cap still spans a box that every window covers: at most this many times the cap. */
const MAX_BOX_OVER_AREA = 16;

/** One scene of the record as the evidence names it. */
export interface PlannedScene {
  id: string;
  sensor: OpticalScenePlan['sensor'];
  date: string;
}

export interface PlotPlan {
  plot: PlotToRead;
  footprint: PlotFootprint;
  contextPlot: ContextPlot;
  /** Looked up with the plan: no pixel work behind it. */
  calibration: CalibrationBlock;
  /** The optical read's box (lon/lat). */
  box: Bbox;
  requests: RasterRequest[];
  task: Omit<PlotTaskParams, 'shipment' | 'record'>;
  /** In the order of `task.optical`. */
  scenes: PlannedScene[];
  /** Sentinel-2 scenes of the record by id, for the true-colour chip. */
  sentinel2: Map<string, S2Scene>;
  searched: { 'sentinel-2': number; landsat: number };
  /** Scenes found but not read, with why. */
  skipped: SkippedScene[];
  radar: { tile: string; mirror: string | null; years: number[]; refusal: string | null };
  height: { tile: string; refusal: string | null };
  terrain: { source: string };
}

/** A read failure the plot cannot get past (the read fails and costs nothing). */
export class ReadError extends Error {
  readonly code = 'read_failed';
}

/** No archive holds anything over the footprint: a part of a multi-part plot that raises it is stated as not read. */
export class NothingToReadError extends ReadError {}

/** A permanent absence (no such file, not a readable COG, not over the plot) is recorded; anything else fails the read. */
const PERMANENT: readonly SourceErrorCode[] = ['not_found', 'invalid_tiff', 'unsupported_tiff', 'window_outside'];
export const permanent = (err: unknown): err is SourceError => isSourceError(err) && PERMANENT.includes(err.code);

const dateOf = (datetime: string) => datetime.slice(0, 10);
const why = (err: unknown) => (err as Error).message;

const haOf = (v: number) => `${v.toLocaleString('en', { maximumFractionDigits: 2 })} ha`;

const splitInto = (maxAreaHa: number) => `split the plot into parts of at most ${haOf(maxAreaHa)}`;
const footprintWhat = (footprint: PlotFootprint) => (footprint.drawn ? 'the circle drawn for the declared area' : 'the footprint');

/** Refuses a footprint over the area a read may cover (a multi-part plot: its parts together, each read on its own). */
export function checkReadArea(footprint: PlotFootprint, maxAreaHa: number = MAX_READ_AREA_HA): void {
  if (!(footprint.areaHa <= maxAreaHa)) {
    throw new ReadError(`${footprintWhat(footprint)} covers ${haOf(footprint.areaHa)}, over the ${haOf(maxAreaHa)} a read may cover: ${splitInto(maxAreaHa)}`);
  }
}

/** Refuses a footprint whose windows would be beyond the bound, before anything is searched, fetched or allocated. */
function checkReadBound(footprint: PlotFootprint, box: Bbox, maxAreaHa: number): void {
  checkReadArea(footprint, maxAreaHa);
  // Worded only when refused: toLocaleString costs more than the checks.
  const what = () => footprintWhat(footprint);
  // Windows are longitude ranges: parts on either side of 180 degrees would span the world between them.
  if (box[2] - box[0] > 180) throw new ReadError(`${what()} lies on both sides of the antimeridian, which a read does not cross: register each side as its own plot`);
  const m = metresPerDegree((box[1] + box[3]) / 2);
  const boxHa = ((box[2] - box[0]) * m.lon * (box[3] - box[1]) * m.lat) / 10_000;
  if (!(boxHa <= maxAreaHa * MAX_BOX_OVER_AREA)) {
    throw new ReadError(`${what()} spans a box of ${haOf(boxHa)}, over the ${haOf(maxAreaHa * MAX_BOX_OVER_AREA)} a read may span: ${splitInto(maxAreaHa)}`);
  }
}

export interface PlanOptions extends Pick<ContextOptions, 'whisp' | 'calibration'> {
  /** The largest footprint read (MAX_READ_AREA_HA by default). */
  maxAreaHa?: number;
}

export async function planRead(plot: PlotToRead, archive: Archive, signal?: AbortSignal, options: PlanOptions = {}): Promise<PlotPlan> {
  const footprint = plotFootprint(plot.geometry, plot.areaHa, plot.declaredAreaHa);
  const fp = footprint.footprint;
  const box = footprintBox(fp, OPTICAL_MARGIN_M);
  checkReadBound(footprint, box, options.maxAreaHa ?? MAX_READ_AREA_HA);
  const contextPlot: ContextPlot = { footprint: fp, centroid: footprint.centroid, area_ha: footprint.areaHa, country: plot.country, producer_country: plot.producerCountry };
  const requests: RasterRequest[] = [];
  const skipped: SkippedScene[] = [];
  const search = { bbox: box, start: RECORD_PERIOD.start, end: RECORD_PERIOD.end, maxCloudCover: MAX_SCENE_CLOUD_COVER };
  const reads = (sensor: OpticalSensor) => plot.sensors?.includes(sensor) ?? true;
  const [s2Scenes, landsatScenes, radar, height, terrain, context] = await Promise.all([
    reads('sentinel-2') ? archive.sentinel2.search(search, signal) : [],
    reads('landsat') ? archive.landsat.search(search, signal) : [],
    planRadar(archive, footprint, requests, signal),
    planHeight(archive, fp, requests, signal),
    planTerrain(archive, fp, requests, signal),
    planContext(contextPlot, archive, signal, options),
  ]);
  if (s2Scenes.length + landsatScenes.length === 0 && radar.task === null && height.task === null && terrain.task === null) {
    throw new NothingToReadError(
      `${NO_ARCHIVE_COVERS}: no Sentinel-2 or Landsat scene of the record period, and no radar, canopy-height or elevation tile lies over it (open ocean, or a pole); nothing was read`,
    );
  }
  const acquisitions = onePerAcquisition([...s2Scenes.map((s) => sentinel2Publication(s, box)), ...landsatScenes.map((s) => landsatPublication(s, box))]);
  skipped.push(...acquisitions.skipped);
  const optical = (await Promise.all(acquisitions.kept.map((p) =>
    p.sensor === 'sentinel-2' ? planSentinel2(archive, p.scene, box, skipped, signal) : planLandsat(archive, p.scene, box, skipped, signal),
  ))).filter((o): o is NonNullable<typeof o> => o !== null);
  optical.sort((a, b) => a.plan.day - b.plan.day || (a.plan.id < b.plan.id ? -1 : 1));
  for (const o of optical) requests.push(...o.requests);
  requests.push(...context.requests);
  skipped.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return {
    plot,
    footprint,
    contextPlot,
    calibration: context.calibration,
    box,
    requests,
    task: {
      footprint: fp,
      optical: optical.map((o) => o.plan),
      period: { start: utcDay(RECORD_PERIOD.start), end: utcDay(RECORD_PERIOD.end) },
      radar: radar.task,
      height: height.task,
      terrain: terrain.task,
      context: { prepared: context.prepared, plot: contextPlot },
    },
    scenes: optical.map((o) => ({ id: o.plan.id, sensor: o.plan.sensor, date: dateOf(o.datetime) })),
    sentinel2: new Map(s2Scenes.map((s) => [s.id, s])),
    searched: { 'sentinel-2': s2Scenes.length, landsat: landsatScenes.length },
    skipped,
    radar: radar.evidence,
    height: height.evidence,
    terrain: { source: terrain.source },
  };
}

interface PlannedOptical {
  plan: OpticalScenePlan;
  datetime: string;
  requests: RasterRequest[];
}

/** A scene's windows; a scene whose files are missing or unreadable is skipped with why, anything else fails the read. */
async function sceneWindows<A extends string>(
  scene: { id: string; datetime: string }, lacking: boolean, assets: readonly A[], skipped: SkippedScene[], plan: () => Promise<Record<A, PlannedLayer>>,
): Promise<Record<A, PlannedLayer> | null> {
  if (lacking) {
    skipped.push({ scene: scene.id, at: dateOf(scene.datetime), why: `the item lacks one of the assets ${assets.join(', ')}` });
    return null;
  }
  try {
    return await plan();
  } catch (err) {
    if (!permanent(err)) throw err;
    skipped.push({ scene: scene.id, at: dateOf(scene.datetime), why: `its files could not be read (${err.code})` });
    return null;
  }
}

/** A scene's place in the record: its windows' requests, and how the plot task reads them. */
function plannedScene<A extends string>(
  scene: { id: string; datetime: string }, sensor: OpticalScenePlan['sensor'], assets: readonly A[], layers: Record<A, PlannedLayer>,
  read: Omit<OpticalScenePlan, 'id' | 'sensor' | 'day'>,
): PlannedOptical {
  return {
    datetime: scene.datetime,
    requests: assets.map((a) => layers[a].request),
    plan: { id: scene.id, sensor, day: Math.floor(Date.parse(scene.datetime) / 86_400_000), ...read },
  };
}

async function planSentinel2(archive: Archive, scene: S2Scene, box: Bbox, skipped: SkippedScene[], signal?: AbortSignal): Promise<PlannedOptical | null> {
  const red = scene.assets.red?.reflectance;
  const check = red?.verifyWithPixels === true && scene.assets.blue !== undefined;
  const assets: S2Asset[] = ['red', 'nir', 'scl', 'aot', ...(check ? (['blue'] as const) : [])];
  const lacking = red === undefined || assets.some((a) => scene.assets[a] === undefined);
  const layers = await sceneWindows(scene, lacking, assets, skipped, () => archive.sentinel2.sceneWindows(scene, box, assets, signal));
  if (layers === null || red === undefined) return null;
  const key = (a: S2Asset) => layers[a].request.key;
  const aot = layers.aot.encoding;
  return plannedScene(scene, 'sentinel-2', assets, layers, {
    red: key('red'),
    nir: key('nir'),
    clear: { key: key('scl'), kind: 'scl' },
    aot: { key: key('aot'), encoding: { scale: aot.scale, offset: aot.offset, nodata: aot.nodata } },
    aerosolQa: null,
    reflectance: { scale: red.scale, offset: red.offset, nodata: red.nodata },
    boaCheck: check ? { blue: key('blue'), encoding: red } : null,
  });
}

async function planLandsat(archive: Archive, scene: LandsatScene, box: Bbox, skipped: SkippedScene[], signal?: AbortSignal): Promise<PlannedOptical | null> {
  // The aerosol quality band is Landsat's haze screen: a scene without it is not read.
  const assets = ['red', 'nir08', 'qa_pixel', 'qa_aerosol'] as const;
  const lacking = assets.some((a) => scene.assets[a] === undefined);
  const layers = await sceneWindows(scene, lacking, assets, skipped, () => archive.landsat.sceneWindows(scene, box, assets, signal));
  if (layers === null) return null;
  return plannedScene(scene, 'landsat', assets, layers, {
    red: layers.red.request.key,
    nir: layers.nir08.request.key,
    clear: { key: layers.qa_pixel.request.key, kind: 'qa_pixel' },
    aot: null,
    aerosolQa: { key: layers.qa_aerosol.request.key },
    reflectance: layers.red.encoding,
    boaCheck: null,
  });
}

/**
 * Each radar year from the first mirror that holds it (the failover is the PALSAR reader's). A
 * year no mirror could serve is left out; when every failure was a transient one, the read fails
 * rather than answer without radar.
 */
async function planRadar(archive: Archive, footprint: PlotFootprint, requests: RasterRequest[], signal?: AbortSignal) {
  const box = footprintBox(footprint.footprint, op.radar.ringOuterM + RADAR_MARGIN_M);
  const years: RadarYearPlan[] = [];
  const mirrors: string[] = [];
  const tiles = new Set<string>();
  const failures: unknown[] = [];
  for (const year of RADAR_YEARS) {
    try {
      const read = await archive.palsar.windows(box, year, signal);
      for (const t of tilesRead(read)) tiles.add(t);
      const { HH: hh, HV: hv, mask } = read.layers;
      requests.push(hh.request, hv.request, mask.request);
      years.push({ year, hh: hh.request.key, hv: hv.request.key, mask: mask.request.key, nodata: read.nodata });
      mirrors.push(read.mirror);
    } catch (err) {
      if (!(err instanceof PalsarUnavailableError)) throw err;
      failures.push(...err.causes.map((c) => c.error));
    }
  }
  if (years.length === 0 && failures.length > 0 && failures.every(isTransient)) {
    throw new ReadError(`the radar mosaics could not be read from any mirror: ${why(failures[failures.length - 1])}`);
  }
  const refusal = years.length === 0 ? `No radar mosaic of ${RADAR_YEARS.join(' or ')} could be read over the plot from either mirror.` : null;
  return {
    task: years.length === 0 ? null : { years, calibrationDb: PALSAR_CF_DB },
    // Every tile read, or, when none was, the tile under the box's centre that was asked for.
    evidence: { tile: tiles.size > 0 ? [...tiles].join(', ') : palsarTile1((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), mirror: mirrors.length === 0 ? null : mirrors[mirrors.length - 1], years: years.map((y) => y.year), refusal },
  };
}

async function planHeight(archive: Archive, fp: Polygon | MultiPolygon, requests: RasterRequest[], signal?: AbortSignal) {
  const box = footprintBox(fp, HEIGHT_MARGIN_M);
  // Nothing read names the tile under the box's centre that was asked for.
  const tile = canopyHeightTile((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
  try {
    const read = await archive.canopyHeight.windows(box, ['Map'], signal);
    const height = read.layers.Map;
    requests.push(height.request);
    return { task: { key: height.request.key, encoding: height.encoding }, evidence: { tile: tilesRead(read).join(', '), refusal: null } };
  } catch (err) {
    if (!permanent(err)) throw err;
    return { task: null, evidence: { tile, refusal: 'The canopy-height map has no readable tile over the plot.' } };
  }
}

async function planTerrain(archive: Archive, fp: Polygon | MultiPolygon, requests: RasterRequest[], signal?: AbortSignal) {
  const box = footprintBox(fp, DEM_MARGIN_M);
  // The ocean has no tiles: no ground to measure, so no slope (and nothing withheld on its account).
  const none = { task: null, source: `${TERRAIN_SOURCE} (no tile over the plot)` };
  try {
    const dem = await archive.dem.windows(box, signal);
    if (dem === null) return none;
    const { heights } = dem.layers;
    const read = tilesRead(dem);
    requests.push(heights.request);
    return {
      task: { key: heights.request.key, encoding: heights.encoding, pixelWidthM: dem.pixelWidthM, pixelHeightM: dem.pixelHeightM },
      source: `${TERRAIN_SOURCE}, ${read.length > 1 ? 'tiles' : 'tile'} ${read.join(', ')}`,
    };
  } catch (err) {
    if (!permanent(err)) throw err;
    return none;
  }
}
