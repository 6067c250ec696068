/**
 * The evidence object of spec 2.7, exactly as it is stored, signed and served. The engine's own
 * fields are typed field by field; the context blocks of spec 2.8 are filled from
 * src/engine/context's ContextBlocks and typed loosely here. The run-time schema that checks a
 * stored object and generates the OpenAPI document types every block (evidence-schema.ts): a field
 * added here or to a block is added there too.
 *
 * What is never here (spec 2.7 rule 2, and the kernels' working fields): the decision lines
 * (`radar.evergreen_hh_hv_min_db`, `radar.threshold_db`, `structure.threshold`,
 * `structure.aot_limit`, `height.crop_line_m`, `height.forest_line_m`, `terrain.max_slope_deg`)
 * and `trough_scene`, `scenes`, `polarimetry_cultivated`, `plot_hv_db`, `plot_pixels`,
 * `ring_pixels`, `cycle`. WITHDRAWN_FIELDS names them for the tests that check their absence.
 */
import type { MultiPolygon, Point, Polygon } from 'geojson';
import type { CalibrationBlock } from './context/calibration.ts';
import type { ReasonCode, Verdict } from './decide.ts';
import type { NextStep } from './next-step.ts';
import type { SeasonTrough } from './kernels/seasonal-troughs.ts';

/** A context block (spec 2.8) as stored. */
export type Block = object;

export interface EvidenceRead {
  /** Plot pixels on the optical grid (Sentinel-2, 10 m). */
  pixels: number;
  pitch_m: number;
  /** Optical scenes the search returned over the record period, both sensors. */
  scenes_searched: number;
  /** Scenes clear enough over the plot to enter the record, both sensors. */
  scenes_kept: number;
  /** The thresholds a scene met to be kept (they are the read's, not decision lines). */
  min_clear_fraction: number;
  min_pixels: number;
  start: string;
  end: string;
  sensors: string[];
  /** The Landsat half of the read. */
  landsat: { scenes_kept: number };
  /**
   * Share of the plot's pixels (0..1) that at least one kept scene had data for: fill, nodata and
   * ground beyond the archive's tiles are not covered, cloud is. Null when no scene was kept.
   */
  coverage: number | null;
}

/** Spec 2.8.5: the kernel's season less its internal pointer into the scene series. */
export type EvidenceSeason = Omit<SeasonTrough, 'trough_scene'>;

/**
 * What an instrument's sub-plot blocks said: blocks of two lattices of `cell_m` cells, the second
 * shifted by half a cell; a pixel is forest-like when a block of either holding it reads forest-like.
 */
export interface EvidenceBlocks {
  cell_m: number;
  /** Blocks holding plot pixels, and those with enough pixels to answer. */
  blocks: number;
  blocks_read: number;
  forest_like_blocks: number;
  /** Ground and share of the plot lying in forest-like blocks. */
  forest_like_ha: number;
  forest_like_share: number | null;
  /** Where that part lies, e.g. "north-east" or "across the plot"; null when there is none. */
  forest_like_where: string | null;
}

export interface EvidenceStructure {
  layer: string;
  shade_at_trough: number | null;
  seasons_matched: number;
  forest_like: boolean | null;
  /** The answer cleared its line by the instrument's margin. */
  confident: boolean;
  /** Null when the blocks were not read (the instrument could not answer over the plot). */
  blocks: EvidenceBlocks | null;
  aot_at_trough: number | null;
  withheld_for_dust: boolean;
  /** Why the instrument could not answer (spec 2.7 rule 1); null when it answered. */
  refusal: string | null;
}

export interface EvidenceRadar {
  instrument: string;
  tile: string | null;
  /** Which of the two mirrors served the read; null when neither could. */
  mirror: string | null;
  years_read: number[];
  plot_minus_local_forest_db: number | null;
  local_forest_baseline_db: number | null;
  sigma_db: number | null;
  hh_hv_db: number | null;
  forest_like: boolean | null;
  confident: boolean;
  blocks: EvidenceBlocks | null;
  refusal: string | null;
  /** Share of the plot's 25 m pixels with radar data (0..1); null when no mosaic was read. Under 0.95 the radar does not answer. */
  coverage: number | null;
}

export interface EvidenceHeight {
  instrument: string;
  tile: string | null;
  median_m: number | null;
  p10_m: number | null;
  p90_m: number | null;
  pixels: number;
  forest_like: boolean | null;
  confident: boolean;
  blocks: EvidenceBlocks | null;
  refusal: string | null;
  /** Share of the plot's pixels with a height (0..1); null when no tile was read. Under 0.95 the map does not answer. */
  coverage: number | null;
}

export interface EvidenceTerrain {
  mean_slope_deg: number | null;
  source: string;
  outside_characterised_range: boolean | null;
  /** Share of the plot's pixels with an elevation (0..1); null when no tile was read. */
  coverage: number | null;
}

/** One kept scene's reading over the plot, the point the record's seasons were read from. */
export interface SeriesPoint {
  scene: string;
  /** Acquisition date. */
  at: string;
  /** The median vegetation index (NDVI) of the plot's clear pixels; null when none was clear. */
  index: number | null;
  /** Share of the plot's pixels clear in the scene (0..1). */
  clear_share: number | null;
}

export interface SkippedScene {
  scene: string;
  /** Acquisition date. */
  at: string;
  why: string;
}

/**
 * One part of a multi-part plot, read on its own as a polygon plot (engine/plot-parts.ts): its own
 * scenes, instruments, maps and decision. The plot's answer is its most cautious part's.
 */
export interface EvidencePart {
  /** 1-based, in the order of the uploaded MultiPolygon. */
  part: number;
  area_ha: number;
  /** [longitude, latitude] of the part's centre of mass. */
  centroid: [number, number];
  /** False when no archive holds anything over the part; `not_read` says why. */
  read: boolean;
  not_read: string | null;
  verdict: Verdict;
  reason: ReasonCode;
  reasons: ReasonCode[];
  /** Part pixels on the optical grid (0 when nothing was read). */
  pixels: number;
  scenes_kept: number;
  seasons_observed: number;
  /** The radar and canopy-height tiles read under the part. */
  tiles: { radar: string | null; height: string | null };
  /**
   * Whether the part intersects a protected area on the open map layer (context only, spec 2.8.2):
   * the top-level risk block is one part's, so each part says this for itself. Null when not checked.
   */
  protected_area_intersects: boolean | null;
  /** The part's own finding, in one sentence. */
  finding: string;
}

/** The boundary the plot was read on, signed with the evidence so a document names one polygon. */
export interface EvidenceBoundary {
  /** GeoJSON as stored in the register (after repair): the uploaded Polygon or MultiPolygon, or the declared Point. */
  geometry: Point | Polygon | MultiPolygon;
  /** For a point, the circle drawn around it and read; null for a boundary, which was read itself. */
  drawn: Polygon | null;
  /** SHA-256 of `geometry`'s RFC 8785 form (integrity.ts boundaryDigest). */
  digest: string;
  /** [longitude, latitude]: the point, or the boundary's centre of mass. */
  centroid: [number, number];
  /** [west, south, east, north] of what was read. */
  bbox: [number, number, number, number];
  area_ha: number;
}

export interface EvidenceObject {
  aoi_name: string;
  /** The service's version (package.json) that read the plot. */
  engine_version: string;
  /** The version of the decision lines in force (operating-points.json); the lines themselves are never served. */
  operating_points_version: string;
  cutoff: string;
  issued: string;
  plot_area_km2: number;
  evidence_floor_km2: number;
  calibration: CalibrationBlock;
  risk: Block;
  settlement: Block;
  history: Block;
  footprint: string;
  /** Absent on evidence read before boundaries were signed with it. */
  boundary?: EvidenceBoundary;
  read: EvidenceRead;
  verdict: Verdict;
  reason: ReasonCode;
  reasons: ReasonCode[];
  finding: string;
  seasons: EvidenceSeason[];
  seasons_observed: number;
  seasons_with_dip: number;
  phase_locked: boolean;
  /** The dip tested per block at the plot's troughs: forest-like here means without the in-phase dip. Null when no scene was read. */
  dip_blocks: EvidenceBlocks | null;
  /** Null when fewer than two seasons dipped (no spread to measure). */
  phase_sd_days: number | null;
  /** Null when no season was measured. */
  mean_depth: number | null;
  seasons_without_answer: number[];
  structure: EvidenceStructure;
  radar: EvidenceRadar;
  height: EvidenceHeight;
  terrain: EvidenceTerrain;
  scenes: string[];
  skipped: SkippedScene[];
  /** One point per kept scene, in `scenes` order; absent on evidence read before it was stored. */
  series?: SeriesPoint[];
  posture: string;
  baseline_note: string;
  next_step: NextStep | null;
  post_cutoff_loss: Block | null;
  forest_types: Block;
  commodity_maps: Block;
  whisp: Block;
  /** Present only for plots whose centroid lies in Indonesia's extent (spec 2.8.7). */
  concession?: Block;
  /** Present only when the plot has more than one part: each part's own answer (the top-level blocks are its most cautious part's). */
  parts?: EvidencePart[];
  /** True for every object read from the generated demo archive. */
  synthetic: boolean;
  /** Present when `synthetic`: says so in words. */
  synthetic_note?: string;
}

/** Fields that must never appear in a served object, as `block.field` (spec 2.7 rule 2) or top-level names. */
export const WITHDRAWN_FIELDS: readonly string[] = [
  'radar.evergreen_hh_hv_min_db', 'radar.threshold_db', 'structure.threshold', 'structure.aot_limit',
  'height.crop_line_m', 'height.forest_line_m', 'terrain.max_slope_deg',
  'structure.scenes', 'radar.polarimetry_cultivated',
  'radar.plot_hv_db', 'radar.plot_pixels', 'radar.ring_pixels', 'seasons[].trough_scene', 'cycle',
];
