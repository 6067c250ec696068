/**
 * The JSON the register stores, checked once where a row is read, so callers receive typed objects
 * and never re-parse or cast. A stored value that fails its schema is a corrupt row: the read
 * throws rather than serve it.
 *
 * The evidence object and its integrity block are checked field by field by the schemas the OpenAPI
 * document is generated from (src/engine/evidence-schema.ts).
 */
import type { MultiPolygon, Polygon } from 'geojson';
import { z } from 'zod';
import type { EvidenceChip } from '../../documents/footprint-map.ts';
import { archiveReviewSchema, type ArchiveReview } from '../../engine/archive-reading.ts';
import type { EvidenceObject } from '../../engine/evidence-object.ts';
import { evidenceObjectSchema, integritySchema } from '../../engine/evidence-schema.ts';
import type { EvidenceFacts, Landsat2020Class } from '../../engine/plot-state.ts';
import type { Finding } from '../../intake/findings.ts';
import type { PlotGeometry } from '../../intake/types.ts';

const nullableNumber = z.number().nullable();

/**
 * The evidence object of spec 2.7 as stored, signed and served: checked by the schema the OpenAPI
 * document shows, and passed on exactly as stored. A parse would rebuild it, dropping any field the
 * schema does not name, and the signed digest would no longer match what is served.
 */
export const evidenceObject = z.custom<EvidenceObject>((value) => evidenceObjectSchema.safeParse(value).success, 'not a stored evidence object');

/** The figures of a served evidence object's `post_cutoff_loss` (spec 2.8.4 rule 4), read alone from the stored object. */
export const postCutoffLoss = z.object({ share: z.number(), area_ha: z.number(), years: z.array(z.number().int()) }).nullable();

/** The wrapper's integrity block as stored. */
export const integrity = integritySchema;

/** An archive reading and its integrity block as stored, passed on exactly as stored for the same reason as the evidence object. */
export const archiveReview = z.custom<ArchiveReview>((value) => archiveReviewSchema.safeParse(value).success, 'not a stored archive reading');

const position = z.tuple([z.number(), z.number()]).rest(z.number());
const polygon = z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(position)) });
const multiPolygon = z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(position))) });

/** A studio boundary as saved: a Polygon or MultiPolygon. */
export const boundaryGeometry: z.ZodType<Polygon | MultiPolygon> = z.union([polygon, multiPolygon]);

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

/** What a plot made from an alert keeps under `validation_report.alert` (spec 2.1, 4.4 rule 5). */
export interface StoredAlertEntry {
  alert_date: string;
  footprint_area_ha: number;
  window_area_ha: number;
  window_constructed: boolean;
  /** The alert's footprint as sent; the plot's boundary is the read window. */
  footprint: PlotGeometry;
}

export const alertEntry: z.ZodType<StoredAlertEntry> = z.object({
  alert_date: z.string(),
  footprint_area_ha: z.number(),
  window_area_ha: z.number(),
  window_constructed: z.boolean(),
  footprint: plotGeometry,
});
