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
import type { Decision, Verdict } from '../decide.ts';
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
  /** The block's cover type, when the file gives one: the campaign also counts per cover. */
  cover: string | null;
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
          cover: z.string().min(1).optional(),
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
      cover: f.properties.cover ?? null,
    };
  });
}

/** Reads one block as the engine reads a plot and answers its verdict and first reason; a failed read throws. */
export type ControlReader = (block: ControlBlock, signal?: AbortSignal) => Promise<Pick<Decision, 'verdict' | 'reason'>>;

/** A finding that clears the block: the only verdict a filing can rest on. */
export const POSITIVE: Verdict = 'prior_management_evidenced';

export interface RegionTally {
  region: string;
  /** Forest blocks reaching a positive finding, of forest blocks read. */
  forest: { positive: number; read: number };
  /** Established-crop blocks reaching a filable finding, of those read. */
  crop: { filable: number; read: number };
  failed: Array<{ ref: string; why: string }>;
}

/** A block's verdict, or why it could not be read. */
export type BlockOutcome = ({ block: ControlBlock } & Pick<Decision, 'verdict' | 'reason'>) | { block: ControlBlock; failed: string };

/** Reads every block, one after another. A failed read is kept with its reason. */
export async function readControls(blocks: readonly ControlBlock[], read: ControlReader, signal?: AbortSignal): Promise<BlockOutcome[]> {
  const outcomes: BlockOutcome[] = [];
  for (const block of blocks) {
    try {
      outcomes.push({ block, ...(await read(block, signal)) });
    } catch (err) {
      if (signal?.aborted) throw err;
      outcomes.push({ block, failed: err instanceof Error ? err.message : String(err) });
    }
  }
  return outcomes;
}

/** Counts outcomes per group: forest blocks reaching a positive finding, crop blocks a filable one; failed reads left out of the counts. */
function tally<K extends string>(outcomes: readonly BlockOutcome[], keyOf: (b: ControlBlock) => K): Map<K, Omit<RegionTally, 'region'>> {
  const tallies = new Map<K, Omit<RegionTally, 'region'>>();
  for (const o of outcomes) {
    const key = keyOf(o.block);
    let t = tallies.get(key);
    if (t === undefined) tallies.set(key, (t = { forest: { positive: 0, read: 0 }, crop: { filable: 0, read: 0 }, failed: [] }));
    if ('failed' in o) {
      t.failed.push({ ref: o.block.ref, why: o.failed });
    } else if (o.block.label === 'forest') {
      t.forest.read++;
      if (o.verdict === POSITIVE) t.forest.positive++;
    } else {
      t.crop.read++;
      if (o.verdict === POSITIVE) t.crop.filable++;
    }
  }
  return tallies;
}

/** Reads every block, one after another, and counts per region. A failed read is reported and left out of the counts. */
export async function runCampaign(blocks: readonly ControlBlock[], read: ControlReader, signal?: AbortSignal): Promise<RegionTally[]> {
  return [...tally(await readControls(blocks, read, signal), (b) => b.region)].map(([region, t]) => ({ region, ...t }));
}

/** A proportion with its 95% Clopper–Pearson interval (null when nothing was counted). */
const withInterval = (k: number, n: number) => (n === 0 ? null : clopperPearson(k, n));

export interface CoverTally {
  cover: string;
  /**
   * Forest at the cutoff reaching a positive finding, with its 95% Clopper–Pearson interval, over
   * every block read and over the blocks judged (the record read well enough for the rules to
   * decide: any verdict but `insufficient_record`); `weak` counts those that ended
   * `prior_management_weak`, the finding withheld.
   */
  forest: { positive: number; read: number; interval: [number, number] | null; judged: number; judgedInterval: [number, number] | null; weak: number };
  /** Established crop reaching a filable finding, with its interval, over the blocks read and those judged. */
  crop: { filable: number; read: number; interval: [number, number] | null; judged: number; judgedInterval: [number, number] | null };
  failed: number;
  /** The first reasons of the cover's blocks read, most frequent first. */
  reasons: Array<{ reason: string; blocks: number }>;
}

/** Counts per cover type (blocks without one under `unlabelled`), in the order covers first appear. */
export function tallyCovers(outcomes: readonly BlockOutcome[]): CoverTally[] {
  const coverOf = (b: ControlBlock) => b.cover ?? 'unlabelled';
  return [...tally(outcomes, coverOf)].map(([cover, t]) => {
    const read = outcomes.filter((o): o is Exclude<BlockOutcome, { failed: string }> => coverOf(o.block) === cover && !('failed' in o));
    const judged = (label: ControlLabel) => read.filter((o) => o.block.label === label && o.verdict !== 'insufficient_record').length;
    const [forestJudged, cropJudged] = [judged('forest'), judged('established_crop')];
    return {
      cover,
      forest: {
        ...t.forest,
        interval: withInterval(t.forest.positive, t.forest.read),
        judged: forestJudged,
        judgedInterval: withInterval(t.forest.positive, forestJudged),
        weak: read.filter((o) => o.block.label === 'forest' && o.verdict === 'prior_management_weak').length,
      },
      crop: { ...t.crop, interval: withInterval(t.crop.filable, t.crop.read), judged: cropJudged, judgedInterval: withInterval(t.crop.filable, cropJudged) },
      failed: t.failed.length,
      reasons: reasonsOf(outcomes.filter((o) => coverOf(o.block) === cover)),
    };
  });
}

function reasonsOf(outcomes: readonly BlockOutcome[]): CoverTally['reasons'] {
  const counts = new Map<string, number>();
  for (const o of outcomes) if (!('failed' in o)) counts.set(o.reason, (counts.get(o.reason) ?? 0) + 1);
  return [...counts].map(([reason, blocks]) => ({ reason, blocks })).sort((a, b) => b.blocks - a.blocks || (a.reason < b.reason ? -1 : 1));
}

/** P(X ≤ k) for X ~ Binomial(n, p), summed in log space so large n stays exact enough. */
function binomialCdf(k: number, n: number, p: number): number {
  if (p <= 0) return 1;
  if (p >= 1) return k >= n ? 1 : 0;
  let logTerm = n * Math.log1p(-p);
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i) + Math.log(p) - Math.log1p(-p);
    sum += Math.exp(logTerm);
  }
  return Math.min(1, sum);
}

/**
 * The exact (Clopper–Pearson) two-sided interval of a binomial proportion `k` of `n`: the p at which
 * seeing `k` or more (lower) or `k` or fewer (upper) has probability (1 − confidence)/2. Found by
 * bisection on the binomial distribution, which is monotone in p.
 */
export function clopperPearson(k: number, n: number, confidence = 0.95): [number, number] {
  if (!Number.isInteger(k) || !Number.isInteger(n) || n < 1 || k < 0 || k > n) throw new RangeError(`clopperPearson needs 0 ≤ k ≤ n, n ≥ 1 (got ${k}/${n})`);
  const tail = (1 - confidence) / 2;
  // The p at which a binomial distribution function, falling as p grows, crosses `target`.
  const solve = (f: (p: number) => number, target: number) => {
    let [lo, hi] = [0, 1];
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (f(mid) > target) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  const lower = k === 0 ? 0 : solve((p) => binomialCdf(k - 1, n, p), 1 - tail);
  const upper = k === n ? 1 : solve((p) => binomialCdf(k, n, p), tail);
  return [lower, upper];
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
