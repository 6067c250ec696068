// The hard world's commands: `demo generate --world hard`, `demo truth FILE` and `campaign hard`.
import { readFile, writeFile } from 'node:fs/promises';
import type { Config } from '../../config.ts';
import { hardCampaignTable, runHardCampaign } from './campaign.ts';
import { type Area, truthShares } from './truth.ts';
import type { HardMix } from './covers.ts';
import type { HardSky } from './sites.ts';
import { ensureHardWorld, hardWorld, type TruthFeature, truthPath } from './world.ts';

export interface HardWorldFlags {
  seed: number;
  sites: number;
  sky: HardSky;
  mix: HardMix;
}

export async function hardDemoCommand(dataDir: string, words: string[], flags: HardWorldFlags): Promise<string[]> {
  const w = hardWorld(dataDir, flags.seed, flags.sites, flags.sky, flags.mix);
  if (words[0] === 'generate') {
    const generated = await ensureHardWorld(w);
    return [`${generated ? 'generated' : 'already in place:'} the synthetic hard world of seed ${flags.seed}, ${w.sites} sites of the ${w.mix} mix, ${w.sky} sky, under ${w.dir}`];
  }
  if (words.length !== 2) throw new Error('usage: npm run --silent demo -- truth FILE.geojson --seed N');
  const truth = await readFile(truthPath(w), 'utf8').then(
    (t) => (JSON.parse(t) as { features: TruthFeature[] }).features,
    () => {
      throw new Error(`no hard world of seed ${flags.seed} under ${w.dir}: run \`npm run demo -- generate --world hard --seed ${flags.seed}\` first`);
    },
  );
  const file = JSON.parse(await readFile(words[1], 'utf8')) as { features?: Array<{ id?: string | number; properties?: { ref?: string } | null; geometry?: { type: string } | null }> };
  if (!Array.isArray(file.features)) throw new Error(`${words[1]}: not a GeoJSON FeatureCollection`);
  return file.features.map((f, k) => {
    const ref = f.properties?.ref ?? (f.id === undefined ? `feature ${k + 1}` : String(f.id));
    const g = f.geometry;
    if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) return `${ref}: not an area (${g?.type ?? 'no geometry'}), no shares`;
    const shares = truthShares(truth, g as Area);
    if (shares === null) return `${ref}: smaller than one 5 m sample, no shares`;
    return `${ref}: ${Object.entries(shares).map(([c, v]) => `${c} ${v.toFixed(3)}`).join(', ')}`;
  });
}

export async function hardCampaignCommand(config: Config, opts: HardWorldFlags & { out?: string }): Promise<string[]> {
  const w = hardWorld(config.dataDir, opts.seed, opts.sites, opts.sky, opts.mix);
  const run = await runHardCampaign(config, w);
  const table = hardCampaignTable(run, `npm run campaign -- hard --seed ${opts.seed} --sites ${opts.sites}${opts.sky === 'clear' ? ' --sky clear' : ''}${opts.mix === 'all' ? '' : ` --mix ${opts.mix}`}`);
  if (opts.out !== undefined) await writeFile(opts.out, table);
  return [table, ...(opts.out !== undefined ? [`written to ${opts.out}`] : [])];
}
