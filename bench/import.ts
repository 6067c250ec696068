// `npm run bench -- import`: the largest uploads an import takes, imported through importPlots()
// into the register: 100,000 point plots (GeoJSON) and 20,000 polygon plots of 50 vertices (GeoJSON,
// 24 MB), each into PostgreSQL and into PGlite. Each run is a fresh child process, so its peak
// memory (max RSS) is that of one import alone; PGlite (on disk, as the service keeps it) runs
// inside the child and is counted in it, the PostgreSQL server is not. The reference, in its own
// child in the same run, is validatePlotFile() on the same bytes (the same parse and validation,
// nothing written): `ratio_to_validate` is what the write costs on top. The import child then
// imports the same file again (every plot unchanged: the diff path).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPlots, validatePlotFile } from '../src/intake/import-plots.ts';
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
  peak_rss_mb: number;
  created?: number;
  reimport_ms?: number;
  reimport_peak_rss_mb?: number;
  skipped_on_reimport?: number;
}

const mb = (bytes: number) => +(bytes / (1024 * 1024)).toFixed(1);
const maxRssMb = () => mb(process.resourceUsage().maxRSS * 1024);

/**
 * Runs inside a child, on a fresh database of one backend (PGlite on disk, as the service keeps it):
 * either the reference (validate) or an import followed by the same import again.
 */
async function child(mode: 'validate' | 'import', backend: Backend, path: string, databaseUrl: string): Promise<void> {
  const pgliteDir = mkdtempSync(join(os.tmpdir(), 'import-bench-db-'));
  const store = await openStore({ databaseUrl: backend === 'postgresql' ? databaseUrl : null, pgliteDir });
  try {
    await store.migrate();
    const workspaceId = crypto.randomUUID();
    for (const p of PRODUCERS) await createProducer(store.em(), workspaceId, { name: p.name });
    const input = { workspaceId, bytes: readFileSync(path), filename: path, country: 'GH' };
    let t = performance.now();
    if (mode === 'validate') {
      const report = await validatePlotFile(store.em(), input);
      console.log(JSON.stringify({ plots: report.plots.length, ms: performance.now() - t, peak_rss_mb: maxRssMb() } satisfies ChildFigures));
      return;
    }
    const first = await importPlots(store.em(), input);
    const ms = performance.now() - t;
    const peak = maxRssMb();
    t = performance.now();
    const second = await importPlots(store.em(), input);
    const out: ChildFigures = {
      plots: first.plots.length,
      ms,
      peak_rss_mb: peak,
      created: first.imported.created,
      reimport_ms: performance.now() - t,
      reimport_peak_rss_mb: maxRssMb(),
      skipped_on_reimport: second.imported.skipped,
    };
    console.log(JSON.stringify(out));
  } finally {
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
            `(${Math.round(plotsPerS)} plots/s), peak RSS ${f.peak_rss_mb} MB; validate alone ${(reference.ms / 1000).toFixed(2)} s, ` +
            `peak RSS ${reference.peak_rss_mb} MB (import ${(f.ms / reference.ms).toFixed(1)}x); ` +
            `re-import unchanged ${(f.reimport_ms! / 1000).toFixed(2)} s, peak RSS ${f.reimport_peak_rss_mb} MB`,
        );
        figures[`${name}_${backend}`] = {
          file_mb: mb(bytes.length),
          plots: f.plots,
          import_ms: Math.round(f.ms),
          plots_per_s: Math.round(plotsPerS),
          peak_rss_mb: f.peak_rss_mb,
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
