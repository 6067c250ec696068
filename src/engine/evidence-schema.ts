/**
 * The evidence object of spec 2.7 and its blocks (2.8) as a run-time schema, field by field: the
 * register checks every stored object against it where a row is read, and the OpenAPI document's
 * EvidenceObject is generated from it, so what is checked and what is documented cannot drift.
 * Typed as the engine's EvidenceObject, so a field the engine writes and this schema lacks fails
 * the type-check. One property a line: a new field is one added line.
 *
 * Objects are closed in the document (no undocumented field, so no withdrawn decision line, can
 * appear in a served object); reading a stored row passes fields it does not know.
 */
import { z } from 'zod';
import { RULES } from './decide.ts';
import type { EvidenceObject } from './evidence-object.ts';
import type { Integrity } from './integrity.ts';
import { NEXT_STEP_CODES } from './next-step.ts';
import { ANNUAL_CLASSES } from './context/history.ts';
import { SETTLEMENT_YEARS } from './context/settlement.ts';
import { WHISP_INDICATORS } from './context/whisp.ts';

const count = z.number().int().min(0);
const share = z.number().nullable().describe('A fraction of the plot from 0 to 1; null when not read.');
const reading = z.number().nullable();
const year = z.number().int().nullable();
const date = z.iso.date();
const text = z.string();
const maybeText = z.string().nullable();
/** Spec 2.7 rule 1: an instrument's categorical answer. */
const forestLike = z.boolean().nullable().describe('true forest-like, false not, null when the instrument could not answer (`refusal` says why).');
const refusal = z.string().nullable().describe('Why the instrument could not answer, in words; null when it answered.');
/** The share of the plot a read had data for. */
const coverage = (what: string) => z.number().min(0).max(1).nullable()
  .describe(`Share of the plot's pixels ${what} (0..1): fill, nodata and ground beyond the archive's tiles count as not read.`);
/** A context block's coverage: absent where the block was not read at all. */
const blockCoverage = (what: string) => coverage(what).optional();
/** Spec 2.7 rule 1's answer cleared its line by the instrument's margin (the line itself is not served). */
const confident = z.boolean().describe('The answer cleared its line by the instrument\'s margin (the line itself is not served); false when the instrument did not answer.');
/** What an instrument read per sub-plot block (evidence-object.ts EvidenceBlocks). */
const blocks = z.object({
  cell_m: z.number(),
  blocks: count.describe('Blocks of both lattices holding plot pixels.'),
  blocks_read: count.describe('Blocks with enough pixels for the instrument to answer.'),
  forest_like_blocks: count,
  forest_like_ha: z.number().describe('Ground of the plot lying in forest-like blocks.'),
  forest_like_share: share.describe('That ground as a share of the plot (0..1).'),
  forest_like_where: maybeText.describe('Where it lies: `in the` and a compass direction from the plot\'s middle, or `across the plot`; null when no part is forest-like.'),
}).nullable().describe('What the instrument read per sub-plot block, so that no part of the plot is averaged away: cells of `cell_m` metres on two lattices anchored at the footprint\'s south-west corner, the second shifted by half a cell. The plot reads forest-like when its forest-like blocks cover more than 0.5 ha or a tenth of the plot, whichever is smaller. Null when the blocks were not read.');
/** Present when a block or part of it could not be read: says why in words. */
const note = z.string().optional();

const VERDICTS = [...new Set(RULES.map((rule) => rule.verdict))] as [EvidenceObject['verdict'], ...EvidenceObject['verdict'][]];
const REASON_CODES = [...new Set(RULES.map((rule) => rule.code))] as [EvidenceObject['reason'], ...EvidenceObject['reason'][]];
const reasonCode = z.enum(REASON_CODES).describe(
  'A reason code of spec 2.10, or one of the three this service adds, each a withholding of a positive finding placed before the instruments\' reason: '
  + '`record_covers_part_of_plot` (the optical record covers under 95% of the plot), `ground_not_shown_uniform` (a contiguous part of the plot over 0.5 ha '
  + 'or a tenth of it, whichever is smaller, reads unlike the rest on the dip\'s timing or depth, canopy height, radar or shade; or the record is too short '
  + 'to test every part for the dip), `surroundings_show_the_same_dip` (the ground 30 to 120 m around the plot dips at the plot\'s time and to its depth). '
  + 'The finding names the share, where it lies and the instrument that saw it.',
);

/** Spec 2.8.1. */
const calibration = z.object({
  region: maybeText.describe('null when no single region could be named.'),
  countries: z.array(text),
  state: z.enum(['validated', 'in_campaign', 'reads']),
  commodities: z.array(text),
  controls: count.nullable(),
  forest_cleared: maybeText.describe('`x/y`: forest blocks reaching a positive finding over forest blocks read.'),
  forest_cleared_rerun: text.optional().describe('Same form, from a re-read at evidence-floor scale; present only where one ran.'),
  established_crop_filable: maybeText.describe('`x/y`: established pre-cutoff crop blocks reaching a filable finding over blocks read.'),
  measured_on: date.nullable(),
  reference_map: maybeText,
  note: text,
}).describe('Where the decision margins were measured (spec 2.8.1).');

const protectedArea = z.object({
  available: z.boolean(),
  intersects: z.boolean().nullable(),
  source: text,
  dataset: text,
  licence: text,
  attribution: text,
  snapshot: maybeText.describe('The source database\'s own timestamp.'),
  search_radius_km: z.number(),
  areas: z.array(z.object({
    name: maybeText,
    designation: text,
    iucn_category: maybeText,
    map_type: text,
    map_id: text,
  })),
  distance_km: reading.describe('Distance to the nearest area; 0 when one intersects; null when not read.'),
  coverage_note: text,
  excluded_sources: z.array(z.object({
    source: text,
    why: text,
  })),
  note,
});

const countryRisk = z.object({
  country: maybeText.describe('Alpha-2 code; null when no country was given.'),
  country_name: maybeText,
  classification: z.enum(['low', 'standard', 'high']).nullable(),
  enumerated: z.boolean().nullable().describe('true: the Commission names the country; false: the residual standard rule; null: no country given.'),
  instrument: text,
  eli: text,
  celex: text,
  version_date: date,
  checked_on: date,
  amended_by: maybeText,
  source: text,
  consequence: text,
});

const neighbourhood = z.object({
  available: z.boolean(),
  loss_ha: reading,
  prevalence_pct: reading,
  ring_km: z.number(),
  ring_area_ha: reading,
  since_year: z.number().int(),
  canopy_density_threshold_pct: z.number(),
  source: text,
  dataset: text,
  version: text,
  licence: text,
  citation: text,
  accuracy: text,
  note,
  coverage: blockCoverage('of the ring around the plot read with data; under 0.95 `available: false`'),
});

/** Spec 2.8.2. */
const risk = z.object({
  note: text,
  article: text,
  protected_area: protectedArea,
  country: countryRisk,
  neighbourhood,
}).describe('Article 10 context; never a verdict (spec 2.8.2).');

const settlementSide = z.object({
  pixels: count.nullable(),
  valid_pixels: count.nullable(),
  read: z.boolean(),
  presence_share: share,
  building_m2: reading,
  present: z.boolean().nullable(),
  buildings_estimate: reading,
  max_height_m: reading,
});

const settlementYear = z.object({
  available: z.boolean(),
  coverage: z.boolean(),
  inside: settlementSide,
  buffer: settlementSide,
  tiles: z.array(text),
  epsg: z.number().int().nullable(),
  note,
});

/** Spec 2.8.3. */
const settlement = z.object({
  note: text,
  source: text,
  version: text,
  licence: text,
  attribution: text,
  citation: text,
  threshold_source: text,
  presence_threshold: z.number(),
  min_building_m2: z.number(),
  buffer_m: z.number(),
  pitch_m: z.number(),
  cutoff_year: z.number().int(),
  years_read: z.array(z.number().int()),
  available: z.boolean(),
  present_inside_at_cutoff: z.boolean().nullable(),
  present_in_buffer_at_cutoff: z.boolean().nullable(),
  years: z.object(Object.fromEntries(SETTLEMENT_YEARS.map((y) => [String(y), settlementYear])) as Record<`${(typeof SETTLEMENT_YEARS)[number]}`, typeof settlementYear>),
  reading: text,
}).describe('Buildings; supporting evidence only (spec 2.8.3).');

const classShares = z.object(Object.fromEntries(Object.keys(ANNUAL_CLASSES).map((name) => [name, share])) as Record<keyof typeof ANNUAL_CLASSES, typeof share>);

const yearRange = z.object({
  year_min: year,
  year_median: year,
  year_max: year,
});

const eventYears = z.object({
  share_ever: share,
  share_before_2021: share,
  share_2021_or_later: share,
  year_min: year,
  year_median: year,
  year_max: year,
  before_2021: yearRange,
  from_2021: yearRange,
});

/** Spec 2.8.4. */
const history = z.object({
  note: text,
  source: text,
  version: text,
  resolution_m: z.number(),
  record: text,
  layers: z.array(text),
  licence: text,
  citation: text,
  acknowledgement: text,
  definition: text,
  cutoff_year: z.number().int(),
  checked: z.boolean(),
  available: z.boolean(),
  tile: maybeText,
  pixels: count.nullable(),
  classes_1990: classShares.nullable(),
  classes_2020: classShares.nullable(),
  moist_forest_2020_share: share,
  never_moist_forest_share: share,
  deforestation_year: eventYears.nullable(),
  degradation_year: eventYears.nullable(),
  last_moist_forest_year: z.object({
    median: year,
    max: year,
    share_at_cutoff: share,
  }).nullable(),
  plantation_2025_share: share,
  reading: z.array(text),
  note_on_read: maybeText,
  coverage: blockCoverage('carrying a class of the record (30 m); under 0.95 no share is given (`available: false`), and on Indonesian or Malaysian ground a positive finding is withheld with `landsat_record_unavailable`'),
}).describe('The Landsat moist-forest record (spec 2.8.4).');

const postCutoffLoss = z.object({
  share: z.number(),
  area_ha: z.number(),
  years: z.array(z.number().int()),
  source: text,
}).describe('Loss of moist forest dated to 2021 or later (spec 2.8.4 rule 4).');

/** Spec 2.8.6. */
const forestTypes = z.object({
  available: z.boolean(),
  primary: share,
  naturally_regenerating: share,
  planted: share,
  not_forest: share,
  source: text,
  licence: text,
  citation: text,
  note,
  coverage: blockCoverage('both maps were read over; under 0.95 `available: false` with a note, and nothing is withheld or unlocked on its account'),
}).describe('Shares of the 2020 forest-type map (spec 2.8.6).');

/** Spec 2.8.6. */
const commodityMaps = z.object({
  oil_palm: z.object({
    available: z.boolean(),
    outside_coverage: z.boolean(),
    planted_by_2020: z.boolean().nullable(),
    median_planting_year: year,
    industrial_2021: share,
    smallholder_2021: share,
    citation: text,
    note,
    coverage: blockCoverage('the map was read over; under 0.95 `available: false` with a note'),
  }),
  rubber: z.object({
    available: z.boolean(),
    outside_coverage: z.boolean(),
    rubber_2020: share,
    citation: text,
    note,
    coverage: blockCoverage('the map was read over; under 0.95 `available: false` with a note'),
  }),
}).describe('Oil palm and rubber maps (spec 2.8.6).');

const whisp = z.object({
  available: z.boolean(),
  risk_pcrop: z.enum(['low', 'more_info_needed', 'high']).nullable().optional(),
  rule: text.optional(),
  indicators: z.object(Object.fromEntries(Object.keys(WHISP_INDICATORS).map((name) => [name, z.enum(['yes', 'no']).nullable()])) as Record<keyof typeof WHISP_INDICATORS, z.ZodNullable<z.ZodEnum<{ yes: 'yes'; no: 'no' }>>>).optional(),
  datasets: z.record(z.string(), z.number()).optional(),
  not_read: z.array(text).optional(),
  source: text.optional(),
  note: text,
}).describe('The perennial-crop rating and the rule behind it, in words; `available: false` unless the deployment switches it on.');

/** Spec 2.8.7. */
const concession = z.object({
  checked: z.boolean(),
  inside: z.boolean().nullable(),
  share: share,
  licence_type: maybeText,
  source: text,
  dataset: text,
  version: maybeText,
  licence: text,
  citation: text,
  caution: text,
  note: text,
}).describe('Present only for plots whose centroid lies in Indonesia\'s extent (spec 2.8.7).');

/** Spec 2.8.5, less the kernel's pointer into the scene series. */
const season = z.object({
  season: z.number().int(),
  label: text,
  observations: count,
  plateau: reading,
  trough: reading,
  trough_date: date.nullable(),
  depth: reading,
  dipped: z.boolean(),
  no_answer: z.boolean(),
  truncated: z.boolean(),
  last_observed: date.nullable(),
});

/** One part of a multi-part plot (evidence-object.ts EvidencePart). */
const part = z.object({
  part: z.number().int().min(1).describe('Its place in the uploaded MultiPolygon, from 1.'),
  area_ha: z.number(),
  centroid: z.tuple([z.number(), z.number()]).describe('[longitude, latitude] of the part\'s centre of mass.'),
  read: z.boolean().describe('False when no archive holds anything over the part; `not_read` says why, and the part answers `insufficient_record`.'),
  not_read: maybeText,
  verdict: z.enum(VERDICTS),
  reason: reasonCode,
  reasons: z.array(reasonCode).min(1),
  pixels: count.describe('Part pixels on the optical grid; 0 when nothing was read.'),
  scenes_kept: count,
  seasons_observed: count,
  tiles: z.object({
    radar: maybeText,
    height: maybeText,
  }).describe('The radar and canopy-height tiles read under the part.'),
  protected_area_intersects: z.boolean().nullable().describe('Whether the part intersects a protected area on the open map layer (context only, as `risk.protected_area`, which is the governing part\'s); null when not checked.'),
  finding: text.describe('The part\'s own finding sentence.'),
}).describe('One part of a multi-part plot, read on its own as a polygon plot: its own scenes, instruments, maps and decision, on the archives\' tiles under it. The evidence floor applies to each part\'s own area.');

/** Spec 2.14. */
export const nextStepSchema = z.object({
  code: z.enum(NEXT_STEP_CODES),
  note: text,
}).describe(
  'What the plot needs next; null on a positive finding. Route on `code`: `archive_imagery_review` (withheld: a review of a sub-metre archive scene returns a dated statement filed with the same document, never the imagery), `below_evidence_floor` (under 4 ha: records or a field visit), `supply_other_evidence` (insufficient record), `document_prior_use` (no prior management evidenced), `run_again` (the read failed), `check_location` (the read failed because no archive covers the place: reading again cannot help; check the coordinates), `run_evidence` (never read, or withdrawn), `correct_and_upload_again` (rejected at upload or without a boundary: never read as it stands), `await_read` (queued or being read). `note` is display text.',
);

const position = z.array(z.number()).min(2).max(3);
const ring = z.array(position).min(4);
const polygonGeometry = z.object({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1) });
const boundary = z.object({
  geometry: z.union([
    z.object({ type: z.literal('Point'), coordinates: position }),
    polygonGeometry,
    z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(ring).min(1)).min(1) }),
  ]).describe('The boundary as the register stores it (after repair), GeoJSON in WGS84 longitude/latitude: the uploaded Polygon or MultiPolygon, or the declared Point.'),
  drawn: polygonGeometry.nullable().describe('For a point, the circle drawn around it and read (see `footprint`); null for a boundary, which was read itself.'),
  digest: z.string().regex(/^[0-9a-f]{64}$/).describe('SHA-256 (lower-case hex) of `geometry` in its RFC 8785 canonical JSON form: `npm run verify -- evidence.json plot.geojson` recomputes it from a boundary file.'),
  centroid: z.tuple([z.number(), z.number()]).describe('[longitude, latitude]: the point, or the boundary\'s centre of mass.'),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).describe('[west, south, east, north] of what was read.'),
  area_ha: z.number().describe('The area stated for the plot (a circle\'s is its measured area).'),
}).describe('The boundary the plot was read on, signed with the evidence so a JSON or PDF names one polygon. Absent on evidence read before it was added.');

export const evidenceObjectSchema: z.ZodType<EvidenceObject> = z.object({
  aoi_name: text.describe('The caller\'s reference; empty when the plot was registered without one.'),
  engine_version: text.describe('The version of the service that read the plot.'),
  operating_points_version: text.describe('The version of the decision lines the instruments were read against; the lines themselves are not served.'),
  cutoff: date,
  issued: z.iso.datetime({ offset: true }),
  plot_area_km2: z.number(),
  evidence_floor_km2: z.number(),
  calibration,
  risk,
  settlement,
  history,
  footprint: text.describe('Whether the uploaded boundary (in parts, for a multi-part plot) or a circle drawn around a declared point was read, with its area: a circle\'s is the drawn polygon\'s measured area. A point with no declared area carries `plot_below_evidence_floor`: its own area is not known to reach the floor.'),
  boundary: boundary.optional(),
  read: z.object({
    pixels: count,
    pitch_m: z.number(),
    scenes_searched: count,
    scenes_kept: count.describe('Usable scenes read, each acquisition counted once however many items publish it.'),
    min_clear_fraction: z.number(),
    min_pixels: count,
    start: date,
    end: date,
    sensors: z.array(text),
    landsat: z.object({
      scenes_kept: count,
    }),
    coverage: coverage('that at least one kept scene had data for (cloud is not a gap); null when no scene was kept. Under 0.95 no positive finding is issued (`record_covers_part_of_plot`)'),
  }),
  verdict: z.enum(VERDICTS),
  reason: reasonCode,
  reasons: z.array(reasonCode).min(1),
  finding: text,
  seasons: z.array(season),
  seasons_observed: count,
  seasons_with_dip: count,
  phase_locked: z.boolean().describe('Every measured season dipped, in phase, over the whole plot: false too when a part of it larger than 0.5 ha or a tenth of the plot shows no dip at the plot\'s troughs.'),
  dip_blocks: blocks.describe('The dry-season dip tested block by block at the plot\'s troughs; here `forest_like` counts blocks without the in-phase dip. Null when no scene was read.'),
  phase_sd_days: reading.describe(
    'Circular standard deviation of the trough dates, in days. Spec 2.7 types it a number; it is null when fewer than two seasons dipped, as a spread needs two dates, and an absence is never served as a 0 that would read as perfectly phase-locked.',
  ),
  mean_depth: reading.describe(
    'Mean plateau-to-trough depth of the measured seasons. Spec 2.7 types it a number; it is null when no season was measured, since a 0 would read as a measured absence of any dip.',
  ),
  seasons_without_answer: z.array(z.number().int()),
  structure: z.object({
    layer: text,
    shade_at_trough: reading,
    seasons_matched: count,
    forest_like: forestLike,
    confident,
    blocks,
    aot_at_trough: reading,
    withheld_for_dust: z.boolean(),
    refusal,
  }),
  radar: z.object({
    instrument: text,
    tile: maybeText,
    mirror: maybeText.describe('Which of the two mirrors served the read; null when neither could.'),
    years_read: z.array(z.number().int()),
    plot_minus_local_forest_db: reading,
    local_forest_baseline_db: reading,
    sigma_db: reading,
    hh_hv_db: reading,
    forest_like: forestLike,
    confident,
    blocks,
    refusal,
    coverage: coverage('with radar data in a mosaic read; null when none was read. Under 0.95 the radar does not answer'),
  }),
  height: z.object({
    instrument: text,
    tile: maybeText,
    median_m: reading,
    p10_m: reading,
    p90_m: reading,
    pixels: count,
    forest_like: forestLike,
    confident,
    blocks,
    refusal,
    coverage: coverage('with a height; null when no tile was read. Under 0.95 the map does not answer'),
  }).describe('A median between the crop and forest lines is read but gives no answer (`forest_like` null, `refusal` says so).'),
  terrain: z.object({
    mean_slope_deg: reading,
    source: text,
    outside_characterised_range: z.boolean().nullable(),
    coverage: coverage('with an elevation; null when no tile was read'),
  }),
  scenes: z.array(text).describe('The kept scenes behind every figure.'),
  skipped: z.array(z.object({
    scene: text,
    at: date,
    why: text,
  })).describe('Scenes found but not read, each with why: not clear enough, seen through thick haze, files unreadable, or another publication of an acquisition already read (a neighbouring MGRS tile or WRS-2 row, a reprocessing).'),
  series: z.array(z.object({
    scene: text,
    at: date,
    index: reading.describe('The median vegetation index (NDVI) of the plot\'s clear pixels in the scene; null when none was clear.'),
    clear_share: share.describe('Share of the plot\'s pixels clear in the scene (0..1).'),
  })).optional().describe('Each kept scene\'s reading over the plot, one per entry of `scenes` and in its order: the points the seasons\' plateaus and troughs were read from. Absent on evidence read before the series was stored.'),
  posture: text,
  baseline_note: text,
  next_step: nextStepSchema.nullable(),
  post_cutoff_loss: postCutoffLoss.nullable(),
  forest_types: forestTypes,
  commodity_maps: commodityMaps,
  whisp,
  concession: concession.optional(),
  parts: z.array(part).min(2).optional().describe(
    'Present only for a plot uploaded as a MultiPolygon of more than one polygon (absent for a polygon or a point): each part is read and decided on its own. '
    + 'The plot takes its most cautious part\'s verdict, reason and reasons, so it carries a positive finding only when every part does. Caution rises from a positive '
    + 'finding, through a plantation reading withheld by a context block or the floor, a reading the instruments withheld themselves and a refusal (`insufficient_record`, '
    + 'also the answer of a part nothing was read on), to `no_prior_management_evidenced`; the first of equally cautious parts governs. The top-level blocks (record, '
    + 'instruments, context, scenes) are those of the most cautious part that was read; `plot_area_km2` and `footprint` are the whole plot\'s, and `finding` names the parts.',
  ),
  synthetic: z.boolean().describe('True when read from the generated demo archive.'),
  synthetic_note: text.optional(),
}).describe('The evidence object of one read (spec 2.7). Decision lines are never served; readings and categorical answers are.');

export const integritySchema: z.ZodType<Integrity> = z.object({
  canonicalization: z.literal('RFC8785'),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  signature: z.string(),
  key_id: z.string(),
}).describe('`digest` is the lower-case hex SHA-256 of the RFC 8785 canonical JSON of `evidence`; `signature` the base64 Ed25519 signature of the digest\'s 32 bytes, verifiable with GET /evidence/public-key.');
