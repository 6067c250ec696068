// `npm run bench -- import-parse`: parse and validation of the largest uploads an import takes
// (100,000 point plots as GeoJSON and as CSV, 20,000 polygon plots of 50 vertices as GeoJSON, each
// under 25 MB), without the database write. Each file is read in a fresh child process, so its peak
// memory (max RSS) is that of one import alone. The reference in the same run is the bare syntax
// parse of the same bytes (JSON.parse, csv-parse), in its own child: `ratio_to_syntax_parse` is how
// many times that the whole intake takes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseCsvSyntax } from 'csv-parse/sync';
import { readPlotFile } from '../src/intake/plot-file.ts';
import { validatePlots } from '../src/intake/validate.ts';
import { PRODUCERS, pointPlotsCsv, pointPlotsGeoJson, polygonPlotsGeoJson } from './fixtures.ts';

const FILES = [
  { name: 'points_geojson', file: 'points.geojson', make: () => pointPlotsGeoJson(100_000) },
  { name: 'points_csv', file: 'points.csv', make: () => pointPlotsCsv(100_000) },
  { name: 'polygons_geojson', file: 'polygons.geojson', make: () => polygonPlotsGeoJson(20_000, 50) },
];

interface ChildFigures {
  plots?: number;
  read_ms: number;
  validate_ms?: number;
  total_ms: number;
  max_rss_mb: number;
  start_rss_mb: number;
  states?: Record<string, number>;
}

const mb = (bytes: number) => +(bytes / (1024 * 1024)).toFixed(1);

/** Runs inside a child: one import (or the bare syntax parse) of one file, figures on the last line. */
async function child(mode: string, path: string): Promise<void> {
  const start = process.memoryUsage().rss;
  const bytes = readFileSync(path);
  const t0 = performance.now();
  if (mode === 'syntax') {
    const parsed = path.endsWith('.csv') ? parseCsvSyntax(bytes, { from_line: 2 }).length : JSON.parse(bytes.toString('utf8')).features.length;
    const t1 = performance.now();
    const out: ChildFigures & { items: number } = {
      items: parsed,
      read_ms: t1 - t0,
      total_ms: t1 - t0,
      max_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
      start_rss_mb: mb(start),
    };
    console.log(JSON.stringify(out));
    return;
  }
  const file = await readPlotFile(bytes, path);
  const t1 = performance.now();
  const report = validatePlots(file, { country: 'GH', producers: PRODUCERS });
  const t2 = performance.now();
  const states: Record<string, number> = {};
  for (const p of report.plots) states[p.validation_state] = (states[p.validation_state] ?? 0) + 1;
  const out: ChildFigures = {
    plots: report.plots.length,
    read_ms: t1 - t0,
    validate_ms: t2 - t1,
    total_ms: t2 - t0,
    max_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    start_rss_mb: mb(start),
    states,
  };
  console.log(JSON.stringify(out));
}

function inChild(mode: string, path: string): ChildFigures {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`child ${mode} ${path} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
}

export default async function importParse(): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), 'import-parse-'));
  try {
    const figures: Record<string, unknown> = {};
    for (const { name, file, make } of FILES) {
      const path = join(dir, file);
      const bytes = make();
      writeFileSync(path, bytes);
      const syntax = inChild('syntax', path);
      const intake = inChild('intake', path);
      const plotsPerS = intake.plots! / (intake.total_ms / 1000);
      console.log(
        `${name}: ${mb(bytes.length)} MB, ${intake.plots} plots; read ${intake.read_ms.toFixed(0)} ms + validate ${intake.validate_ms!.toFixed(0)} ms = ` +
          `${intake.total_ms.toFixed(0)} ms (${Math.round(plotsPerS)} plots/s), peak RSS ${intake.max_rss_mb} MB; ` +
          `bare syntax parse ${syntax.total_ms.toFixed(0)} ms, peak RSS ${syntax.max_rss_mb} MB; states ${JSON.stringify(intake.states)}`,
      );
      figures[name] = {
        file_mb: mb(bytes.length),
        plots: intake.plots,
        read_ms: Math.round(intake.read_ms),
        validate_ms: Math.round(intake.validate_ms!),
        total_ms: Math.round(intake.total_ms),
        plots_per_s: Math.round(plotsPerS),
        peak_rss_mb: intake.max_rss_mb,
        syntax_parse_ms: Math.round(syntax.total_ms),
        syntax_peak_rss_mb: syntax.max_rss_mb,
        ratio_to_syntax_parse: +(intake.total_ms / syntax.total_ms).toFixed(1),
        states: intake.states,
      };
    }
    console.log(
      JSON.stringify({
        bench: 'import-parse',
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

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
