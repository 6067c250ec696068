// `npm run bench -- kernels [side]`: throughput of each pixel kernel over a side × side window
// (default 2048) whose mask covers every pixel, against a plain sum over the same typed arrays in
// the same run (the ceiling: the cost of touching those bytes once). `ratio_to_ceiling` is the
// kernel's time over the sum's; the target is 3 or less. Series kernels and the decision, which
// run once per plot, are timed per call. Times are the thread's CPU time, so a busy machine's
// waits for a core are not counted. The window cases are shared with the speed test
// (test/engine/kernels/speed-budget.test.ts), which holds their ratios to what no load explains;
// `npm run bench -- kernels budget` measures today's ratios (BUDGET_FILE), and
// `npm run bench -- kernels check` holds each to twice its budget, exiting 1 past it.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { blockCount, blockIndex, latticePair, type LocalAffine, summariseBlocks } from '../src/engine/kernels/block-index.ts';
import { heightBlocks, radarBlocks } from '../src/engine/kernels/block-readings.ts';
import { addSceneBlocks, sceneBlockSums } from '../src/engine/kernels/scene-blocks.ts';
import { boaOffset } from '../src/engine/kernels/boa-offset.ts';
import { buildingCells, buildingsInMask } from '../src/engine/kernels/building-cells.ts';
import { classShares } from '../src/engine/kernels/class-shares.ts';
import { bufferedClearMask } from '../src/engine/kernels/dilate-mask.ts';
import { utcDay } from '../src/engine/kernels/days.ts';
import { heightPercentiles } from '../src/engine/kernels/height-percentiles.ts';
import { lossInRing } from '../src/engine/kernels/loss-in-ring.ts';
import { radarContrast } from '../src/engine/kernels/radar-contrast.ts';
import { rasteriseMask, ringMask, type PixelMask } from '../src/engine/kernels/rasterise-mask.ts';
import { SCENE_USABLE, sceneStats, sclClearLookup } from '../src/engine/kernels/scene-stats.ts';
import { seasonalTroughs } from '../src/engine/kernels/seasonal-troughs.ts';
import { structureAtTrough } from '../src/engine/kernels/structure-at-trough.ts';
import { terrainSlope } from '../src/engine/kernels/terrain-slope.ts';
import { yearStats } from '../src/engine/kernels/year-stats.ts';
import { NO_CONTEXT, decide } from '../src/engine/decide.ts';
import { operatingPoints as op } from '../src/engine/operating-points.ts';

// One sum per array type, so each stays monomorphic as the kernels are in this run. The length is
// read once: with `i < a.length` V8's optimised code ran the same sum at 2 ns or at 9 ns a pixel
// depending on how it was tiered up, which moved every ratio by up to five times within one run.
export function sumU8(a: Uint8Array): number {
  let s = 0;
  const n = a.length;
  for (let i = 0; i < n; i++) s += a[i];
  return s;
}
export function sumU16(a: Uint16Array): number {
  let s = 0;
  const n = a.length;
  for (let i = 0; i < n; i++) s += a[i];
  return s;
}
export function sumF32(a: Float32Array): number {
  let s = 0;
  const n = a.length;
  for (let i = 0; i < n; i++) s += a[i];
  return s;
}

let sink = 0;

/** Median seconds per call of `fn`, over batches of at least `minMs` of this thread's CPU time. */
export function time(fn: () => unknown, minMs = 250): number {
  for (let i = 0; i < 3; i++) fn();
  const samples = Array.from({ length: 5 }, () => batch(fn, minMs / 5) / 1000);
  samples.sort((a, b) => a - b);
  return samples[2];
}

/** This thread's CPU time in milliseconds: what its own code cost, not how long it waited for a core. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/**
 * Milliseconds of this thread's CPU a call of `fn`, over one batch of at least `ms` of it. CPU
 * time, not the clock: on a busy machine a batch timed by the clock also counts the waits for a
 * core. Linux moves a running thread's figure only at its clock tick (up to 4 ms here) or when
 * the thread leaves the core, so the batch starts just after the figure moves and ends on the
 * call during which it moved: each end is then off by at most one call, not one tick.
 */
function batch(fn: () => unknown, ms: number): number {
  const idle = threadCpuMs();
  let start = idle;
  while (start === idle) start = threadCpuMs();
  let calls = 0;
  let last = start;
  for (;;) {
    const r = fn();
    sink += typeof r === 'number' ? r : 1;
    calls++;
    const now = threadCpuMs();
    if (now !== last && now - start >= ms) return (now - start) / calls;
    last = now;
  }
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

/** The rasters of a side × side window the kernels are timed over. */
export function benchWindow(side: number) {
  const n = side * side;
  const rnd = lcg(42);
  const full = rasteriseMask({ type: 'Polygon', coordinates: [[[0, 0], [side, 0], [side, side], [0, side]]] }, side, side);
  const red = Uint16Array.from({ length: n }, () => 1200 + ((rnd() * 800) | 0));
  const nir = Uint16Array.from({ length: n }, () => 3500 + ((rnd() * 2000) | 0));
  const scl = Uint8Array.from({ length: n }, () => (rnd() < 0.9 ? 4 : 9));
  const aot = Uint16Array.from({ length: n }, () => 100 + ((rnd() * 200) | 0));
  const hv = Uint16Array.from({ length: n }, () => 2000 + ((rnd() * 3000) | 0));
  const hh = Uint16Array.from({ length: n }, () => 5000 + ((rnd() * 6000) | 0));
  const land = new Uint8Array(n).fill(255);
  const heights = Uint8Array.from({ length: n }, () => (rnd() < 0.02 ? 255 : (rnd() * 40) | 0));
  const dem = Float32Array.from({ length: n }, (_, i) => 200 + (i % side) * 0.8 + Math.floor(i / side) * 0.5 + rnd() * 3);
  const tmf = Uint8Array.from({ length: n }, () => (rnd() * 7) | 0);
  const years = Uint16Array.from({ length: n }, () => (rnd() < 0.7 ? 0 : 1990 + ((rnd() * 35) | 0)));
  // Open Buildings: count, height and presence interleaved, 0.5 m pixels gathered into 2 m cells.
  const buildings = Float32Array.from({ length: n * 3 }, (_, k) => (k % 3 === 0 ? rnd() * 0.1 : k % 3 === 1 ? rnd() * 12 : rnd()));
  // Hansen: loss years 0–23, canopy 0–100%, the data mask mostly land (1), some water (2).
  const lossyear = Uint8Array.from({ length: n }, () => (rnd() < 0.8 ? 0 : (rnd() * 24) | 0));
  const treecover = Uint8Array.from({ length: n }, () => (rnd() * 101) | 0);
  const datamask = Uint8Array.from({ length: n }, () => (rnd() < 0.95 ? 1 : 2));
  // A blue band over vegetation with the BOA offset still in it.
  const blue = Uint16Array.from({ length: n }, () => 1150 + ((rnd() * 300) | 0));

  // Radar and the neighbourhood: the plot is the middle of the window, the ring everything else.
  const q = side / 4;
  const plot = rasteriseMask({ type: 'Polygon', coordinates: [[[q, q], [3 * q, q], [3 * q, 3 * q], [q, 3 * q]]] }, side, side);
  const ring = ringMask(plot, side, 0);
  const star: number[][] = [];
  for (let k = 0; k < 64; k++) {
    const r = (k % 2 ? 0.48 : 0.3) * side;
    star.push([side / 2 + r * Math.cos((k * Math.PI) / 32), side / 2 + r * Math.sin((k * Math.PI) / 32)]);
  }
  const landLookup = new Uint8Array(256);
  landLookup[255] = 1;
  const sclLookup = sclClearLookup(op.scenes.sclClearClasses);
  const sclSpread = sclClearLookup(op.scenes.sclBufferedClasses);
  return { side, n, rnd, full, red, nir, scl, aot, hv, hh, land, heights, dem, tmf, years, buildings, lossyear, treecover, datamask, blue, plot, ring, star, landLookup, sclLookup, sclSpread };
}

export type BenchWindow = ReturnType<typeof benchWindow>;

/** One kernel over the window, beside its ceiling: a plain sum over the arrays it reads. */
export interface KernelCase {
  kernel: string;
  pixels: number;
  run: () => unknown;
  ceiling: () => number;
}

export function kernelCases(w: BenchWindow): KernelCase[] {
  const { side, n, full, red, nir, scl, aot, hv, hh, land, heights, dem, tmf, years, plot, ring, star, landLookup, sclLookup } = w;
  const cellsMask = rasteriseMask({ type: 'Polygon', coordinates: [[[0, 0], [side / 4, 0], [side / 4, side / 4], [0, side / 4]]] }, side / 4, side / 4);
  const rowAreaM2 = new Float64Array(side).fill(900);
  const lossCounts = Uint8Array.from({ length: 256 }, (_, v) => (v >= 21 && v <= 23 ? 1 : 0));
  // Sub-plot blocks: the window as a 10 m grid on the fine lattices, and as a 25 m grid on the radar's.
  const fine: LocalAffine = [0, 10, 0, side * 10, 0, -10];
  const fineLattices = latticePair(side * 10, side * 10, op.blocks.fineCellM);
  const fineBlocks = fineLattices.map((l) => blockIndex(full, fine, l));
  const radarGrid: LocalAffine = [0, 25, 0, side * 25, 0, -25];
  const radarLattice = latticePair(side * 25, side * 25, op.blocks.radarCellM)[0];
  const radarBlockIds = blockIndex(full, radarGrid, radarLattice);
  const heightEncoding = { scale: 1, offset: 0, nodata: 255 };
  const fineAnswers = fineLattices.map((l, k) => heightBlocks({ mask: full, blocks: fineBlocks[k], count: blockCount(l), heights, encoding: heightEncoding }, { forestLineM: op.height.forestLineM, minPixels: op.blocks.minFinePixels, unlikeM: op.blocks.unlike.heightM }));
  return [
    { kernel: 'rasterise-mask', pixels: n, run: () => rasteriseMask({ type: 'Polygon', coordinates: [star] }, side, side).count, ceiling: () => sumU8(full.inside) },
    { kernel: 'ring-mask', pixels: n, run: () => ringMask(plot, side / 8, 2).count, ceiling: () => sumU8(plot.inside) },
    {
      kernel: 'scene-stats',
      pixels: n,
      run: () => sceneStats({ mask: full, red, nir, reflectance: { scale: 0.0001, offset: -0.1, nodata: 0 }, clear: { classes: scl, lookup: sclLookup }, shade: op.scenes.shadeEndmembers, aot: { values: aot, encoding: { scale: 0.001, offset: 0, nodata: 0 } } }).ndvi_median,
      ceiling: () => sumU16(red) + sumU16(nir) + sumU8(scl) + sumU16(aot),
    },
    {
      kernel: 'dilate-mask',
      pixels: n,
      // The 40 m buffer on the 10 m grid: a radius of 4 pixels around the window's scattered cloud.
      run: () => bufferedClearMask({ classes: scl, lookup: sclLookup, spread: w.sclSpread, width: side, height: side, radius: 4 })[n >> 1],
      ceiling: () => sumU8(scl),
    },
    {
      kernel: 'radar-contrast',
      pixels: plot.count + ring.count,
      run: () => radarContrast({ plot, ring, hv, hh, nodata: 1, calibrationDb: 83, usable: { classes: land, lookup: landLookup } }, op.radar).plot_hv_db,
      // The plot reads HV, HH and the mask band, the ring HV and the mask band: the ceiling sums all
      // three over the whole window, a little more than the kernel reads.
      ceiling: () => sumU16(hv) + sumU16(hh) + sumU8(land),
    },
    { kernel: 'height-percentiles', pixels: n, run: () => heightPercentiles({ mask: full, heights, encoding: { scale: 1, offset: 0, nodata: 255 } }, op.height).median_m, ceiling: () => sumU8(heights) },
    { kernel: 'terrain-slope', pixels: n, run: () => terrainSlope({ mask: full, dem, encoding: { scale: 1, offset: 0, nodata: null }, pixelWidthM: 30, pixelHeightM: 30 }, op.terrain).mean_slope_deg, ceiling: () => sumF32(dem) },
    {
      kernel: 'class-shares',
      pixels: n,
      run: () => classShares({ mask: full, classes: tmf, names: { undisturbed_forest: [1], degraded_forest: [2], deforested_land: [3], regrowth: [4], water: [5], other_land_cover: [6] }, noClass: [0] }).classified,
      ceiling: () => sumU8(tmf),
    },
    { kernel: 'year-stats', pixels: n, run: () => yearStats({ mask: full, years, yearOffset: 0, none: 0, noData: [], cutoffYear: 2020 }).valid, ceiling: () => sumU16(years) },
    {
      kernel: 'building-cells',
      pixels: n,
      // 0.5 m pixels into 2 m cells, then the cells counted over a mask covering them all.
      run: () => buildingsInMask(buildingCells({ raw: w.buildings, width: side, height: side, samplesPerPixel: 3, bands: { count: 0, height: 1, presence: 2 }, nodata: null, factor: 4, presenceThreshold: 0.4 }), cellsMask).built,
      ceiling: () => sumF32(w.buildings),
    },
    {
      kernel: 'loss-in-ring',
      pixels: ring.count,
      run: () => lossInRing({ ring, rowAreaM2, lossyear: w.lossyear, lossCounts, treecover: w.treecover, minTreecoverPct: 30, land: { classes: w.datamask, value: 1 } }).loss_m2,
      // Three bytes a pixel over the whole window, a little more than the ring reads.
      ceiling: () => sumU8(w.lossyear) + sumU8(w.treecover) + sumU8(w.datamask),
    },
    { kernel: 'block-index', pixels: n, run: () => blockIndex(full, fine, fineLattices[1])[n - 1], ceiling: () => sumU8(full.inside) },
    {
      kernel: 'height-blocks',
      pixels: n,
      run: () => heightBlocks({ mask: full, blocks: fineBlocks[0], count: blockCount(fineLattices[0]), heights, encoding: heightEncoding }, { forestLineM: op.height.forestLineM, minPixels: op.blocks.minFinePixels, unlikeM: op.blocks.unlike.heightM }).read[0],
      ceiling: () => sumU8(heights),
    },
    {
      kernel: 'scene-blocks',
      pixels: n,
      run: () => {
        const sums = sceneBlockSums(1, blockCount(fineLattices[0]));
        addSceneBlocks({ mask: full, blocks: fineBlocks[0], red, nir, reflectance: { scale: 0.0001, offset: -0.1, nodata: 0 }, clear: { classes: scl, lookup: sclLookup }, shade: op.scenes.shadeEndmembers }, 0, sums);
        return sums.count[0];
      },
      ceiling: () => sumU16(red) + sumU16(nir) + sumU8(scl),
    },
    {
      kernel: 'radar-blocks',
      pixels: n,
      run: () => radarBlocks({ mask: full, blocks: radarBlockIds, count: blockCount(radarLattice), years: 1, hv, nodata: 1, calibrationDb: 83, usable: { classes: land, lookup: landLookup }, baselineDb: -11, sigmaDb: 1 }, { thresholdDb: op.radar.thresholdDb, marginSigmas: op.radar.marginSigmas, minPixels: op.blocks.minRadarPixels, unlikeDb: op.blocks.unlike.radarDb }).read[0],
      ceiling: () => sumU16(hv) + sumU8(land),
    },
    { kernel: 'summarise-blocks', pixels: n, run: () => summariseBlocks(full, fine, fineAnswers).forest_like_pixels, ceiling: () => sumU8(full.inside) },
    {
      kernel: 'boa-offset',
      pixels: n,
      run: () => boaOffset({ dn: w.blue, nodata: 0, offsetDn: 1000, minPixels: 100, inPixelsUnder: 0.005, removedFrom: 0.05 }),
      ceiling: () => sumU16(w.blue),
    },
  ];
}

/** The speed test's window: small, so the test stays short; ratios are of this size, not of 2048². */
export const BUDGET_SIDE = 256;
export const BUDGET_FILE = new URL('../test/engine/kernels/speed-budget.json', import.meta.url);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A kernel's time over its ceiling's: the fastest of `rounds` batches of each, run in turn. A
 * neighbour sharing the core's caches only ever slows a batch, and slows the kernel and its
 * ceiling in the same rounds, so the fastest of each is the least disturbed; and a small window's
 * kernel may still be tiering up after the warm-up, which the fastest batch also outgrows.
 */
function ratioToCeiling(c: KernelCase, rounds = 7, batchMs = 10): number {
  batch(c.run, 150);
  batch(c.ceiling, 50);
  let kernel = Infinity;
  let ceiling = Infinity;
  for (let r = 0; r < rounds; r++) {
    kernel = Math.min(kernel, batch(c.run, batchMs));
    ceiling = Math.min(ceiling, batch(c.ceiling, batchMs));
  }
  return kernel / ceiling;
}

/**
 * A case's ratio: the lowest of `tries` measurements, stopping early once one is within `limit`
 * (one busy moment is not a regression; a slow kernel is slow every time).
 */
export function budgetRatio(c: KernelCase, limit = 0, tries = 3): number {
  let best = Infinity;
  for (let t = 0; t < tries && !(best <= limit); t++) best = Math.min(best, ratioToCeiling(c));
  return best;
}

/** How far past its budget a kernel's ratio may go in `kernels check`, run by hand on a quiet machine. */
export const BUDGET_HEADROOM = 2;

/**
 * `kernels check`: each kernel's ratio against HEADROOM × its budget; the process exits 1 when one
 * is over. The CI test holds the same ratios only to what no load explains; this is the close check.
 */
function checkBudget(): void {
  const budget = readBudget();
  const cases = kernelCases(benchWindow(BUDGET_SIDE));
  const figures: Record<string, { ratio: number; budget: number; over: boolean }> = {};
  console.log(`kernels against their budget (${BUDGET_HEADROOM}× the ratios in speed-budget.json, ${budget.measured})`);
  console.log('kernel               ratio   budget   limit');
  for (const c of cases) {
    const limit = BUDGET_HEADROOM * budget.ratios[c.kernel];
    const ratio = budgetRatio(c, limit);
    figures[c.kernel] = { ratio: +ratio.toFixed(2), budget: budget.ratios[c.kernel], over: !(ratio <= limit) };
    console.log(`${c.kernel.padEnd(20)} ${ratio.toFixed(2).padStart(5)}   ${String(budget.ratios[c.kernel]).padStart(6)}   ${limit.toFixed(2).padStart(5)}${figures[c.kernel].over ? '   OVER' : ''}`);
  }
  const over = Object.keys(figures).filter((k) => figures[k].over);
  console.log(JSON.stringify({ bench: 'kernels check', window_px: BUDGET_SIDE ** 2, headroom: BUDGET_HEADROOM, kernels: figures, over, load_average: os.loadavg().map((l) => +l.toFixed(1)), cores: os.availableParallelism(), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown' }));
  if (over.length > 0) process.exitCode = 1;
}

/** The ratios measured when the budget was set, and how. */
export function readBudget(): { measured: string; ratios: Record<string, number> } {
  return JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as { measured: string; ratios: Record<string, number> };
}

/** Today's ratios for the speed test: each kernel's median over five runs of budgetRatio, written to BUDGET_FILE. */
function writeBudget(): void {
  const cases = kernelCases(benchWindow(BUDGET_SIDE));
  const runs = Array.from({ length: 5 }, () => cases.map((c) => budgetRatio(c)));
  const ratios = Object.fromEntries(cases.map((c, k) => [c.kernel, +median(runs.map((r) => r[k])).toFixed(2)]));
  const table = {
    measured: `npm run bench -- kernels budget: ${BUDGET_SIDE}×${BUDGET_SIDE} window, median of 5 runs of budgetRatio, ${os.cpus()[0]?.model ?? 'unknown'}, ${os.availableParallelism()} cores, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
    ratios,
  };
  writeFileSync(BUDGET_FILE, `${JSON.stringify(table, null, 2)}\n`);
  console.log(JSON.stringify(table));
}

export default function kernels(args: string[]): void {
  if (args[0] === 'budget') return writeBudget();
  if (args[0] === 'check') return checkBudget();
  const w = benchWindow(Number(args[0] ?? 2048));
  const { side, n, rnd, red, nir, scl, aot, hv, hh, land, heights, dem, star, landLookup, sclLookup } = w;
  type Row = { kernel: string; pixels: number; seconds: number; ceiling: number };
  const rows: Row[] = kernelCases(w).map((c) => ({ kernel: c.kernel, pixels: c.pixels, seconds: time(c.run), ceiling: time(c.ceiling) }));

  // Per plot: a five-year series every 5 days with a wintering trough each February.
  const start = utcDay('2016-01-01');
  const end = utcDay('2020-12-31');
  const days = Int32Array.from({ length: Math.floor((end - start) / 5) + 1 }, (_, k) => start + 5 * k);
  const index = Float64Array.from(days, (d) => 0.82 - 0.3 * Math.exp(-0.5 * (((d - start - 50) % 365.2425) / 12) ** 2) + (rnd() - 0.5) * 0.05);
  const flags = new Uint8Array(days.length).fill(SCENE_USABLE);
  const series = { days, index, flags };
  const shade = Float64Array.from(days, () => 0.2 + rnd() * 0.05);
  const aotSeries = Float64Array.from(days, () => 0.1 + rnd() * 0.2);
  const troughs = seasonalTroughs(series, { start, end }, op.seasons);
  const perPlot = {
    seasonal_troughs_us: time(() => seasonalTroughs(series, { start, end }, op.seasons).seasons_observed) * 1e6,
    structure_at_trough_us: time(() => structureAtTrough(troughs.seasons, shade, aotSeries, op.structure).seasons_matched) * 1e6,
    decide_us: time(() => decide({ plot_area_km2: 0.1, area_known: true, cycle: troughs.cycle, shade: { forest_like: false, confident: true }, radar: { forest_like: false, confident: true, polarimetry_cultivated: false }, height: { forest_like: false, confident: true, between_lines: false }, terrain_outside: false, context: NO_CONTEXT }).reasons.length) * 1e6,
    scenes: days.length,
  };

  // One 10 ha plot at each product's pitch: what a plot's read costs, fixed overheads included.
  const square = (pitchM: number, marginPx: number) => {
    const plotPx = Math.sqrt(100_000) / pitchM;
    const side = Math.ceil(plotPx + 2 * marginPx);
    const a = marginPx;
    const b = marginPx + plotPx;
    return { side, mask: rasteriseMask({ type: 'Polygon', coordinates: [[[a, a], [b, a], [b, b], [a, b]]] }, side, side) };
  };
  const s10 = square(10, 2);
  const s25 = square(25, op.radar.ringOuterM / 25 + 1);
  const s25ring = ringMask(s25.mask, op.radar.ringOuterM / 25, op.radar.ringInnerM / 25);
  const s30 = square(30, 1);
  const plotUs = {
    rasterise_10m: time(() => rasteriseMask({ type: 'Polygon', coordinates: [star.map(([x, y]) => [(x / side) * s10.side, (y / side) * s10.side])] }, s10.side, s10.side).count) * 1e6,
    ring_25m: time(() => ringMask(s25.mask, op.radar.ringOuterM / 25, op.radar.ringInnerM / 25).count) * 1e6,
    scene_stats_10m: time(() => sceneStats({ mask: s10.mask, red, nir, reflectance: { scale: 0.0001, offset: -0.1, nodata: 0 }, clear: { classes: scl, lookup: sclLookup }, shade: op.scenes.shadeEndmembers, aot: { values: aot, encoding: { scale: 0.001, offset: 0, nodata: 0 } } }).clear_pixels) * 1e6,
    radar_25m: time(() => radarContrast({ plot: s25.mask, ring: s25ring, hv, hh, nodata: 1, calibrationDb: 83, usable: { classes: land, lookup: landLookup } }, op.radar).plot_pixels) * 1e6,
    height_10m: time(() => heightPercentiles({ mask: s10.mask, heights, encoding: { scale: 1, offset: 0, nodata: 255 } }, op.height).pixels) * 1e6,
    terrain_30m: time(() => terrainSlope({ mask: s30.mask, dem, encoding: { scale: 1, offset: 0, nodata: null }, pixelWidthM: 30, pixelHeightM: 30 }, op.terrain).pixels) * 1e6,
  };

  const figures: Record<string, { mpx_s: number; ceiling_mpx_s: number; ratio_to_ceiling: number }> = {};
  console.log(`kernels over a ${side}×${side} window (${(n / 1e6).toFixed(2)} Mpixel), mask covering every pixel`);
  console.log('kernel               Mpixel/s   ceiling Mpixel/s   ratio_to_ceiling');
  for (const r of rows) {
    const mpx = r.pixels / r.seconds / 1e6;
    const ceiling = r.pixels / r.ceiling / 1e6;
    figures[r.kernel] = { mpx_s: +mpx.toFixed(1), ceiling_mpx_s: +ceiling.toFixed(1), ratio_to_ceiling: +(r.seconds / r.ceiling).toFixed(2) };
    console.log(`${r.kernel.padEnd(20)} ${mpx.toFixed(1).padStart(8)}   ${ceiling.toFixed(1).padStart(16)}   ${(r.seconds / r.ceiling).toFixed(2).padStart(16)}`);
  }
  console.log(`one 10 ha plot, µs per call: ${Object.entries(plotUs).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  console.log(`per plot (${perPlot.scenes} scenes): seasonal-troughs ${perPlot.seasonal_troughs_us.toFixed(1)} µs, structure-at-trough ${perPlot.structure_at_trough_us.toFixed(2)} µs, decide ${perPlot.decide_us.toFixed(2)} µs`);
  if (sink === 0.5) console.log('');
  console.log(
    JSON.stringify({
      bench: 'kernels',
      window_px: n,
      kernels: figures,
      plot_10ha_us: Object.fromEntries(Object.entries(plotUs).map(([k, v]) => [k, +v.toFixed(2)])),
      per_plot_us: {
        seasonal_troughs: +perPlot.seasonal_troughs_us.toFixed(1),
        structure_at_trough: +perPlot.structure_at_trough_us.toFixed(2),
        decide: +perPlot.decide_us.toFixed(2),
      },
      over_3x: Object.keys(figures).filter((k) => figures[k].ratio_to_ceiling > 3),
      cores: os.availableParallelism(),
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
    }),
  );
}
