// The control campaign (spec 2.8.1): labelled control blocks (forest, and crop established before
// the cutoff) read by the engine exactly as plots are, and the counts written as their region's
// figures into the campaign file (calibration.ts reads it over the committed regions). The runner
// is the only writer of those figures. A campaign on the demo world is written as such
// (`campaign_archive: "demo"`) and leaves the region at `reads`; only a campaign on the public
// archives makes a region `validated`.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MultiPolygon, Polygon } from 'geojson';
import { z } from 'zod';
import type { Verdict } from '../decide.ts';
import { CALIBRATION_DEFAULTS, type CalibrationTable, type CampaignFile, mergeCampaign, readCampaignFile } from './calibration.ts';

export type CampaignErrorCode =
  | 'controls_invalid' // the controls file is not a collection of labelled control blocks
  | 'region_unknown' // a block names a region the calibration regions do not hold
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
 * The campaign file with each tallied region's figures written in: counts only, as measured.
 * Every other region's figures are kept as the file had them; `campaign` is the file so far
 * (null before the first campaign), `regions` the committed regions it is read over.
 */
export function applyCampaign(regions: CalibrationTable, campaign: CampaignFile | null, tallies: readonly RegionTally[], how: CampaignWrite): CampaignFile {
  const before = campaign ?? { version: how.measuredOn, regions: [] };
  const current = mergeCampaign(regions, before, 'demo');
  const written = new Map(before.regions.map((f) => [f.id, f]));
  for (const t of tallies) {
    const region = current.regions.find((r) => r.id === t.region);
    if (region === undefined) throw new CampaignError('region_unknown', `the calibration regions hold no region '${t.region}' (they hold ${current.regions.map((r) => r.id).join(', ')})`);
    if (t.forest.read === 0 || t.crop.read === 0) {
      throw new CampaignError('nothing_read', `region '${t.region}': a campaign needs forest and established-crop blocks read (read ${t.forest.read} forest, ${t.crop.read} crop)`);
    }
    if (how.archive === 'demo' && region.campaign_archive === 'public') {
      throw new CampaignError('validated_region', `region '${t.region}' carries figures measured on real controls; a demo campaign does not replace them`);
    }
    written.set(t.region, {
      id: t.region,
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
  // Regions in the committed order, so a file reads the same however its campaigns were run.
  const next: CampaignFile = { version: how.measuredOn, regions: regions.regions.flatMap((r) => written.get(r.id) ?? []) };
  // The result must stand over the regions before it is written anywhere.
  mergeCampaign(regions, next, 'demo');
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

/**
 * Writes the campaign into the campaign file at `path` (created with its folder on the first
 * campaign), through a temporary file so a reader never sees half of it. The committed regions
 * are never written.
 */
export async function writeCampaign(path: string, tallies: readonly RegionTally[], how: CampaignWrite): Promise<void> {
  const next = applyCampaign(CALIBRATION_DEFAULTS, await readCampaignFile(path), tallies, how);
  await mkdir(dirname(path), { recursive: true });
  const staging = `${path}.${process.pid}.tmp`;
  await writeFile(staging, `${formatTable(next)}\n`);
  await rename(staging, path);
}
