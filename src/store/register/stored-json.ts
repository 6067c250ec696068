/**
 * The JSON the register stores, checked once where a row is read, so callers receive typed objects
 * and never re-parse or cast. A stored value that fails its schema is a corrupt row: the read
 * throws rather than serve it.
 *
 * The evidence object is checked on the fields the service reads and serves by name; its context
 * blocks are typed loosely (src/engine/evidence-object.ts), so a stored object is read whatever
 * version of the blocks wrote it.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import { z } from 'zod';
import type { EvidenceChip } from '../../documents/footprint-map.ts';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import type { Integrity } from '../../engine/integrity.ts';
import type { EvidenceFacts, Landsat2020Class } from '../../engine/plot-state.ts';
import type { Finding } from '../../intake/findings.ts';
import type { PlotGeometry } from '../../intake/types.ts';

const nullableNumber = z.number().nullable();
const block = z.looseObject({});
const instrument = z.looseObject({ forest_like: z.boolean().nullable(), refusal: z.string().nullable() });

const evidenceShape = z.looseObject({
  aoi_name: z.string(),
  cutoff: z.string(),
  issued: z.string(),
  plot_area_km2: z.number(),
  evidence_floor_km2: z.number(),
  calibration: block,
  risk: block,
  settlement: block,
  history: block,
  footprint: z.string(),
  read: z.looseObject({ pixels: z.number(), scenes_kept: z.number(), start: z.string(), end: z.string() }),
  verdict: z.string(),
  reason: z.string(),
  reasons: z.array(z.string()),
  finding: z.string(),
  seasons: z.array(block),
  seasons_observed: z.number(),
  seasons_with_dip: z.number(),
  phase_locked: z.boolean(),
  phase_sd_days: nullableNumber,
  mean_depth: nullableNumber,
  seasons_without_answer: z.array(z.number()),
  structure: instrument,
  radar: instrument,
  height: instrument,
  terrain: z.looseObject({ mean_slope_deg: nullableNumber }),
  scenes: z.array(z.string()),
  skipped: z.array(z.looseObject({ scene: z.string(), at: z.string(), why: z.string() })),
  posture: z.string(),
  baseline_note: z.string(),
  next_step: block.nullable(),
  post_cutoff_loss: block.nullable(),
  forest_types: block,
  commodity_maps: block,
  whisp: block,
  concession: block.optional(),
  parts: z.array(z.looseObject({ part: z.number(), area_ha: z.number(), read: z.boolean(), verdict: z.string(), reason: z.string(), reasons: z.array(z.string()), pixels: z.number(), finding: z.string() })).optional(),
  synthetic: z.boolean(),
  synthetic_note: z.string().optional(),
});

/** The evidence object of spec 2.7 as stored, signed and served. */
export const evidenceObject = z.custom<EvidenceObject>((value) => evidenceShape.safeParse(value).success, 'not a stored evidence object');

export const integrity: z.ZodType<Integrity> = z.object({
  canonicalization: z.literal('RFC8785'),
  digest: z.string(),
  signature: z.string(),
  key_id: z.string(),
});

const position = z.tuple([z.number(), z.number()]).rest(z.number());
const polygon = z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(position)) });
const multiPolygon = z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(position))) });

/** What the row beside the object keeps for the document's map (the chip's PNG is stored apart). */
export interface StoredMap {
  footprint: Polygon | MultiPolygon;
  chip: Omit<EvidenceChip, 'png'> | null;
}

export const storedMap: z.ZodType<StoredMap> = z.object({
  footprint: z.union([polygon, multiPolygon]),
  chip: z.object({ bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]), scene: z.string() }).nullable(),
});

const LANDSAT_2020: readonly Landsat2020Class[] = ['undisturbed_forest', 'degraded_forest', 'cleared_before_2021', 'outside_moist_forest', 'mixed_cover', 'not_covered'];

/** The register's copy of the facts a plot's `state` needs; null when the plot holds no evidence. */
export const evidenceFacts: z.ZodType<EvidenceFacts> = z.object({
  archive_cultivation: z.boolean().nullable().optional(),
  eu_maps_forest_share: nullableNumber.optional(),
  eu_maps_planted_share: nullableNumber.optional(),
  landsat_2020: z.enum(LANDSAT_2020).nullable().optional(),
  seasons_measured: nullableNumber.optional(),
  forest_part_share: nullableNumber.optional(),
});

const finding = z.custom<Finding>((value) => z.looseObject({ code: z.string(), message: z.string() }).safeParse(value).success, 'not a finding');

/** Findings, repairs and rejections of the plot's last upload (an alert's plot adds its own entries). */
export type ValidationReport = { findings: Finding[]; repairs: Finding[]; rejections: Finding[] } & Record<string, unknown>;

export const validationReport: z.ZodType<ValidationReport> = z.looseObject({
  findings: z.array(finding),
  repairs: z.array(finding),
  rejections: z.array(finding),
});

/** A plot's stored boundary: the validated geometry the upload wrote. */
export const plotGeometry: z.ZodType<PlotGeometry> = z.union([
  z.object({ type: z.literal('Point'), coordinates: z.tuple([z.number(), z.number()]) }),
  z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(z.tuple([z.number(), z.number()]))) }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(z.tuple([z.number(), z.number()])))) }),
]);
