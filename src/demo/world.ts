// Generates the demo world into a folder laid out as the real hosts (see archive-url.ts).
// Optical scenes are written by worker threads, a share of the sites each, while the main thread
// writes every product whose tiles several sites may share.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { alertTables, GFW_TABLES_DIR, OVERPASS_DATA_PATH, protectedAreas, woodFibreTable } from './api-data.ts';
import { manifestListings, manifestPath, writeBuildings, type ManifestOut } from './buildings.ts';
import { oilPalmGrid, writeCanopyHeight, writeDem, writeEuForestMaps, writeHansen, writeOilPalm, writePalsar, writePalsarItems, writeRubberMap, writeTmf } from './maps.ts';
import { opticalTiles, type S2SceneRecord, writeJson } from './optical.ts';
import type { OpticalJob, OpticalResult } from './optical-worker.ts';
import { RasterFiles } from './raster-files.ts';
import { buildSiteModel, type SiteModel } from './site-model.ts';
import { DEMO_SITES, type DemoSiteSpec } from './sites.ts';
import { hardSiteModels } from './hard-world/sites.ts';
import { bookModels } from './book-world/ground.ts';

/** Bump when anything the generator writes changes: a different version regenerates the archive. */
export const DEMO_WORLD_VERSION = '1.7.0';
export const DEMO_SEED = 'precutoff-evidence demo world';
export const WORLD_MANIFEST = 'DEMO_WORLD.json';

export interface WorldManifest {
  synthetic: true;
  note: string;
  version: string;
  seed: string;
  sites: string[];
  /** Present on the hard and book worlds: their sites are drawn, not told as stories. */
  world?: Exclude<WorldKind, 'demo'>;
  sentinel2: S2SceneRecord[];
  landsatScenes: number;
}

/**
 * The storied demo world, the hard world of many small sites drawn from cover types (under its
 * regions' skies, or clear ones), or the book world of one cooperative's adjacent plots.
 */
export type WorldKind = 'demo' | 'hard' | 'hard-clear-sky' | 'book';

export interface GenerateOptions {
  world?: WorldKind;
  seed?: string;
  /** Only these sites (by name); all by default (the hard world has no default). */
  sites?: string[];
  /** Threads writing optical scenes (default: the machine's parallelism, at most one per site). */
  threads?: number;
}

function runOptical(job: OpticalJob): Promise<OpticalResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./optical-worker.ts', import.meta.url), { workerData: job });
    let result: OpticalResult | null = null;
    w.once('message', (r: OpticalResult) => (result = r));
    w.once('error', reject);
    w.once('exit', (code) => (result !== null ? resolve(result) : reject(new Error(`demo optical worker exited with code ${code}`))));
  });
}

/** Sites in groups that share an MGRS tile or a WRS-2 scene, directly or through another site. */
function opticalGroups(models: SiteModel[]): string[][] {
  const tilesOf = new Map(models.map((m) => [m.spec.name, opticalTiles(m)]));
  const groupOf = new Map<string, Set<string>>();
  for (const m of models) {
    const merged = new Set([m.spec.name]);
    for (const t of tilesOf.get(m.spec.name)!) for (const n of groupOf.get(t) ?? []) merged.add(n);
    for (const n of merged) for (const t of tilesOf.get(n)!) groupOf.set(t, merged);
  }
  return [...new Set(groupOf.values())].map((g) => models.map((m) => m.spec.name).filter((n) => g.has(n)));
}

export function siteModels(seed: string, names?: string[]): Array<SiteModel<DemoSiteSpec>> {
  const specs: readonly DemoSiteSpec[] = names ? DEMO_SITES.filter((s) => names.includes(s.name)) : DEMO_SITES;
  if (names && specs.length !== names.length) throw new Error(`unknown demo sites among ${names.join(', ')}`);
  return specs.map((s) => buildSiteModel(s, seed));
}

/** The models of a world's sites by name (a thread writing optical scenes rebuilds its own so). */
export function worldModels(world: WorldKind, seed: string, names?: string[]): SiteModel[] {
  if (world === 'demo') return siteModels(seed, names);
  if (names === undefined) throw new Error(`the ${world} world is generated for named sites`);
  if (world === 'book') return bookModels(seed, names);
  return hardSiteModels(seed, names, world === 'hard-clear-sky' ? 'clear' : 'regional');
}

/** Writes the whole demo world under `root` (the archive folder); returns its manifest. */
export async function generateDemoWorld(root: string, opts: GenerateOptions = {}): Promise<WorldManifest> {
  const world = opts.world ?? 'demo';
  const seed = opts.seed ?? DEMO_SEED;
  const models = worldModels(world, seed, opts.sites);
  const groups = opticalGroups(models);
  const threads = Math.max(1, Math.min(opts.threads ?? availableParallelism(), groups.length));
  const shares: string[][][] = Array.from({ length: threads }, () => []);
  // Largest groups first, each to the thread with the fewest sites so far.
  for (const g of [...groups].sort((a, b) => b.length - a.length)) {
    shares.reduce((least, s) => (s.flat().length < least.flat().length ? s : least)).push(g);
  }
  const optical = Promise.all(shares.map((share) => runOptical({ world, seed, root, groups: share })));
  // Keep a rejected worker from going unhandled while this thread works.
  optical.catch(() => {});
  const files = new RasterFiles();
  const manifests: ManifestOut[] = [];
  for (const m of models) {
    writePalsar(m, seed, files);
    writeCanopyHeight(m, seed, files);
    writeDem(m, seed, files);
    writeTmf(m, files);
    writeEuForestMaps(m, files);
    writeHansen(m, seed, files);
    writeOilPalm(m, files);
    writeRubberMap(m, files);
    manifests.push(...writeBuildings(m, seed, files));
  }
  writePalsarItems(models, root);
  files.writeAll(root);
  const results = await optical;
  // A site's twin of a scene (same date) keeps its place after the scene: the sort is stable.
  const sentinel2: S2SceneRecord[] = results.flatMap((r) => r.sentinel2).sort((a, b) => (a.site < b.site ? -1 : a.site > b.site ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let landsatScenes = 0;
  for (const r of results) landsatScenes += r.landsatScenes;
  for (const mf of manifests) writeJson(root, manifestPath(mf), mf.doc);
  for (const l of manifestListings(manifests)) writeJson(root, l.path, l.doc);
  const grid = oilPalmGrid(models);
  writeJson(root, grid.path, grid.doc);
  for (const t of [...alertTables(models, seed), woodFibreTable(models)]) writeJson(root, `${GFW_TABLES_DIR}/${t.dataset}.json`, t);
  writeJson(root, OVERPASS_DATA_PATH, protectedAreas(models));
  const manifest: WorldManifest = {
    synthetic: true,
    note: 'Synthetic demo world generated by this service. Places are real; every value is generated, none observed.',
    version: DEMO_WORLD_VERSION,
    seed,
    sites: models.map((m) => m.spec.name),
    ...(world !== 'demo' ? { world } : {}),
    sentinel2,
    landsatScenes,
  };
  writeJson(root, WORLD_MANIFEST, manifest);
  return manifest;
}
