// The calibration block (spec 2.8.1): where the decision margins behind a finding were
// measured. The regions are the committed defaults of calibration-regions.json; campaign figures
// are written only by the campaign runner, into a file of the data directory that is read over
// the defaults, so until a campaign has run on real controls a region reports `reads` and
// quotes nothing.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import isoCountries from 'i18n-iso-countries';
import { z } from 'zod';
import type { ArchiveKind } from '../../config.ts';
import regionsFile from './calibration-regions.json' with { type: 'json' };

export type CalibrationErrorCode =
  | 'calibration_table_invalid' // the data file breaks its own shape or rules
  | 'country_code_invalid' // a producer or plot country that is not an alpha-2 code
  | 'centroid_invalid'; // a centroid that is not a finite longitude/latitude pair

export class CalibrationError extends Error {
  readonly code: CalibrationErrorCode;

  constructor(code: CalibrationErrorCode, message: string) {
    super(message);
    this.name = 'CalibrationError';
    this.code = code;
  }
}

export type CalibrationState = 'validated' | 'in_campaign' | 'reads';

export interface CalibrationBlock {
  /** null when no single region could be named (no country in a region, centroid in none or in several). */
  region: string | null;
  countries: string[];
  state: CalibrationState;
  commodities: string[];
  controls: number | null;
  forest_cleared: string | null;
  /** Present only where a re-read at evidence-floor scale ran. */
  forest_cleared_rerun?: string;
  established_crop_filable: string | null;
  measured_on: string | null;
  reference_map: string | null;
  note: string;
}

export interface CalibrationInput {
  producerCountry?: string | null;
  plotCountry?: string | null;
  /** [longitude, latitude] in degrees, WGS 84. */
  centroid?: readonly [number, number] | null;
}

const EUDR_COMMODITIES = ['cattle', 'cocoa', 'coffee', 'oil_palm', 'rubber', 'soya', 'wood'] as const;

const alpha2 = z.string().refine((code) => /^[A-Z]{2}$/.test(code) && isoCountries.isValid(code), 'an ISO 3166-1 alpha-2 code');
const fraction = z
  .string()
  .regex(/^\d+\/\d+$/, 'x/y')
  .refine((text) => {
    const [x, y] = text.split('/').map(Number);
    return y > 0 && x <= y;
  }, 'x/y with 0 < y and x <= y');
const bbox = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().min(-180).max(180), z.number().min(-90).max(90)])
  .refine(([west, south, east, north]) => west < east && south < north, 'west < east and south < north');

const regionSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  region: z.string().min(1),
  countries: z.array(alpha2).min(1),
  bboxes: z.array(bbox).min(1),
  commodities: z.array(z.enum(EUDR_COMMODITIES)).min(1),
  reference_map: z.string().min(1),
  state: z.enum(['validated', 'in_campaign', 'reads']),
  controls: z.number().int().positive().nullable(),
  forest_cleared: fraction.nullable(),
  forest_cleared_rerun: fraction.nullable(),
  established_crop_filable: fraction.nullable(),
  measured_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
  // Which world the campaign read: real controls on the public archives, or the demo world.
  campaign_archive: z.enum(['public', 'demo']).nullable(),
});

const tableSchema = z.object({
  version: z.string().min(1),
  regions: z.array(regionSchema).min(1),
});

export type CalibrationRegion = z.infer<typeof regionSchema>;
export type CalibrationTable = z.infer<typeof tableSchema>;

function invalid(message: string): CalibrationError {
  return new CalibrationError('calibration_table_invalid', `calibration regions: ${message}`);
}

// A campaign writes all of its figures at once; a region either carries all or none.
function checkCampaign(region: CalibrationRegion): void {
  const figures = [region.controls, region.forest_cleared, region.established_crop_filable, region.measured_on, region.campaign_archive];
  const written = figures.filter((value) => value !== null).length;
  if (written !== 0 && written !== figures.length) {
    throw invalid(`${region.id}: controls, forest_cleared, established_crop_filable, measured_on and campaign_archive are written together`);
  }
  if (written === 0 && region.forest_cleared_rerun !== null) {
    throw invalid(`${region.id}: forest_cleared_rerun without a campaign`);
  }
  if (region.state === 'validated' && region.campaign_archive !== 'public') {
    throw invalid(`${region.id}: 'validated' needs a campaign on real controls (campaign_archive 'public')`);
  }
  if (region.state !== 'validated' && region.campaign_archive === 'public') {
    throw invalid(`${region.id}: a campaign on real controls has run, so the state is 'validated'`);
  }
  if (region.state === 'in_campaign' && written !== 0) {
    throw invalid(`${region.id}: a region in campaign quotes no figure`);
  }
}

/** Checks a raw calibration table and returns it typed; throws `calibration_table_invalid`. */
export function parseCalibrationTable(raw: unknown): CalibrationTable {
  const parsed = tableSchema.safeParse(raw);
  if (!parsed.success) throw invalid(z.prettifyError(parsed.error));
  const ids = new Set<string>();
  const owner = new Map<string, string>();
  for (const region of parsed.data.regions) {
    if (ids.has(region.id)) throw invalid(`region id ${region.id} is used twice`);
    ids.add(region.id);
    for (const country of region.countries) {
      const other = owner.get(country);
      if (other !== undefined) throw invalid(`${country} is in both ${other} and ${region.id}`);
      owner.set(country, region.id);
    }
    checkCampaign(region);
  }
  return parsed.data;
}

const NOTE_READS =
  'The archives cover this ground, but no control campaign has run in this region yet: the decision margins were measured elsewhere and no accuracy figure is quoted.';
const NOTE_IN_CAMPAIGN = 'A control campaign is under way in this region; no accuracy figure is quoted until it has run.';
const NOTE_DEMO =
  'The figures come from a campaign on the synthetic demo world, not on real controls: they show the method, not the accuracy on this ground.';
const NOTE_FROM_CENTROID = 'The region was chosen from the plot centroid because no country was given.';

function stateNote(region: CalibrationRegion): string {
  if (region.campaign_archive === 'demo') return `${NOTE_READS} ${NOTE_DEMO}`;
  if (region.state === 'validated') {
    return `Control campaign of ${region.measured_on}: ${region.controls} control blocks assessed; ${region.forest_cleared} forest blocks reached a positive finding; ${region.established_crop_filable} established pre-cutoff crop blocks reached a filable finding.`;
  }
  return region.state === 'in_campaign' ? NOTE_IN_CAMPAIGN : NOTE_READS;
}

function regionBlock(region: CalibrationRegion, chosenByCentroid: boolean): CalibrationBlock {
  const note = stateNote(region);
  return {
    region: region.region,
    countries: [...region.countries],
    state: region.state,
    commodities: [...region.commodities],
    controls: region.controls,
    forest_cleared: region.forest_cleared,
    ...(region.forest_cleared_rerun === null ? {} : { forest_cleared_rerun: region.forest_cleared_rerun }),
    established_crop_filable: region.established_crop_filable,
    measured_on: region.measured_on,
    reference_map: region.reference_map,
    note: chosenByCentroid ? `${note} ${NOTE_FROM_CENTROID}` : note,
  };
}

function unplacedBlock(note: string): CalibrationBlock {
  return {
    region: null,
    countries: [],
    state: 'reads',
    commodities: [],
    controls: null,
    forest_cleared: null,
    established_crop_filable: null,
    measured_on: null,
    reference_map: null,
    note,
  };
}

function normaliseCountry(code: string): string {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper) || !isoCountries.isValid(upper)) {
    throw new CalibrationError('country_code_invalid', `'${code}' is not an ISO 3166-1 alpha-2 country code`);
  }
  return upper;
}

function contains(region: CalibrationRegion, lon: number, lat: number): boolean {
  return region.bboxes.some(([west, south, east, north]) => lon >= west && lon <= east && lat >= south && lat <= north);
}

/**
 * The calibration block against a given table. The producer's country decides the region, then
 * the plot's own country; with neither, the centroid decides only when it lies in exactly one
 * region's boxes.
 */
export function calibrationBlockFrom(table: CalibrationTable, input: CalibrationInput): CalibrationBlock {
  const given = input.producerCountry ?? input.plotCountry ?? null;
  if (given !== null) {
    const country = normaliseCountry(given);
    const region = table.regions.find((candidate) => candidate.countries.includes(country));
    if (region !== undefined) return regionBlock(region, false);
    return unplacedBlock(
      `No calibration region holds ${country}: the decision margins were measured elsewhere and no accuracy figure is quoted.`,
    );
  }
  const centroid = input.centroid ?? null;
  if (centroid === null) {
    return unplacedBlock(
      'Neither a country nor a plot centroid was given, so no calibration region could be named. Set the producer\'s country to receive regional calibration.',
    );
  }
  const [lon, lat] = centroid;
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lon) > 180 || Math.abs(lat) > 90) {
    throw new CalibrationError('centroid_invalid', `centroid [${lon}, ${lat}] is not a longitude/latitude pair`);
  }
  const hits = table.regions.filter((region) => contains(region, lon, lat));
  if (hits.length === 1) return regionBlock(hits[0], true);
  if (hits.length === 0) {
    return unplacedBlock(
      'The plot centroid lies in no calibration region: the decision margins were measured elsewhere and no accuracy figure is quoted.',
    );
  }
  return unplacedBlock(
    `The plot centroid lies where calibration regions overlap along a frontier (${hits.map((region) => region.region).join(', ')}). Set the producer's country to receive regional calibration.`,
  );
}

/** The committed regions, with no campaign figures but those committed with them. */
export const CALIBRATION_DEFAULTS: CalibrationTable = parseCalibrationTable(regionsFile);

// --- campaign figures -------------------------------------------------------------------------

// One region's figures as a campaign wrote them; the rules they obey are checked on the merged table.
const figuresSchema = regionSchema.pick({
  id: true,
  state: true,
  controls: true,
  forest_cleared: true,
  forest_cleared_rerun: true,
  established_crop_filable: true,
  measured_on: true,
  campaign_archive: true,
});

const campaignSchema = z.object({
  version: z.string().min(1),
  regions: z.array(figuresSchema),
});

export type CampaignFile = z.infer<typeof campaignSchema>;

/** Where the campaign command writes its figures, and where the service reads them. */
export function campaignFilePath(dataDir: string): string {
  return join(dataDir, 'calibration', 'campaign.json');
}

/** Checks a raw campaign file and returns it typed; throws `calibration_table_invalid`. */
export function parseCampaignFile(raw: unknown): CampaignFile {
  const parsed = campaignSchema.safeParse(raw);
  if (!parsed.success) throw invalid(`campaign file: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * The regions with a campaign's figures written over them. Read for the public archive, figures
 * of a campaign on the demo world are left out: evidence on real archives never quotes them.
 */
export function mergeCampaign(regions: CalibrationTable, campaign: CampaignFile, archive: ArchiveKind): CalibrationTable {
  const figures = new Map(campaign.regions.filter((f) => archive === 'demo' || f.campaign_archive !== 'demo').map((f) => [f.id, f]));
  for (const id of figures.keys()) {
    if (!regions.regions.some((r) => r.id === id)) throw invalid(`the campaign file has figures for '${id}', which is not a calibration region`);
  }
  return parseCalibrationTable({ ...regions, regions: regions.regions.map((r) => ({ ...r, ...figures.get(r.id) })) });
}

/** The campaign file at `path`, checked; null when no campaign has written one. */
export async function readCampaignFile(path: string): Promise<CampaignFile | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid(`campaign file ${path} is not JSON`);
  }
  return parseCampaignFile(raw);
}

/**
 * The table a service serves from: the committed regions, with the figures of the campaign file
 * under `dataDir` when one has been written, as `mergeCampaign` reads them for `archive`.
 */
export async function loadCalibrationTable(options: { dataDir: string; archive: ArchiveKind }): Promise<CalibrationTable> {
  const campaign = await readCampaignFile(campaignFilePath(options.dataDir));
  return campaign === null ? CALIBRATION_DEFAULTS : mergeCampaign(CALIBRATION_DEFAULTS, campaign, options.archive);
}
