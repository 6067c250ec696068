// The demo archive on disk: generated on first start under `<dataDir>/archive/`, regenerated
// only when missing or made by another generator version, and swapped in whole so a reader
// never sees half a world. Also the site list the `demo sites` command prints.
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RouteHandler } from '../../test/support/archive-server.ts';
import { gfwDataApiRoutes } from './gfw-routes.ts';
import { overpassRoutes } from './overpass-routes.ts';
import { plotBook, plotRef } from './plot-book.ts';
import { DEMO_SEED, DEMO_WORLD_VERSION, WORLD_MANIFEST, type WorldManifest, generateDemoWorld, siteModels } from './world.ts';
import type { DemoSiteSummary } from './sites.ts';

export class DemoArchiveError extends Error {
  readonly code: 'archive_not_demo' | 'generation_locked';
  constructor(code: DemoArchiveError['code'], message: string) {
    super(message);
    this.name = 'DemoArchiveError';
    this.code = code;
  }
}

const LOCK_WAIT_MS = 10 * 60_000;
const LOCK_POLL_MS = 250;

export function demoArchiveDir(dataDir: string): string {
  return join(dataDir, 'archive');
}

export function demoPlotBookPath(dataDir: string): string {
  return join(dataDir, 'demo', 'plots.geojson');
}

async function currentVersion(archive: string): Promise<string | null> {
  try {
    const m = JSON.parse(await readFile(join(archive, WORLD_MANIFEST), 'utf8')) as WorldManifest;
    return m.seed === DEMO_SEED ? m.version : `${m.version} (other seed)`;
  } catch {
    return null;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure `<dataDir>/archive` holds the current demo world and `<dataDir>/demo/plots.geojson`
 * its plot book. Idempotent; several processes starting at once generate it once (a lock file
 * makes the others wait). A non-empty archive folder that is not a demo world is never touched.
 */
export async function ensureDemoArchive(dataDir: string): Promise<{ generated: boolean; version: string }> {
  const archive = demoArchiveDir(dataDir);
  const bookPath = demoPlotBookPath(dataDir);
  if ((await currentVersion(archive)) === DEMO_WORLD_VERSION && (await exists(bookPath))) return { generated: false, version: DEMO_WORLD_VERSION };
  await mkdir(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'archive.generating');
  let lock: Awaited<ReturnType<typeof open>> | null = null;
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (lock === null) {
    try {
      lock = await open(lockPath, 'wx');
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
      if (Date.now() > deadline) throw new DemoArchiveError('generation_locked', `${lockPath} has been held for ${LOCK_WAIT_MS / 60_000} minutes; remove it if no process is generating the demo archive`);
      await sleep(LOCK_POLL_MS);
      if ((await currentVersion(archive)) === DEMO_WORLD_VERSION && (await exists(bookPath))) return { generated: false, version: DEMO_WORLD_VERSION };
    }
  }
  try {
    const found = await currentVersion(archive);
    if (found === DEMO_WORLD_VERSION && (await exists(bookPath))) return { generated: false, version: DEMO_WORLD_VERSION };
    if (found === null && (await exists(archive))) {
      if ((await readdir(archive)).length > 0) {
        throw new DemoArchiveError('archive_not_demo', `${archive} holds files but no ${WORLD_MANIFEST}; it is not a demo archive and is left alone`);
      }
    }
    const staging = `${archive}.staging-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await generateDemoWorld(staging);
    const old = `${archive}.old-${process.pid}`;
    if (await exists(archive)) await rename(archive, old);
    await rename(staging, archive);
    await rm(old, { recursive: true, force: true });
    await mkdir(join(dataDir, 'demo'), { recursive: true });
    await writeFile(`${bookPath}.tmp`, `${JSON.stringify(plotBook(siteModels(DEMO_SEED)), null, 1)}\n`);
    await rename(`${bookPath}.tmp`, bookPath);
    return { generated: true, version: DEMO_WORLD_VERSION };
  } finally {
    await lock.close();
    await rm(lockPath, { force: true });
  }
}

/** Every demo site with its bounds, plot, and the verdict and reason its truth implies. */
export function demoSites(): DemoSiteSummary[] {
  return siteModels(DEMO_SEED).map((m, i) => {
    const lons = m.lonLatRing.map((p) => p[0]);
    const lats = m.lonLatRing.map((p) => p[1]);
    // The bounds reach a little past the plot: the ground its instruments read around it.
    const pad = 0.005;
    const [w, s, e, n] = [Math.min(...lons) - pad, Math.min(...lats) - pad, Math.max(...lons) + pad, Math.max(...lats) + pad].map((v) => Math.round(v * 1e6) / 1e6);
    return {
      name: m.spec.name,
      title: m.spec.title,
      country: m.spec.country,
      commodity: m.spec.commodity,
      bounds: { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] },
      plot_ref: plotRef(m, i),
      verdict: m.spec.truth.verdict,
      reason: m.spec.truth.reason,
      reasons: m.spec.truth.reasons,
      variants: m.spec.truth.variants ?? [],
      intended: m.spec.intended,
      story: m.spec.story,
    };
  });
}

/**
 * The route handlers that make the local archive server answer the demo world's API-shaped
 * sources (GFW Data API, Overpass) from `<dataDir>/archive`. File-only archives cannot answer
 * queries, so a demo deployment serves its archive through the local server with these.
 */
export function demoRoutes(dataDir: string, opts: { gfwApiKeys?: string[] } = {}): RouteHandler[] {
  const root = demoArchiveDir(dataDir);
  return [gfwDataApiRoutes({ root, apiKeys: opts.gfwApiKeys }), overpassRoutes({ root })];
}
