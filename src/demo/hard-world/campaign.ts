// The control campaign on the hard world: every site's block read by the engine as a plot is,
// and the rates per cover type with their exact 95% intervals. Labelled demo: a synthetic world
// never validates a region, and nothing is written into the calibration.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { readControlsWithEngine } from '../../engine/context/campaign-command.ts';
import { type CoverTally, parseControls, tallyCovers } from '../../engine/context/campaign.ts';
import { openDemoArchive } from '../open-archive.ts';
import { WORLD_MANIFEST, type WorldManifest } from '../world.ts';
import { HARD_COVER_TYPES, HARD_COVERS, type HardCover } from './covers.ts';
import { controlsPath, ensureHardWorld, type HardWorld } from './world.ts';

export interface HardCampaign {
  seed: string;
  sites: number;
  blocks: number;
  covers: CoverTally[];
  /** Mixed blocks (a plantation drawn loosely into forest): their modelled forest share, least and most. */
  mixedForestShare: [number, number] | null;
  seconds: number;
  sky: string;
  /** Share of the sites' Sentinel-2 scenes written to the same item as another site's (same tile and date): only one site's ground survives in it. */
  sharedScenes: number;
}

/** Scenes of one site whose item id (tile and date) another site also wrote. */
function sharedSceneShare(manifest: WorldManifest): number {
  const sites = new Map<string, Set<string>>();
  for (const r of manifest.sentinel2) sites.set(r.id, (sites.get(r.id) ?? new Set()).add(r.site));
  const shared = manifest.sentinel2.filter((r) => sites.get(r.id)!.size > 1).length;
  return manifest.sentinel2.length === 0 ? 0 : shared / manifest.sentinel2.length;
}

export async function runHardCampaign(config: Config, w: HardWorld): Promise<HardCampaign> {
  const started = Date.now();
  await ensureHardWorld(w);
  const raw = JSON.parse(await readFile(controlsPath(w), 'utf8')) as { features: Array<{ properties: { block: string; forest_share: number } }> };
  const blocks = parseControls(raw);
  const outcomes = await readControlsWithEngine(config, blocks, () => openDemoArchive({ dataDir: config.dataDir, root: w.root }));
  const order = (c: string) => HARD_COVER_TYPES.indexOf(c as HardCover);
  const mixed = raw.features.filter((f) => f.properties.block === 'mixed').map((f) => f.properties.forest_share);
  return {
    seed: w.seed,
    sites: w.sites,
    blocks: blocks.length,
    covers: tallyCovers(outcomes).sort((a, b) => order(a.cover) - order(b.cover)),
    mixedForestShare: mixed.length === 0 ? null : [Math.min(...mixed), Math.max(...mixed)],
    seconds: Math.round((Date.now() - started) / 1000),
    sky: w.sky,
    sharedScenes: sharedSceneShare(JSON.parse(await readFile(join(w.root, WORLD_MANIFEST), 'utf8')) as WorldManifest),
  };
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
const rate = (k: number, n: number, interval: [number, number] | null) => (interval === null ? '– | – | –' : `${k}/${n} | ${pct(k / n)} | ${pct(interval[0])}–${pct(interval[1])}`);

/** The campaign as a Markdown section: what ran, and one row per cover type. */
export function hardCampaignTable(c: HardCampaign, command: string): string {
  const reasons = (t: CoverTally) => t.reasons.map((r) => `${r.reason} ${r.blocks}`).join(', ');
  const rows = c.covers.map((t) => `| ${t.cover} | ${HARD_COVERS[t.cover as HardCover]?.truth ?? '?'} | ${rate(t.forest.positive, t.forest.read, t.forest.interval)} | ${rate(t.crop.filable, t.crop.read, t.crop.interval)} | ${t.failed} | ${reasons(t)} |`);
  const mixed = c.mixedForestShare === null ? '' : ` Mixed blocks (plantation_edge, counted as forest) hold ${pct(c.mixedForestShare[0])} to ${pct(c.mixedForestShare[1])} forest at the cutoff by the modelled truth.`;
  return [
    '## Campaign on the hard world (synthetic demo, never a validation of any region)',
    '',
    `Command: \`${command}\` (seed \`${c.seed}\`, ${c.sites} sites, ${c.blocks} blocks, ${c.sky === 'clear' ? 'clear sky (the storied demo sites\' cloud cover, a control)' : 'the regions\' cloud regimes'}, ${c.seconds} s including generation).`,
    'Forest cleared: blocks that were forest at the end of 2020 reaching a positive finding. Filable: established-crop blocks reaching one.',
    `Intervals are exact (Clopper–Pearson) 95% intervals.${mixed}`,
    `${pct(c.sharedScenes)} of the sites' Sentinel-2 scenes share their item (tile and date) with another site's, and only one site's ground survives in a shared item: those scenes are lost to the other sites' records.`,
    '',
    '| cover type | truth | forest cleared | rate | 95% CI | crop filable | rate | 95% CI | not read | first reasons (blocks) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
