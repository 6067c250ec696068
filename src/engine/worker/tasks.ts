/**
 * The one typed map of the tasks the engine's pool runs (design decision 4): each task's name,
 * what it is sent and what it answers. A plot is read in a few tasks, each holding a bounded share
 * of its tiles (read-plot.ts): its optical record a run of scenes at a time, then every other
 * instrument with the record's series (a record of one run is read with them, in one task), then
 * the shade of its trough scenes per block. What comes back is a handful of numbers per scene,
 * block and instrument, never a raster.
 */
import type { ContextPlot, ContextPrepared, ContextResult } from '../context/index.ts';
import type { ReflectanceEncoding } from '../sources/products/sentinel-2/codes.ts';
import type { PlotTroughs } from '../kernels/block-dips.ts';
import type { AlertCluster, AlertClusterRequest } from '../kernels/alert-clusters.ts';
import type { BlockSummary } from '../kernels/block-index.ts';
import type { RingDip } from '../kernels/ring-dip.ts';
import type { HeightPercentiles } from '../kernels/height-percentiles.ts';
import type { RadarContrast } from '../kernels/radar-contrast.ts';
import type { Encoding } from '../kernels/raster.ts';
import type { MapTileTaskParams } from './map-tile.ts';
import type { SceneBlockSums } from '../kernels/scene-blocks.ts';
import type { LonLatFootprint, WorkerRaster } from './raster-window.ts';
import type { RasterShipment } from './shipment-wire.ts';
import type { StructureAtTrough } from '../kernels/structure-at-trough.ts';
import type { TerrainSlope } from '../kernels/terrain-slope.ts';

export type OpticalSensor = 'sentinel-2' | 'landsat';

/** One optical scene of the record: its windows by key and how to read them. */
export interface OpticalScenePlan {
  id: string;
  sensor: OpticalSensor;
  /** UTC day number of the acquisition. */
  day: number;
  red: string;
  nir: string;
  /** The scene classification (Sentinel-2 SCL) or the pixel quality word (Landsat QA_PIXEL). */
  clear: { key: string; kind: 'scl' | 'qa_pixel' };
  /** Aerosol optical thickness (Sentinel-2 only). */
  aot: { key: string; encoding: Encoding } | null;
  /** Landsat 8/9's aerosol quality band (SR_QA_AEROSOL), its haze screen; null for Sentinel-2, screened by `aot`. */
  aerosolQa: { key: string } | null;
  /** Shared by red and near-infrared. */
  reflectance: Encoding;
  /**
   * Set when the catalogue's word on the BOA offset must be checked against the pixels (Earth
   * Search v1, baseline 04.00 on): the blue window to check with and the reflectance encoding to settle.
   */
  boaCheck: { blue: string; encoding: ReflectanceEncoding } | null;
}

export interface RadarYearPlan {
  year: number;
  hh: string;
  hv: string;
  mask: string;
  /** DN marking no data in HH and HV that year. */
  nodata: number;
}

/** The grid a window lies on: what a footprint's masks and blocks need of a raster. */
export type RasterGrid = Pick<WorkerRaster, 'geoTransform' | 'epsg' | 'width' | 'height'>;

/** A run of consecutive scenes of a plot's record, read on their own tiles. */
export interface SceneGroupParams {
  footprint: LonLatFootprint;
  shipment: RasterShipment;
  optical: OpticalScenePlan[];
}

/** What a group of scenes gave over the plot: per scene its reading, its sums per block and over the ring. */
export interface SceneGroupResult {
  scenes: SceneReading[];
  /** sceneFlags per scene (SCENE_USABLE for clear air). */
  flags: Uint8Array;
  /** Each grid the scenes' red windows lie on, once, with the pixels any usable scene had data for. */
  grids: Array<{ grid: RasterGrid; pitchM: number; pixels: number; read: Uint8Array }>;
  /** Per scene, its red window's grid in `grids`. */
  sceneGrid: Int32Array;
  /** NDVI and shade per dip block and scene, per lattice, the group's scenes only. */
  dips: SceneBlockSums[];
  /** The ring's sums per scene, and whether each scene read enough of the ring. */
  ring: SceneBlockSums;
  ringUsable: Uint8Array;
}

export interface PlotTaskParams {
  footprint: LonLatFootprint;
  /** Every raster but the optical scenes' where `record` holds their answers; with them where it is null. */
  shipment: RasterShipment;
  /** Oldest first: the record's series is read in this order. */
  optical: OpticalScenePlan[];
  /** The scene groups' answers (`scenes` tasks), in order, together one per scene of `optical`; null for a record of one run, read here from the shipment. */
  record: SceneGroupResult[] | null;
  /** The record period, inclusive UTC day numbers. */
  period: { start: number; end: number };
  /** Years of one grid and one nodata, pooled into one reading; null when no mosaic could be opened. */
  radar: { years: RadarYearPlan[]; calibrationDb: number } | null;
  height: { key: string; encoding: Encoding } | null;
  terrain: { key: string; encoding: Encoding; pixelWidthM: number; pixelHeightM: number } | null;
  context: { prepared: ContextPrepared; plot: ContextPlot };
}

/**
 * The scene masks of a plot's record (SCL, QA_PIXEL), read before any other band so a scene clouded
 * over the plot costs its mask alone (read-plot.ts): each mask's share of the plot called clear.
 */
export interface ClearTaskParams {
  footprint: LonLatFootprint;
  shipment: RasterShipment;
  masks: Array<OpticalScenePlan['clear']>;
}

export interface ClearTaskResult {
  /** Per mask, in order: share of the plot's pixels clear before cloud edges are buffered; null when no plot pixel falls on it. */
  clear: Array<number | null>;
}

/** What one optical scene gave over the plot. */
export interface SceneReading {
  pixels: number;
  clear_pixels: number;
  clear_fraction: number | null;
  ndvi: number | null;
  shade: number | null;
  aot: number | null;
  usable: boolean;
}

/** An instrument's plot-wide reading with what its sub-plot blocks said (null where they were not read). */
export type WithBlocks<T> = T & { blocks: BlockSummary | null };

/** The shade per block at the plot's trough scenes, added to the plot-wide reading. */
export interface ShadeTaskParams {
  footprint: LonLatFootprint;
  shipment: RasterShipment;
  /** The trough scenes read through clear air (`structure.scenes`), in that order. */
  optical: OpticalScenePlan[];
  structure: WithBlocks<StructureAtTrough>;
}

export interface PlotTaskResult {
  /** Plot pixels on the optical grid of the first scene (Sentinel-2's 10 m where it was read). */
  pixels: number;
  pitch_m: number | null;
  /** One per planned scene, in the plan's order. */
  scenes: SceneReading[];
  /** The record's cycle, held from phase_locked when a part of the plot shows no in-phase dip (`dip_blocks`). */
  troughs: PlotTroughs;
  /** Whether the ground around the plot showed the plot's own dip. */
  ring: RingDip;
  /** Its blocks are read by the `shade` task where `shade_blocks` is set. */
  structure: WithBlocks<StructureAtTrough>;
  /** Whether the shade per block is still to be read at `structure.scenes` (the plot-wide shade answered). */
  shade_blocks: boolean;
  radar: WithBlocks<RadarContrast> | null;
  height: WithBlocks<HeightPercentiles> | null;
  terrain: TerrainSlope | null;
  /**
   * Share of the plot's pixels each read had data for (0..1; fill, nodata and pixels beyond the
   * archive's tiles are not read): the optical record over its kept scenes (null when none was
   * kept), and each instrument (null when it read nothing).
   */
  coverage: { optical: number | null; radar: number | null; height: number | null; terrain: number | null };
  context: ContextResult;
}

/** A true-colour cut of one scene, resampled onto a north-up grid linear in longitude and latitude. */
export interface ChipTaskParams {
  shipment: RasterShipment;
  red: string;
  green: string;
  blue: string;
  reflectance: Encoding;
  /** [west, south, east, north], degrees. */
  bbox: [number, number, number, number];
  width: number;
  height: number;
}

export interface ChipTaskResult {
  /** An 8-bit RGB PNG of `width × height`. */
  png: Uint8Array;
}

export interface EngineTasks {
  scenes: { params: SceneGroupParams; result: SceneGroupResult };
  plot: { params: PlotTaskParams; result: PlotTaskResult };
  shade: { params: ShadeTaskParams; result: WithBlocks<StructureAtTrough> };
  clear: { params: ClearTaskParams; result: ClearTaskResult };
  chip: { params: ChipTaskParams; result: ChipTaskResult };
  /** A map tile as PNG bytes (map-tile.ts). */
  tile: { params: MapTileTaskParams; result: Uint8Array };
  /** A monitored plot's published alert pixels grouped into alerts (src/alerts/monitor-run.ts). */
  clusters: { params: AlertClusterRequest; result: AlertCluster[] };
}

export type EngineTaskName = keyof EngineTasks;
