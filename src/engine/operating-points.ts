/**
 * The engine's decision lines, read once from the versioned operating-points file and checked
 * there. Each group is shaped as the parameter its kernel takes, so callers pass a group through
 * unchanged. Nothing here is ever served (spec 2.7 rule 2); `version` may be recorded with a read.
 */
import { z } from 'zod';
import type { ForestPartLines } from './kernels/block-index.ts';
import type { HeightLines } from './kernels/height-percentiles.ts';
import type { RadarLines } from './kernels/radar-contrast.ts';
import type { SceneLines, ShadeEndmembers } from './kernels/scene-stats.ts';
import type { SeasonLines } from './kernels/seasonal-troughs.ts';
import type { StructureLines } from './kernels/structure-at-trough.ts';
import type { TerrainLines } from './kernels/terrain-slope.ts';
import file from './operating-points.json' with { type: 'json' };

export interface OperatingPoints {
  readonly version: string;
  readonly date: string;
  readonly scenes: SceneLines & {
    readonly sclClearClasses: readonly number[];
    readonly landsatQaRequiredBits: readonly number[];
    readonly landsatQaRejectedBits: readonly number[];
    readonly cloudBufferM: number;
    readonly sclBufferedClasses: readonly number[];
    readonly landsatQaBufferedBits: readonly number[];
    readonly shadeEndmembers: ShadeEndmembers;
    readonly landsatAerosolHazyLevels: readonly number[];
  };
  readonly seasons: SeasonLines & { readonly ringInnerM: number; readonly ringOuterM: number };
  readonly structure: StructureLines;
  readonly radar: RadarLines & { readonly ringInnerM: number; readonly ringOuterM: number };
  /** Published ranges of the forest types the crop lines of height and radar lie under. */
  readonly forestTypes: Readonly<Record<string, { readonly heightM: readonly [number, number]; readonly hvDb: readonly [number, number] }>>;
  readonly height: HeightLines;
  readonly terrain: TerrainLines;
  /** Sub-plot blocks (kernels/block-index.ts, block-readings.ts). */
  readonly blocks: {
    readonly forestPart: ForestPartLines;
    readonly fineCellM: number;
    readonly radarCellM: number;
    readonly minFinePixels: number;
    readonly minRadarPixels: number;
    readonly dipCellM: number;
    readonly minDipPixels: number;
    /** How far a block's reading lies from the plot's majority before it reads unlike it (kernels/unlike-majority.ts). */
    readonly unlike: { readonly heightM: number; readonly shade: number; readonly radarDb: number; readonly dipDays: number; readonly dipDepth: number };
  };
}

export class OperatingPointsError extends Error {
  readonly code = 'operating_points_invalid';
}

/** Every line carries the reason it was chosen; a line without one is refused. */
const line = <T extends z.ZodType>(value: T) => z.strictObject({ value, why: z.string().min(40) });
const fraction = z.number().min(0).max(1);
const count = z.number().int().min(1);
const bits = z.array(z.number().int().min(0).max(15));
const reflectancePair = z.tuple([fraction, fraction]);
const range = z.tuple([z.number(), z.number()]).refine(([lo, hi]) => lo <= hi, 'a range runs from its low to its high end');

const schema = z.strictObject({
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  date: z.iso.date(),
  note: z.string(),
  scenes: z.strictObject({
    min_clear_fraction: line(fraction),
    min_pixels: line(count),
    scl_clear_classes: line(z.array(z.number().int().min(1).max(11)).min(1)),
    landsat_qa_required_bits: line(bits),
    landsat_qa_rejected_bits: line(bits),
    cloud_buffer_m: line(z.number().min(0).max(500)),
    scl_buffered_classes: line(z.array(z.number().int().min(1).max(11))),
    landsat_qa_buffered_bits: line(bits),
    max_aot: line(z.number().positive()),
    landsat_aerosol_hazy_levels: line(z.array(z.number().int().min(0).max(3))),
    max_hazy_share: line(fraction),
    shade_endmembers: line(z.strictObject({ vegetation: reflectancePair, soil: reflectancePair })),
  }),
  seasons: z.strictObject({
    dip_depth: line(z.number().positive().max(2)),
    min_observations: line(z.number().int().min(3)),
    max_gap_days: line(z.number().positive().max(365)),
    min_seasons: line(z.number().int().min(2)),
    phase_sd_limit_days: line(z.number().positive().max(183)),
    ring_inner_m: line(z.number().min(0)),
    ring_outer_m: line(z.number().positive().max(1000)),
  }),
  structure: z.strictObject({
    shade_line: line(fraction),
    shade_margin: line(fraction),
    aot_dust_limit: line(z.number().positive()),
  }),
  radar: z.strictObject({
    threshold_db: line(z.number().max(0)),
    margin_sigmas: line(z.number().min(0)),
    forest_quantile: line(fraction),
    forest_baseline_min_db: line(z.number().max(0)),
    evergreen_hh_hv_min_db: line(z.number()),
    crop_max_hv_db: line(z.number().max(0)),
    ring_inner_m: line(z.number().min(0)),
    ring_outer_m: line(z.number().positive()),
    min_plot_pixels: line(count),
    min_ring_pixels: line(count),
  }),
  height: z.strictObject({
    crop_line_m: line(z.number().positive()),
    forest_line_m: line(z.number().positive()),
    min_pixels: line(count),
  }),
  forest_types: z.record(z.string(), line(z.strictObject({ height_m: range, hv_db: range }))),
  blocks: z.strictObject({
    forest_min_ha: line(z.number().positive()),
    forest_min_share: line(fraction),
    fine_cell_m: line(z.number().positive()),
    radar_cell_m: line(z.number().positive()),
    min_fine_pixels: line(count),
    min_radar_pixels: line(count),
    unlike_height_m: line(z.number().positive()),
    unlike_shade: line(fraction),
    unlike_radar_db: line(z.number().positive()),
    unlike_dip_days: line(z.number().positive().max(183)),
    unlike_dip_depth: line(z.number().positive().max(2)),
    dip_cell_m: line(z.number().positive()),
    min_dip_pixels: line(count),
  }),
  terrain: z.strictObject({
    max_slope_deg: line(z.number().positive().max(90)),
  }),
});

/** Checks a parsed operating-points file and shapes it for the kernels. */
export function parseOperatingPoints(raw: unknown): OperatingPoints {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OperatingPointsError(`operating points: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const p = parsed.data;
  if (p.height.crop_line_m.value >= p.height.forest_line_m.value) {
    throw new OperatingPointsError('operating points: height.crop_line_m must lie under height.forest_line_m');
  }
  // No forest type the table holds may stand where height or radar confirm a crop.
  const types = Object.entries(p.forest_types);
  if (types.length === 0) throw new OperatingPointsError('operating points: forest_types holds no forest type');
  for (const [name, { value }] of types) {
    if (p.height.crop_line_m.value > value.height_m[0]) {
      throw new OperatingPointsError(`operating points: height.crop_line_m must lie at or under the lowest canopy of forest_types.${name}`);
    }
    if (p.radar.crop_max_hv_db.value > value.hv_db[0]) {
      throw new OperatingPointsError(`operating points: radar.crop_max_hv_db must lie at or under the lowest HV of forest_types.${name}`);
    }
  }
  if (p.seasons.ring_inner_m.value >= p.seasons.ring_outer_m.value) {
    throw new OperatingPointsError('operating points: seasons.ring_inner_m must lie under seasons.ring_outer_m');
  }
  if (p.radar.ring_inner_m.value >= p.radar.ring_outer_m.value) {
    throw new OperatingPointsError('operating points: radar.ring_inner_m must lie under radar.ring_outer_m');
  }
  const { vegetation, soil } = p.scenes.shade_endmembers.value;
  if (vegetation[0] * soil[1] - soil[0] * vegetation[1] === 0) {
    throw new OperatingPointsError('operating points: scenes.shade_endmembers are collinear');
  }
  return {
    version: p.version,
    date: p.date,
    scenes: {
      minClearFraction: p.scenes.min_clear_fraction.value,
      minPixels: p.scenes.min_pixels.value,
      sclClearClasses: p.scenes.scl_clear_classes.value,
      landsatQaRequiredBits: p.scenes.landsat_qa_required_bits.value,
      landsatQaRejectedBits: p.scenes.landsat_qa_rejected_bits.value,
      cloudBufferM: p.scenes.cloud_buffer_m.value,
      sclBufferedClasses: p.scenes.scl_buffered_classes.value,
      landsatQaBufferedBits: p.scenes.landsat_qa_buffered_bits.value,
      maxAot: p.scenes.max_aot.value,
      hazeAot: p.structure.aot_dust_limit.value,
      maxHazyShare: p.scenes.max_hazy_share.value,
      landsatAerosolHazyLevels: p.scenes.landsat_aerosol_hazy_levels.value,
      shadeEndmembers: { vegetation, soil },
    },
    seasons: {
      dipDepth: p.seasons.dip_depth.value,
      minObservations: p.seasons.min_observations.value,
      maxGapDays: p.seasons.max_gap_days.value,
      minSeasons: p.seasons.min_seasons.value,
      phaseSdLimitDays: p.seasons.phase_sd_limit_days.value,
      ringInnerM: p.seasons.ring_inner_m.value,
      ringOuterM: p.seasons.ring_outer_m.value,
    },
    structure: {
      shadeLine: p.structure.shade_line.value,
      shadeMargin: p.structure.shade_margin.value,
      aotDustLimit: p.structure.aot_dust_limit.value,
    },
    radar: {
      thresholdDb: p.radar.threshold_db.value,
      marginSigmas: p.radar.margin_sigmas.value,
      forestQuantile: p.radar.forest_quantile.value,
      forestBaselineMinDb: p.radar.forest_baseline_min_db.value,
      evergreenHhHvMinDb: p.radar.evergreen_hh_hv_min_db.value,
      cropMaxHvDb: p.radar.crop_max_hv_db.value,
      ringInnerM: p.radar.ring_inner_m.value,
      ringOuterM: p.radar.ring_outer_m.value,
      minPlotPixels: p.radar.min_plot_pixels.value,
      minRingPixels: p.radar.min_ring_pixels.value,
    },
    height: {
      cropLineM: p.height.crop_line_m.value,
      forestLineM: p.height.forest_line_m.value,
      minPixels: p.height.min_pixels.value,
    },
    terrain: { maxSlopeDeg: p.terrain.max_slope_deg.value },
    forestTypes: Object.fromEntries(types.map(([name, { value }]) => [name, { heightM: value.height_m, hvDb: value.hv_db }])),
    blocks: {
      forestPart: { minHa: p.blocks.forest_min_ha.value, minShare: p.blocks.forest_min_share.value },
      fineCellM: p.blocks.fine_cell_m.value,
      radarCellM: p.blocks.radar_cell_m.value,
      minFinePixels: p.blocks.min_fine_pixels.value,
      minRadarPixels: p.blocks.min_radar_pixels.value,
      dipCellM: p.blocks.dip_cell_m.value,
      minDipPixels: p.blocks.min_dip_pixels.value,
      unlike: {
        heightM: p.blocks.unlike_height_m.value,
        shade: p.blocks.unlike_shade.value,
        radarDb: p.blocks.unlike_radar_db.value,
        dipDays: p.blocks.unlike_dip_days.value,
        dipDepth: p.blocks.unlike_dip_depth.value,
      },
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The operating points in force, checked when this module loads. */
export const operatingPoints: OperatingPoints = deepFreeze(parseOperatingPoints(file));
