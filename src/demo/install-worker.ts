// The thread that installs the demo archive (see archive.ts): checks what is on disk, takes the
// lock, generates the world into a staging folder and swaps it in whole, so a reader never sees
// half a world, then writes the plot book. Posts an InstallOutcome and ends.
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { DemoArchiveError, type DemoArchiveState, demoArchiveDir, demoPlotBookPath, type InstallOutcome, type InstallTask } from './archive.ts';
import { underGenerationLock } from './generation-lock.ts';
import { plotBook } from './plot-book.ts';
import { DEMO_SEED, DEMO_WORLD_VERSION, WORLD_MANIFEST, type WorldManifest, generateDemoWorld, siteModels } from './world.ts';

const LOCK_WAIT_MS = 10 * 60_000;

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

async function install({ dataDir, sites }: InstallTask): Promise<DemoArchiveState> {
  const archive = demoArchiveDir(dataDir);
  const bookPath = demoPlotBookPath(dataDir);
  const ready = async (): Promise<DemoArchiveState | null> =>
    (await currentVersion(archive)) === DEMO_WORLD_VERSION && (await exists(bookPath)) ? { generated: false, version: DEMO_WORLD_VERSION } : null;
  const installed = await ready();
  if (installed !== null) return installed;
  await mkdir(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'archive.generating');
  return underGenerationLock(lockPath, {
    ready,
    waitMs: LOCK_WAIT_MS,
    timedOut: () => new DemoArchiveError('generation_locked', `${lockPath} has been held for ${LOCK_WAIT_MS / 60_000} minutes by a process that is still working; remove it if no process is generating the demo archive`),
    generate: async () => {
      if ((await currentVersion(archive)) === null && (await exists(archive)) && (await readdir(archive)).length > 0) {
        throw new DemoArchiveError('archive_not_demo', `${archive} holds files but no ${WORLD_MANIFEST}; it is not a demo archive and is left alone`);
      }
      const staging = `${archive}.staging-${process.pid}`;
      await rm(staging, { recursive: true, force: true });
      try {
        await generateDemoWorld(staging, sites ? { sites } : {});
      } catch (err) {
        // A half-written world is of no use and holds the space it filled.
        await rm(staging, { recursive: true, force: true });
        // The generator's own threads pass their errors on as messages only.
        if ((err as { code?: string }).code !== 'ENOSPC' && !/\bENOSPC\b/.test((err as Error).message)) throw err;
        throw new DemoArchiveError('disk_full', `the disk holding ${dataDir} ran out of space while the demo archive was being written; nothing was kept. Free space there or point DATA_DIR at a larger disk, then start again`);
      }
      const old = `${archive}.old-${process.pid}`;
      if (await exists(archive)) await rename(archive, old);
      await rename(staging, archive);
      await rm(old, { recursive: true, force: true });
      await mkdir(join(dataDir, 'demo'), { recursive: true });
      await writeFile(`${bookPath}.tmp`, `${JSON.stringify(plotBook(siteModels(DEMO_SEED).filter((m) => sites === null || sites.includes(m.spec.name))), null, 1)}\n`);
      await rename(`${bookPath}.tmp`, bookPath);
      return { generated: true, version: DEMO_WORLD_VERSION };
    },
  });
}

let outcome: InstallOutcome;
try {
  outcome = { state: await install(workerData as InstallTask) };
} catch (err) {
  const e = err as { code?: unknown; message?: string };
  outcome = { error: { code: typeof e.code === 'string' ? e.code : undefined, message: e.message ?? String(err) } };
}
parentPort!.postMessage(outcome);
