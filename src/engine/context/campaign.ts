// The control campaign (spec 2.8.1): labelled control blocks (forest, and crop established before
// the cutoff) read by the engine exactly as plots are, and the counts written into the calibration
// file for their region. The runner is the only writer of those figures. A campaign on the demo
// world is written as such (`campaign_archive: "demo"`) and leaves the region at `reads`; only a
// campaign on the public archives makes a region `validated`.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { MultiPolygon, Polygon } from 'geojson';
import { z } from 'zod';
import type { Verdict } from '../decide.ts';
import { parseCalibrationTable } from './calibration.ts';

export type CampaignErrorCode =
  | 'controls_invalid' // the controls file is not a collection of labelled control blocks
  | 'region_unknown' // a block names a region the calibration file does not hold
  | 'nothing_read' // no block of a region could be read, so nothing can be written
  | 'validated_region'; // a demo campaign would overwrite figures measured on real controls

export class CampaignError extends Error {
  readonly code: CampaignErrorCode;

  constructor(code: CampaignErrorCode, message: string) {
    super(message);
    this.name = 'CampaignError';
    this.code = code;
  }
}

/** The calibration file the service serves from. */
export const CALIBRATION_FILE = fileURLToPath(new URL('./calibration-regions.json', import.meta.url));

export type ControlLabel = 'forest' | 'established_crop';

export interface ControlBlock {
  ref: string;
  label: ControlLabel;
  /** A calibration region id (calibration-regions.json). */
  region: string;
  geometry: Polygon | MultiPolygon;
  /** Country of the block's ground (alpha-2), when the file gives one. */
  country: string | null;
}

const position = z.tuple([z.number(), z.number()]).rest(z.number());
const ring = z.array(position).min(4);
const geometry = z.union([
  z.object({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1) }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(ring).min(1)).min(1) }),
]);
const controlsSchema = z.object({
  type: z.literal('FeatureCollection'),
  /** The region of every block that does not name its own. */
  region: z.string().optional(),
  features: z
    .array(
      z.object({
        type: z.literal('Feature'),
        id: z.union([z.string(), z.number()]).optional(),
        properties: z.object({
          label: z.enum(['forest', 'established_crop']),
          region: z.string().optional(),
          ref: z.string().optional(),
          country: z.string().regex(/^[A-Za-z]{2}$/).optional(),
        }),
        geometry,
      }),
    )
    .min(1),
});

/** Checks a controls file (GeoJSON) and returns its blocks. */
export function parseControls(raw: unknown): ControlBlock[] {
  const parsed = controlsSchema.safeParse(raw);
  if (!parsed.success) throw new CampaignError('controls_invalid', `controls file: ${z.prettifyError(parsed.error)}`);
  return parsed.data.features.map((f, k) => {
    const region = f.properties.region ?? parsed.data.region;
    if (region === undefined) throw new CampaignError('controls_invalid', `controls file: feature ${k} names no region, and the collection gives none`);
    return {
      ref: f.properties.ref ?? (f.id === undefined ? `control-${k + 1}` : String(f.id)),
      label: f.properties.label,
      region,
      geometry: f.geometry as Polygon | MultiPolygon,
      country: f.properties.country?.toUpperCase() ?? null,
    };
  });
}

/** Reads one block as the engine reads a plot and answers its verdict; a failed read throws. */
export type ControlReader = (block: ControlBlock, signal?: AbortSignal) => Promise<Verdict>;

/** A finding that clears the block: the only verdict a filing can rest on. */
const POSITIVE: Verdict = 'prior_management_evidenced';

export interface RegionTally {
  region: string;
  /** Forest blocks reaching a positive finding, of forest blocks read. */
  forest: { positive: number; read: number };
  /** Established-crop blocks reaching a filable finding, of those read. */
  crop: { filable: number; read: number };
  failed: Array<{ ref: string; why: string }>;
}

/** Reads every block, one after another, and counts per region. A failed read is reported and left out of the counts. */
export async function runCampaign(blocks: readonly ControlBlock[], read: ControlReader, signal?: AbortSignal): Promise<RegionTally[]> {
  const tallies = new Map<string, RegionTally>();
  for (const block of blocks) {
    let t = tallies.get(block.region);
    if (t === undefined) {
      t = { region: block.region, forest: { positive: 0, read: 0 }, crop: { filable: 0, read: 0 }, failed: [] };
      tallies.set(block.region, t);
    }
    let verdict: Verdict;
    try {
      verdict = await read(block, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      t.failed.push({ ref: block.ref, why: err instanceof Error ? err.message : String(err) });
      continue;
    }
    if (block.label === 'forest') {
      t.forest.read++;
      if (verdict === POSITIVE) t.forest.positive++;
    } else {
      t.crop.read++;
      if (verdict === POSITIVE) t.crop.filable++;
    }
  }
  return [...tallies.values()];
}

export interface CampaignWrite {
  /** Which archives the blocks were read from. */
  archive: 'demo' | 'public';
  /** The day the campaign ran (YYYY-MM-DD). */
  measuredOn: string;
}

/**
 * The calibration file with each tallied region's figures written in: counts only, as measured.
 * Every other region, and every other key of the file, is left as it was.
 */
export function applyCampaign(file: unknown, tallies: readonly RegionTally[], how: CampaignWrite): Record<string, unknown> {
  const table = parseCalibrationTable(file);
  const next = structuredClone(file) as { version: string; regions: Array<Record<string, unknown>> };
  for (const t of tallies) {
    const k = table.regions.findIndex((r) => r.id === t.region);
    if (k < 0) throw new CampaignError('region_unknown', `the calibration file holds no region '${t.region}' (it holds ${table.regions.map((r) => r.id).join(', ')})`);
    if (t.forest.read === 0 || t.crop.read === 0) {
      throw new CampaignError('nothing_read', `region '${t.region}': a campaign needs forest and established-crop blocks read (read ${t.forest.read} forest, ${t.crop.read} crop)`);
    }
    if (how.archive === 'demo' && table.regions[k].campaign_archive === 'public') {
      throw new CampaignError('validated_region', `region '${t.region}' carries figures measured on real controls; a demo campaign does not replace them`);
    }
    Object.assign(next.regions[k], {
      state: how.archive === 'public' ? 'validated' : 'reads',
      controls: t.forest.read + t.crop.read,
      forest_cleared: `${t.forest.positive}/${t.forest.read}`,
      // A rerun belongs to the campaign it re-read; a new campaign has none yet.
      forest_cleared_rerun: null,
      established_crop_filable: `${t.crop.filable}/${t.crop.read}`,
      measured_on: how.measuredOn,
      campaign_archive: how.archive,
    });
  }
  next.version = how.measuredOn;
  // The result must stand as a calibration file before it is written anywhere.
  parseCalibrationTable(next);
  return next;
}

/** Arrays of words (codes, names of commodities) stay on one line; arrays of sentences do not. */
const WORD_MAX = 16;
const plain = (v: unknown) => v === null || typeof v !== 'object';
const inline = (v: unknown): string => (Array.isArray(v) ? `[${v.map(inline).join(', ')}]` : JSON.stringify(v));

/** JSON as the calibration file is kept: two-space indents, arrays of numbers, boxes and codes on one line. */
export function formatTable(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const flat = value.every((v) => plain(v) || (Array.isArray(v) && v.every(plain)));
    if (flat && value.every((v) => typeof v !== 'string' || v.length <= WORD_MAX)) return inline(value);
    return `[\n${value.map((v) => `${inner}${formatTable(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatTable(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** Writes the campaign into a calibration file in place (through a temporary file, so a reader never sees half of it). */
export async function writeCampaign(path: string, tallies: readonly RegionTally[], how: CampaignWrite): Promise<void> {
  const next = applyCampaign(JSON.parse(await readFile(path, 'utf8')), tallies, how);
  const staging = `${path}.${process.pid}.tmp`;
  await writeFile(staging, `${formatTable(next)}\n`);
  await rename(staging, path);
}
