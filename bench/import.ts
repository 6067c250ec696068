// `npm run bench -- import`: the largest uploads an import takes, imported through importPlots()
// into the register (the file judged on an intake pool thread, as the API does): 100,000 point plots (GeoJSON, 19 MB) and 20,000 polygon plots of 50 vertices
// (GeoJSON, 24 MB), each into PostgreSQL and into PGlite (on disk, as the service keeps it). Each
// run is a fresh child process holding only that import; `peak_rss_mb` is its RSS high-water
// while the import runs (PGlite runs inside the child and is counted, the PostgreSQL server is
// not). The reference, in its own child in the same run, is validatePlotFile() on the same bytes:
// the same parse and validation with nothing written, so `ratio_to_validate` is what the write
// costs on top. The import child then imports the same file again (every plot unchanged).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPlots, validatePlotFile } from '../src/intake/import-plots.ts';
import { createIntakePool } from '../src/intake/pool.ts';
import { DEFAULT_CAPS } from '../src/intake/limits.ts';
import { createProducer } from '../src/intake/producer-register.ts';
import { openStore, type Backend } from '../src/store/orm.ts';
import { scratchDatabase } from '../test/support/db.ts';
import { PRODUCERS, pointPlotsGeoJson, polygonPlotsGeoJson } from './fixtures.ts';

const FILES = [
  { name: 'points', file: 'points.geojson', make: () => pointPlotsGeoJson(100_000) },
  { name: 'polygons', file: 'polygons.geojson', make: () => polygonPlotsGeoJson(20_000, 50) },
];
const BACKEND_RUNS: Backend[] = ['postgresql', 'pglite'];

interface ChildFigures {
  plots: number;
  /** The measured step: validatePlotFile() in the reference child, importPlots() in the import child. */
  ms: number;
  /** RSS before the step, the database open. */
  base_rss_mb: number;
  /** RSS high-water during the step. */
  peak_rss_mb: number;
  /** The process's own max RSS, start-up included (PGlite peaks at about 1.1 GB while it starts). */
  process_max_rss_mb: number;
  created?: number;
  reimport_ms?: number;
  reimport_peak_rss_mb?: number;
  skipped_on_reimport?: number;
}

const mb = (bytes: number) => +(bytes / (1024 * 1024)).toFixed(1);
const maxRssMb = () => mb(process.resourceUsage().maxRSS * 1024);

/**
 * RSS high-water over a window, sampled every 5 ms. The process's max RSS cannot be reset, and
 * PGlite's start-up peak would hide the import's; sampling can miss a spike inside a long
 * synchronous stretch, but freed heap stays resident well past the next sample.
 */
async function rssOver<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const t = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - t;
    return { result, ms, peakMb: mb(Math.max(peak, process.memoryUsage.rss())) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Runs inside a child, on a fresh database of one backend (PGlite on disk, as the service keeps it):
 * either the reference (validate) or an import followed by the same import again.
 */
async function child(mode: 'validate' | 'import', backend: Backend, path: string, databaseUrl: string): Promise<void> {
  const pgliteDir = mkdtempSync(join(os.tmpdir(), 'import-bench-db-'));
  const store = await openStore({ databaseUrl: backend === 'postgresql' ? databaseUrl : null, pgliteDir });
  const intake = createIntakePool(1, 16, DEFAULT_CAPS);
  try {
    await store.migrate();
    const workspaceId = crypto.randomUUID();
    for (const p of PRODUCERS) await createProducer(store.em(), workspaceId, { name: p.name });
    const input = { workspaceId, bytes: readFileSync(path), filename: path, country: 'GH' };
    const base = mb(process.memoryUsage.rss());
    if (mode === 'validate') {
      const v = await rssOver(() => validatePlotFile(store.em(), intake.judge, input));
      const out: ChildFigures = { plots: v.result.plots.length, ms: v.ms, base_rss_mb: base, peak_rss_mb: v.peakMb, process_max_rss_mb: maxRssMb() };
      console.log(JSON.stringify(out));
      return;
    }
    const first = await rssOver(() => importPlots(store.em(), intake.judge, input));
    const second = await rssOver(() => importPlots(store.em(), intake.judge, input));
    const out: ChildFigures = {
      plots: first.result.plots.length,
      ms: first.ms,
      base_rss_mb: base,
      peak_rss_mb: first.peakMb,
      process_max_rss_mb: maxRssMb(),
      created: first.result.imported.created,
      reimport_ms: second.ms,
      reimport_peak_rss_mb: second.peakMb,
      skipped_on_reimport: second.result.imported.skipped,
    };
    console.log(JSON.stringify(out));
  } finally {
    await intake.close();
    await store.close();
    rmSync(pgliteDir, { recursive: true, force: true });
  }
}

async function inChild(mode: 'validate' | 'import', backend: Backend, path: string): Promise<ChildFigures> {
  const db = backend === 'postgresql' ? await scratchDatabase() : null;
  try {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, backend, path, db?.url ?? ''], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (run.status !== 0) throw new Error(`child ${mode} ${backend} ${path} failed: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
  } finally {
    await db?.drop();
  }
}

export default async function importBench(): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), 'import-bench-'));
  try {
    const figures: Record<string, unknown> = {};
    for (const { name, file, make } of FILES) {
      const path = join(dir, file);
      const bytes = make();
      writeFileSync(path, bytes);
      for (const backend of BACKEND_RUNS) {
        const reference = await inChild('validate', backend, path);
        const f = await inChild('import', backend, path);
        if (f.created !== f.plots || f.skipped_on_reimport !== f.plots) throw new Error(`${name} ${backend}: ${JSON.stringify(f)}`);
        const plotsPerS = f.plots / (f.ms / 1000);
        console.log(
          `${name} into ${backend}: ${mb(bytes.length)} MB, ${f.plots} plots; import ${(f.ms / 1000).toFixed(2)} s ` +
            `(${Math.round(plotsPerS)} plots/s), RSS ${f.base_rss_mb} MB before, peak ${f.peak_rss_mb} MB (process max ${f.process_max_rss_mb} MB); validate alone ${(reference.ms / 1000).toFixed(2)} s, ` +
            `peak RSS ${reference.peak_rss_mb} MB (import ${(f.ms / reference.ms).toFixed(1)}x); ` +
            `re-import unchanged ${(f.reimport_ms! / 1000).toFixed(2)} s, peak RSS ${f.reimport_peak_rss_mb} MB`,
        );
        figures[`${name}_${backend}`] = {
          file_mb: mb(bytes.length),
          plots: f.plots,
          import_ms: Math.round(f.ms),
          plots_per_s: Math.round(plotsPerS),
          base_rss_mb: f.base_rss_mb,
          peak_rss_mb: f.peak_rss_mb,
          process_max_rss_mb: f.process_max_rss_mb,
          validate_ms: Math.round(reference.ms),
          validate_peak_rss_mb: reference.peak_rss_mb,
          ratio_to_validate: +(f.ms / reference.ms).toFixed(2),
          reimport_unchanged_ms: Math.round(f.reimport_ms!),
          reimport_peak_rss_mb: f.reimport_peak_rss_mb,
          under_target: f.ms < 30_000 && f.peak_rss_mb < 1024,
        };
      }
    }
    console.log(
      JSON.stringify({
        bench: 'import',
        ...figures,
        cores: os.availableParallelism(),
        node: process.version,
        cpu: os.cpus()[0]?.model ?? 'unknown',
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] as 'validate' | 'import', process.argv[4] as Backend, process.argv[5], process.argv[6]);
