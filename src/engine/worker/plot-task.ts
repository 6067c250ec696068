/**
 * The pool's task entry (design decision 4). A plot is read in a few tasks, each on a bounded
 * share of its tiles: `scenes` reads a run of its optical scenes (tiles made ready, windows
 * assembled, the footprint rasterised once per grid) into per-scene and per-block sums; `plot`
 * joins the runs into the record's series (or reads a record of one run itself, from its own
 * tiles) and runs every other instrument's kernel and the context; `shade` reads the trough
 * scenes' shade per block. A few numbers per scene, block and instrument go back. The module's
 * exports are the tasks of tasks.ts, by name, checked against the map's shapes.
 */
import { operatingPoints as op } from '../operating-points.ts';
import { PALSAR_MASK } from '../sources/products/palsar/codes.ts';
import { inferBoaOffset, settleReflectanceEncoding } from '../sources/products/sentinel-2/codes.ts';
import { transformer } from '../sources/reproject.ts';
import { alertClusters, type AlertClusterRequest } from '../kernels/alert-clusters.ts';
import { type BlockAnswers, type BlockSummary, blockCount, blockIndex, type Lattice, latticePair, type LocalAffine, summariseBlocks, withForestPart } from '../kernels/block-index.ts';
import { blockDips, withDipBlocks } from '../kernels/block-dips.ts';
import { ringDip } from '../kernels/ring-dip.ts';
import { heightBlocks, radarBlocks, shadeBlocks } from '../kernels/block-readings.ts';
import { addSceneBlocks, type SceneBlockSums, sceneBlockSums } from '../kernels/scene-blocks.ts';
import { heightPercentiles } from '../kernels/height-percentiles.ts';
import { radarContrast } from '../kernels/radar-contrast.ts';
import type { Encoding } from '../kernels/raster.ts';
import { type BlockFrame, blockFrame, gridOf, localAffine, maskFor, masksOf, pixelSizeM, resampleNearest, ringFor, type LonLatFootprint, WindowBuffer, type WorkerRaster } from './raster-window.ts';
import { maskFromBits, type PixelMask } from '../kernels/rasterise-mask.ts';
import { CLEAR_MASK_LOOKUP, clearShare, type DigitalNumbers, qaAerosolLookups, qaPixelAnyBitLookup, qaPixelClearLookup, SCENE_USABLE, sceneFlags, sceneStats, sclClearLookup } from '../kernels/scene-stats.ts';
import { bufferedClearMask } from '../kernels/dilate-mask.ts';
import { seasonalTroughs } from '../kernels/seasonal-troughs.ts';
import { type StructureAtTrough, structureAtTrough } from '../kernels/structure-at-trough.ts';
import type { ChipTaskParams, ChipTaskResult, ClearTaskParams, ClearTaskResult, EngineTaskName, EngineTasks, OpticalScenePlan, PlotTaskParams, PlotTaskResult, RasterGrid, SceneGroupParams, SceneGroupResult, SceneReading, ShadeTaskParams, WithBlocks } from './tasks.ts';
import { assembleShipment } from './shipment-wire.ts';
import { terrainSlope } from '../kernels/terrain-slope.ts';
import { computeContext } from './context/index.ts';
import { answerWhenCovered, markRead, unionCoverage, windowCoverage } from './coverage.ts';
import { type MapTileTaskParams, renderMapTile } from './map-tile.ts';
import { encodePng } from './png.ts';
import { gridPlaces } from './grid-places.ts';
import { answerMoving } from './transfer.ts';
import { TRUE_COLOUR_WHITE } from '../map-layers.ts';

/** Per kind of scene mask: which values are clear, and which have their edges buffered. */
const CLEAR_TESTS = {
  scl: { lookup: sclClearLookup(op.scenes.sclClearClasses), spread: sclClearLookup(op.scenes.sclBufferedClasses) },
  qa_pixel: { lookup: qaPixelClearLookup(op.scenes.landsatQaRequiredBits, op.scenes.landsatQaRejectedBits), spread: qaPixelAnyBitLookup(op.scenes.landsatQaBufferedBits) },
} as const;
/** This thread's window buffer: each task cuts its one shipment's windows into it (raster-window.ts). */
const windows = new WindowBuffer();

const RADAR_USABLE = Uint8Array.from({ length: 256 }, (_, v) => (v === PALSAR_MASK.LAND ? 1 : 0));
const AEROSOL_QA = qaAerosolLookups(op.scenes.landsatAerosolHazyLevels);

function need(rasters: ReadonlyMap<string, WorkerRaster>, key: string): WorkerRaster {
  const r = rasters.get(key);
  if (r === undefined) throw new Error(`the task was sent no raster ${key}`);
  return r;
}

function onGrid(target: WorkerRaster, source: WorkerRaster): WorkerRaster['raw'] {
  return gridOf(target) === gridOf(source) ? source.raw : resampleNearest(target, source);
}

/** A grid's pixels on the plot's two block lattices of one cell size. */
interface GridBlocks {
  affine: LocalAffine;
  lattices: readonly Lattice[];
  blocks: Int32Array[];
}

/** The plot's blocks on each grid and cell size, made once: every instrument shares the lattices of the frame. */
function blocksOf(frame: BlockFrame, maskOf: (r: RasterGrid) => PixelMask): (r: RasterGrid, cellM: number) => GridBlocks {
  const made = new Map<string, GridBlocks>();
  return (r, cellM) => {
    const key = `${gridOf(r)}|${cellM}`;
    let g = made.get(key);
    if (g === undefined) {
      const affine = localAffine(r, frame);
      const lattices = latticePair(frame.widthM, frame.heightM, cellM);
      made.set(key, (g = { affine, lattices, blocks: lattices.map((l) => blockIndex(maskOf(r), affine, l)) }));
    }
    return g;
  };
}

type BlocksOf = ReturnType<typeof blocksOf>;

/** The ground around the plot on each grid, as one block (kernels/ring-dip.ts), made once. */
function ringsOf(maskOf: (r: RasterGrid) => PixelMask): (r: WorkerRaster) => { mask: PixelMask; blocks: Int32Array } {
  const made = new Map<string, { mask: PixelMask; blocks: Int32Array }>();
  return (r) => {
    const grid = gridOf(r);
    let g = made.get(grid);
    if (g === undefined) made.set(grid, (g = { mask: ringFor(maskOf(r), r, op.seasons.ringInnerM, op.seasons.ringOuterM), blocks: new Int32Array(r.width * r.height) }));
    return g;
  };
}

/** One optical scene's bands as the kernels read them: reflectance settled, the clear mask on the red band's grid with cloud edges buffered. */
function sceneBands(scene: OpticalScenePlan, rasters: ReadonlyMap<string, WorkerRaster>) {
  const red = need(rasters, scene.red);
  let reflectance: Encoding = scene.reflectance;
  if (scene.boaCheck !== null) {
    const blue = need(rasters, scene.boaCheck.blue);
    const settled = settleReflectanceEncoding(scene.boaCheck.encoding, inferBoaOffset(blue.raw, scene.boaCheck.encoding.nodata ?? 0));
    reflectance = { scale: settled.scale, offset: settled.offset, nodata: settled.nodata };
  }
  return {
    red,
    nir: need(rasters, scene.nir),
    reflectance,
    clear: {
      classes: bufferedClearMask({
        classes: onGrid(red, need(rasters, scene.clear.key)), width: red.width, height: red.height, ...CLEAR_TESTS[scene.clear.kind],
        radius: Math.round(op.scenes.cloudBufferM / pixelSizeM(red).x),
      }),
      lookup: CLEAR_MASK_LOOKUP,
    },
  };
}

/**
 * Shade per block at the trough scenes the plot's shade was read at. Block ids are the same ground
 * on every grid, so the scenes' sums pool per lattice whatever their sensor; the first trough
 * scene's grid carries the summary.
 */
function shadeByBlock(troughScenes: readonly OpticalScenePlan[], rasters: ReadonlyMap<string, WorkerRaster>, maskOf: (r: RasterGrid) => PixelMask, gridBlocks: BlocksOf): BlockSummary | null {
  let summary: { mask: PixelMask; grid: GridBlocks } | null = null;
  let sums: SceneBlockSums[] = [];
  for (let j = 0; j < troughScenes.length; j++) {
    const bands = sceneBands(troughScenes[j], rasters);
    const mask = maskOf(bands.red);
    const grid = gridBlocks(bands.red, op.blocks.fineCellM);
    if (summary === null) {
      summary = { mask, grid };
      sums = grid.lattices.map((l) => sceneBlockSums(troughScenes.length, blockCount(l)));
    }
    grid.blocks.forEach((blocks, l) => addSceneBlocks({
      mask, blocks, red: bands.red.raw as DigitalNumbers, nir: bands.nir.raw as DigitalNumbers, reflectance: bands.reflectance, clear: bands.clear, shade: op.scenes.shadeEndmembers,
    }, j, sums[l]));
  }
  if (summary === null) return null;
  const lines = { shadeLine: op.structure.shadeLine, shadeMargin: op.structure.shadeMargin, minPixels: op.blocks.minFinePixels, unlike: op.blocks.unlike.shade };
  const answers: BlockAnswers[] = summary.grid.blocks.map((blocks, l) => shadeBlocks(blocks, sums[l], lines));
  return summariseBlocks(summary.mask, summary.grid.affine, answers);
}

/** The `shade` task: the plot-wide shade reading with its blocks, forest-like where a located part reads so. */
function readShadeTask(p: ShadeTaskParams): WithBlocks<StructureAtTrough> {
  const rasters = assembleShipment(p.shipment, windows);
  const maskOf = masksOf(p.footprint);
  const blocks = shadeByBlock(p.optical, rasters, maskOf, blocksOf(blockFrame(p.footprint), maskOf));
  return blocks === null ? p.structure : withForestPart(p.structure, blocks, op.blocks.forestPart);
}

/**
 * The `scenes` task: a group of the record's scenes, each read over the plot (its statistics, its
 * NDVI per dip block, its ring) with the grids they lie on, so the plot task joins the groups
 * without their tiles.
 */
function sceneGroupOf(optical: readonly OpticalScenePlan[], rasters: ReadonlyMap<string, WorkerRaster>, maskOf: (r: RasterGrid) => PixelMask, gridBlocks: BlocksOf): SceneGroupResult {
  const ringOf = ringsOf(maskOf);
  const n = optical.length;
  const flags = new Uint8Array(n);
  const scenes: SceneReading[] = [];
  const grids: SceneGroupResult['grids'] = [];
  const gridAt = new Map<string, number>();
  const sceneGrid = new Int32Array(n);
  let dips: SceneBlockSums[] = [];
  // The ring's NDVI per scene, read where the plot's scene was usable and most of the ring was clear.
  const ring = sceneBlockSums(n, 1);
  const ringUsable = new Uint8Array(n);
  optical.forEach((scene, k) => {
    const { red, nir, reflectance, clear } = sceneBands(scene, rasters);
    const mask = maskOf(red);
    const grid = gridBlocks(red, op.blocks.dipCellM);
    const key = gridOf(red);
    let g = gridAt.get(key);
    if (g === undefined) {
      gridAt.set(key, (g = grids.length));
      grids.push({ grid: { geoTransform: red.geoTransform, epsg: red.epsg, width: red.width, height: red.height }, pitchM: pixelSizeM(red).x, pixels: mask.count, read: new Uint8Array(red.width * red.height) });
    }
    sceneGrid[k] = g;
    if (dips.length === 0) dips = grid.lattices.map((l) => sceneBlockSums(n, blockCount(l)));
    const stats = sceneStats({
      mask,
      red: red.raw as DigitalNumbers,
      nir: nir.raw as DigitalNumbers,
      reflectance,
      clear,
      shade: op.scenes.shadeEndmembers,
      aot: scene.aot === null ? null : { values: onGrid(red, need(rasters, scene.aot.key)) as DigitalNumbers, encoding: scene.aot.encoding },
      aerosolQa: scene.aerosolQa === null ? null : { values: onGrid(red, need(rasters, scene.aerosolQa.key)), ...AEROSOL_QA },
    });
    const usable = sceneFlags(stats, op.scenes);
    if (usable !== 0) {
      grid.blocks.forEach((blocks, l) => addSceneBlocks({ mask, blocks, red: red.raw as DigitalNumbers, nir: nir.raw as DigitalNumbers, reflectance, clear, shade: op.scenes.shadeEndmembers }, k, dips[l]));
      const around = ringOf(red);
      addSceneBlocks({ mask: around.mask, blocks: around.blocks, red: red.raw as DigitalNumbers, nir: nir.raw as DigitalNumbers, reflectance, clear, shade: op.scenes.shadeEndmembers }, k, ring);
      ringUsable[k] = +(around.mask.count > 0 && ring.count[k] >= op.scenes.minClearFraction * around.mask.count);
      markRead(grids[g].read, red.raw, scene.reflectance.nodata);
    }
    flags[k] = usable;
    scenes.push({
      pixels: stats.pixels,
      clear_pixels: stats.clear_pixels,
      clear_fraction: stats.clear_fraction,
      ndvi: stats.ndvi_median,
      shade: stats.shade_fraction,
      aot: stats.aot_mean,
      usable: usable !== 0,
    });
  });
  return { scenes, flags, grids, sceneGrid, dips, ring, ringUsable };
}

function readSceneGroup(p: SceneGroupParams): SceneGroupResult {
  const maskOf = masksOf(p.footprint);
  return sceneGroupOf(p.optical, assembleShipment(p.shipment, windows), maskOf, blocksOf(blockFrame(p.footprint), maskOf));
}

/** Sums of the groups' scenes laid end to end, as if one task had read the whole record. */
function joinSums(parts: readonly SceneBlockSums[], scenes: number): SceneBlockSums {
  if (parts.length === 1) return parts[0];
  const whole = sceneBlockSums(scenes, parts[0].blocks);
  let at = 0;
  for (const part of parts) {
    whole.ndvi.set(part.ndvi, at);
    whole.shade.set(part.shade, at);
    whole.count.set(part.count, at);
    at += part.count.length;
  }
  return whole;
}

/**
 * The record's series from its scene groups: the plot's troughs, its dip per block, its ring, the
 * plot-wide shade at the troughs, and the optical coverage over the kept scenes (Sentinel-2 first,
 * so the 10 m grid is counted on). The dip blocks are summarised on the finest grid read.
 */
function recordOf(p: PlotTaskParams, record: readonly SceneGroupResult[], maskOf: (r: RasterGrid) => PixelMask, gridBlocks: BlocksOf) {
  const n = p.optical.length;
  const days = Float64Array.from(p.optical, (s) => s.day);
  const scenes = record.flatMap((g) => g.scenes);
  if (scenes.length !== n) throw new Error(`the record's groups read ${scenes.length} scenes of the ${n} planned`);
  const index = Float64Array.from(scenes, (s) => s.ndvi ?? Number.NaN);
  const shade = Float64Array.from(scenes, (s) => s.shade ?? Number.NaN);
  const aot = Float64Array.from(scenes, (s) => s.aot ?? Number.NaN);
  const flags = new Uint8Array(n);
  const ringUsable = new Uint8Array(n);
  const grids = record.flatMap((g) => Array.from(g.sceneGrid, (at) => g.grids[at]));
  let at = 0;
  for (const g of record) {
    flags.set(g.flags, at);
    ringUsable.set(g.ringUsable, at);
    at += g.flags.length;
  }
  let pitch: number | null = null;
  let pixels = 0;
  let dipOn: RasterGrid | null = null;
  p.optical.forEach((scene, k) => {
    if (pitch === null || (scene.sensor === 'sentinel-2' && pitch > grids[k].pitchM)) {
      pitch = grids[k].pitchM;
      pixels = grids[k].pixels;
      dipOn = grids[k].grid;
    }
  });
  const plotTroughs = seasonalTroughs({ days, index, flags }, p.period, op.seasons);
  // Blocks and ring are read, as the plot's troughs are, in scenes of clear air.
  const clearAir = flags.map((f) => +(f === SCENE_USABLE));
  const dipLines = { dipDepth: op.seasons.dipDepth, minPixels: op.blocks.minDipPixels, unlikeDays: op.blocks.unlike.dipDays, unlikeDepth: op.blocks.unlike.dipDepth };
  const troughs = withDipBlocks(plotTroughs, dipOn === null ? null : (() => {
    const grid = gridBlocks(dipOn, op.blocks.dipCellM);
    const sums = grid.lattices.map((_, l) => joinSums(record.map((g) => g.dips[l]), n));
    return summariseBlocks(maskOf(dipOn), grid.affine, grid.blocks.map((blocks, l) => blockDips({ blocks, sums: sums[l], days, usable: clearAir, seasons: plotTroughs.seasons }, dipLines)));
  })(), op.blocks.forestPart);
  const ringSums = n === 0 ? sceneBlockSums(0, 1) : joinSums(record.map((g) => g.ring), n);
  const ring = ringDip({ sums: ringSums, days, usable: ringUsable.map((u, k) => u & clearAir[k]), seasons: plotTroughs.seasons }, { dipDepth: op.seasons.dipDepth, sameDays: op.blocks.unlike.dipDays, sameDepth: op.blocks.unlike.dipDepth });
  const plotWide = structureAtTrough(troughs.seasons, shade, aot, op.structure);
  const kept = scenes.flatMap((s, k) => (s.usable ? [k] : []));
  const first = kept.find((k) => p.optical[k].sensor === 'sentinel-2') ?? kept[0];
  // Each grid's pixels read, the groups' merged into the first group's (the groups are this task's own).
  const covered = new Map<string, { grid: RasterGrid; read: Uint8Array }>();
  for (const g of record) {
    for (const { grid, read } of g.grids) {
      const key = gridOf(grid);
      const had = covered.get(key);
      if (had === undefined) covered.set(key, { grid, read });
      else for (let i = 0; i < read.length; i++) had.read[i] |= read[i];
    }
  }
  return {
    scenes,
    troughs,
    ring,
    structure: { ...plotWide, blocks: null, located: false },
    // The shade per block is read (the shade task) only where the plot-wide shade answered.
    shadeBlocks: plotWide.forest_like !== null && plotWide.scenes.length > 0,
    pixels,
    pitch,
    coverage: first === undefined ? null : unionCoverage(grids[first].grid, covered.values(), p.footprint),
  };
}

/** The radar years pooled into one reading: their windows share one grid, so they stack row-wise. */
function radarOf(p: PlotTaskParams, rasters: ReadonlyMap<string, WorkerRaster>, gridBlocks: BlocksOf) {
  if (p.radar === null || p.radar.years.length === 0) return null;
  const years = p.radar.years.map((y) => ({ hh: need(rasters, y.hh), hv: need(rasters, y.hv), mask: need(rasters, y.mask), nodata: y.nodata }));
  const first = years[0].hv;
  const size = first.width * first.height;
  if (years.some((y) => gridOf(y.hv) !== gridOf(first) || gridOf(y.hh) !== gridOf(first) || gridOf(y.mask) !== gridOf(first) || y.nodata !== years[0].nodata)) {
    throw new Error('radar years to pool must share one grid and one nodata value');
  }
  const plot = maskFor(first, p.footprint);
  const ring = ringFor(plot, first, op.radar.ringInnerM, op.radar.ringOuterM);
  const stack = (m: PixelMask) => {
    const inside = new Uint8Array(size * years.length);
    for (let k = 0; k < years.length; k++) inside.set(m.inside, k * size);
    return maskFromBits(inside, first.width, first.height * years.length);
  };
  const hv = new Uint16Array(size * years.length);
  const hh = new Uint16Array(size * years.length);
  const usable = new Uint8Array(size * years.length);
  years.forEach((y, k) => {
    hv.set(y.hv.raw as Uint16Array, k * size);
    hh.set(y.hh.raw as Uint16Array, k * size);
    usable.set(y.mask.raw as Uint8Array, k * size);
  });
  const usableTest = { classes: usable, lookup: RADAR_USABLE };
  const plotWide = radarContrast({
    plot: years.length === 1 ? plot : stack(plot),
    ring: years.length === 1 ? ring : stack(ring),
    hv,
    hh,
    nodata: years[0].nodata,
    calibrationDb: p.radar.calibrationDb,
    usable: usableTest,
  }, op.radar);
  const { local_forest_baseline_db: baselineDb, sigma_db: sigmaDb } = plotWide;
  // Blocks are read against the forest around the plot, so only where the plot itself was.
  if (!plotWide.compared || baselineDb === null || sigmaDb === null) return { ...plotWide, blocks: null, located: false };
  const grid = gridBlocks(first, op.blocks.radarCellM);
  const lines = { thresholdDb: op.radar.thresholdDb, marginSigmas: op.radar.marginSigmas, minPixels: op.blocks.minRadarPixels, unlikeDb: op.blocks.unlike.radarDb };
  const answers = grid.blocks.map((blocks, l) => radarBlocks({
    mask: plot, blocks, count: blockCount(grid.lattices[l]), years: years.length, hv, nodata: years[0].nodata,
    calibrationDb: p.radar!.calibrationDb, usable: usableTest, baselineDb, sigmaDb,
  }, lines));
  return withForestPart(plotWide, summariseBlocks(plot, grid.affine, answers), op.blocks.forestPart);
}

/** The share of the plot each instrument's windows had data for. */
function coverageOf(p: PlotTaskParams, rasters: ReadonlyMap<string, WorkerRaster>, maskOf: (r: RasterGrid) => PixelMask): Omit<PlotTaskResult['coverage'], 'optical'> {
  const of = (key: string, nodata: number | null, others: readonly string[] = []) => {
    const r = need(rasters, key);
    return windowCoverage(r, maskOf(r), [r.raw, ...others.map((k) => need(rasters, k).raw)], nodata, p.footprint);
  };
  const radarYears = p.radar?.years ?? [];
  return {
    radar: radarYears.length === 0 ? null : of(radarYears[0].hv, radarYears[0].nodata, radarYears.slice(1).map((y) => y.hv)),
    height: p.height === null ? null : of(p.height.key, p.height.encoding.nodata),
    terrain: p.terrain === null ? null : of(p.terrain.key, p.terrain.encoding.nodata),
  };
}

function readPlotTask(p: PlotTaskParams): PlotTaskResult {
  const rasters = assembleShipment(p.shipment, windows);
  const maskOf = masksOf(p.footprint);
  const gridBlocks = blocksOf(blockFrame(p.footprint), maskOf);
  // A record of one run is read here, from this task's own tiles.
  const record = p.record ?? (p.optical.length === 0 ? [] : [sceneGroupOf(p.optical, rasters, maskOf, gridBlocks)]);
  const optical = recordOf(p, record, maskOf, gridBlocks);
  const height = p.height === null ? null : (() => {
    const h = need(rasters, p.height.key);
    const mask = maskOf(h);
    const encoding = p.height.encoding;
    const plotWide = heightPercentiles({ mask, heights: h.raw, encoding }, op.height);
    const grid = gridBlocks(h, op.blocks.fineCellM);
    const lines = { forestLineM: op.height.forestLineM, minPixels: op.blocks.minFinePixels, unlikeM: op.blocks.unlike.heightM };
    const answers = grid.blocks.map((blocks, l) => heightBlocks({ mask, blocks, count: blockCount(grid.lattices[l]), heights: h.raw, encoding }, lines));
    return withForestPart(plotWide, summariseBlocks(mask, grid.affine, answers), op.blocks.forestPart);
  })();
  const terrain = p.terrain === null ? null : (() => {
    const t = p.terrain;
    const dem = need(rasters, t.key);
    return terrainSlope({ mask: maskOf(dem), dem: dem.raw, encoding: t.encoding, pixelWidthM: t.pixelWidthM, pixelHeightM: t.pixelHeightM }, op.terrain);
  })();
  const coverage = { optical: optical.coverage, ...coverageOf(p, rasters, maskOf) };
  return {
    pixels: optical.pixels,
    pitch_m: optical.pitch,
    scenes: optical.scenes,
    troughs: optical.troughs,
    ring: optical.ring,
    structure: optical.structure,
    shade_blocks: optical.shadeBlocks,
    radar: answerWhenCovered(radarOf(p, rasters, gridBlocks), coverage.radar, 'radar mosaics'),
    height: answerWhenCovered(height, coverage.height, 'canopy-height map'),
    terrain,
    coverage,
    context: computeContext(p.context.prepared, rasters, p.context.plot),
  };
}

/** Each scene mask's clear share of the plot, on the mask's grid: the first step of a plot's read. */
function clearShares(p: ClearTaskParams): ClearTaskResult {
  const rasters = assembleShipment(p.shipment, windows);
  const maskOf = masksOf(p.footprint);
  return {
    clear: p.masks.map((m) => {
      const r = need(rasters, m.key);
      return clearShare(maskOf(r), r.raw, CLEAR_TESTS[m.kind].lookup, r.nodata);
    }),
  };
}


async function cutChip(p: ChipTaskParams): Promise<ChipTaskResult> {
  const rasters = assembleShipment(p.shipment, windows);
  const bands = [need(rasters, p.red), need(rasters, p.green), need(rasters, p.blue)];
  const grid = bands[0];
  const [ox, pw, , oy, , ph] = grid.geoTransform;
  const [w, s, e, n] = p.bbox;
  const lons = Float64Array.from({ length: p.width }, (_, i) => w + ((i + 0.5) * (e - w)) / p.width);
  const lats = Float64Array.from({ length: p.height }, (_, j) => n - ((j + 0.5) * (n - s)) / p.height);
  const { xs, ys } = gridPlaces(lons, lats, transformer('EPSG:4326', grid.epsg ?? 4326));
  const { scale, offset, nodata } = p.reflectance;
  const rgb = new Uint8Array(p.width * p.height * 3);
  for (let j = 0; j < p.height; j++) {
    for (let i = 0; i < p.width; i++) {
      const x = xs[j * p.width + i];
      const y = ys[j * p.width + i];
      const c = Math.floor((x - ox) / pw);
      const r = Math.floor((y - oy) / ph);
      if (c < 0 || r < 0 || c >= grid.width || r >= grid.height) continue;
      const at = r * grid.width + c;
      for (let b = 0; b < 3; b++) {
        const dn = bands[b].raw[at];
        if (dn === nodata) continue;
        const v = Math.min(1, Math.max(0, (dn * scale + offset) / TRUE_COLOUR_WHITE));
        rgb[(j * p.width + i) * 3 + b] = Math.round(255 * Math.sqrt(v));
      }
    }
  }
  const png = await encodePng(rgb, p.width, p.height, 3);
  return answerMoving({ png }, [png]);
}

/** Piscina calls the module's exports by name: exactly the tasks of the map, each taking its params and answering its result. */
const clusterAlerts = (r: AlertClusterRequest) => alertClusters(r.pixels, r.pixelDeg, r.maxGapDays);

const renderTile = (p: MapTileTaskParams) => renderMapTile(p, windows);

const tasks = { scenes: readSceneGroup, plot: readPlotTask, shade: readShadeTask, clear: clearShares, chip: cutChip, tile: renderTile, clusters: clusterAlerts } satisfies {
  [K in EngineTaskName]: (params: EngineTasks[K]['params']) => EngineTasks[K]['result'] | Promise<EngineTasks[K]['result']>;
};

export const { scenes, plot, shade, clear, chip, tile, clusters } = tasks;
