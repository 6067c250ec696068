// Reads every demo site back through the product adapters and the evidence kernels with the
// operating points in force, and checks that each instrument gives the reading the site's truth
// was written for (the decision rules themselves are checked against that truth in sites.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { operatingPoints as op } from '../../src/engine/operating-points.ts';
import { heightPercentiles } from '../../src/engine/kernels/height-percentiles.ts';
import { radarContrast } from '../../src/engine/kernels/radar-contrast.ts';
import { type PixelMask, rasteriseMask, ringMask } from '../../src/engine/kernels/rasterise-mask.ts';
import { CLEAR_MASK_LOOKUP, qaAerosolLookups, qaPixelAnyBitLookup, qaPixelClearLookup, sceneFlags, sceneStats, sclClearLookup } from '../../src/engine/kernels/scene-stats.ts';
import { bufferedClearMask } from '../../src/engine/kernels/dilate-mask.ts';
import { landsatPublication, onePerAcquisition, sentinel2Publication } from '../../src/engine/plan/acquisitions.ts';
import { type CycleClass, seasonalTroughs } from '../../src/engine/kernels/seasonal-troughs.ts';
import { structureAtTrough } from '../../src/engine/kernels/structure-at-trough.ts';
import { terrainSlope } from '../../src/engine/kernels/terrain-slope.ts';
import type { WorkerRaster } from '../../src/engine/worker/raster-window.ts';
import { inferBoaOffset, settleReflectanceEncoding } from '../../src/engine/sources/products/sentinel-2/codes.ts';
import { transformer } from '../../src/engine/sources/reproject.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import { createSentinel2Adapter } from '../../src/engine/sources/products/sentinel-2/reader.ts';
import { createLandsatAdapter } from '../../src/engine/sources/products/landsat/reader.ts';
import { createPalsarAdapter } from '../../src/engine/sources/products/palsar/reader.ts';
import { createCanopyHeightAdapter } from '../../src/engine/sources/products/canopy-height/reader.ts';
import { createDemAdapter } from '../../src/engine/sources/products/copernicus-dem/reader.ts';
import { demoWorld, onDisk } from '../support/demo-world.ts';
import { readWindows } from '../support/read-windows.ts';

const PERIOD = { start: Date.UTC(2016, 0, 1) / 86_400_000, end: Date.UTC(2020, 11, 31) / 86_400_000 };

/** The plot as a pixel mask of a window (pixel centre inside the boundary). */
function plotMask(w: WorkerRaster, ring: number[][]): PixelMask {
  const toCrs = w.epsg === 4326 || w.epsg === null ? (x: number, y: number) => [x, y] : transformer('EPSG:4326', w.epsg);
  const [ox, px, , oy, , py] = w.geoTransform;
  const coords = ring.map(([lon, lat]) => {
    const [x, y] = toCrs(lon, lat);
    return [(x - ox) / px, (y - oy) / py];
  });
  return rasteriseMask({ type: 'Polygon', coordinates: [coords] }, w.width, w.height);
}

function boxAround(ring: number[][], padDeg: number): [number, number, number, number] {
  const lons = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return [Math.min(...lons) - padDeg, Math.min(...lats) - padDeg, Math.max(...lons) + padDeg, Math.max(...lats) + padDeg];
}

/** SCL or AOT (20 m) brought onto the 10 m grid of red and near-infrared, nearest neighbour. */
function onto(fine: WorkerRaster, coarse: WorkerRaster): Uint16Array {
  const out = new Uint16Array(fine.width * fine.height);
  const [fx, fw, , fy, , fh] = fine.geoTransform;
  const [cx, cw, , cy, , ch] = coarse.geoTransform;
  for (let r = 0; r < fine.height; r++) {
    const cr = Math.floor((fy + (r + 0.5) * fh - cy) / ch);
    for (let c = 0; c < fine.width; c++) {
      const cc = Math.floor((fx + (c + 0.5) * fw - cx) / cw);
      out[r * fine.width + c] = cr >= 0 && cr < coarse.height && cc >= 0 && cc < coarse.width ? coarse.raw[cr * coarse.width + cc] : 0;
    }
  }
  return out;
}

/** The clear mask with cloud and shadow edges buffered, on the grid of `w`, as the plot task makes it. */
function buffered(classes: WorkerRaster['raw'], w: WorkerRaster, lookup: Uint8Array, spread: Uint8Array): Uint8Array {
  const pixelM = Math.abs(w.geoTransform[1]);
  return bufferedClearMask({ classes, lookup, spread, width: w.width, height: w.height, radius: Math.round(op.scenes.cloudBufferM / pixelM) });
}

interface Readings {
  cycle: CycleClass;
  /** The cycle of the record with the Landsat half merged in. */
  cycleWithLandsat: CycleClass;
  shade: { forest_like: boolean | null; confident: boolean; value: number | null; dusty: boolean };
  radar: { forest_like: boolean | null; confident: boolean; polarimetry: boolean | null; contrast: number | null };
  height: { forest_like: boolean | null; confident: boolean; median: number | null };
  slope: number | null;
}

async function readSite(root: string, name: string): Promise<Readings> {
  const spec = DEMO_SITES.find((s) => s.name === name)!;
  const m = buildSiteModel(spec, DEMO_SEED);
  const where = onDisk(root);
  const box = boxAround(m.lonLatRing, 0.0005);
  const s2 = createSentinel2Adapter({ catalogue: 'earth-search-v1', where });
  // One item per acquisition, as the plan keeps them.
  const scenes = onePerAcquisition((await s2.search({ bbox: box, start: '2016-01-01', end: '2020-12-31' })).map((s) => sentinel2Publication(s, box))).kept.map((p) => p.scene);
  const days: number[] = [];
  const ndvi: number[] = [];
  const flags: number[] = [];
  const shade: number[] = [];
  const aot: number[] = [];
  for (const scene of scenes) {
    // The pixel check reads blue beside red where the item asks for it, and settles red's encoding as the plot task does.
    const stated = scene.assets.red!.reflectance!;
    const check = stated.verifyWithPixels && scene.assets.blue !== undefined;
    const read = await s2.sceneWindows(scene, box, check ? ['red', 'nir', 'scl', 'aot', 'blue'] : ['red', 'nir', 'scl', 'aot']);
    const [red, nir, scl, aotDn, blue] = await readWindows([read.red.request, read.nir.request, read.scl.request, read.aot.request, ...(check ? [read.blue.request] : [])]);
    const reflectance = settleReflectanceEncoding(stated, check ? inferBoaOffset(blue.raw, stated.nodata ?? 0) : 'undecided');
    const mask = plotMask(red, m.lonLatRing);
    const stats = sceneStats({
      mask,
      red: red.raw as Uint16Array,
      nir: nir.raw as Uint16Array,
      reflectance,
      clear: { classes: buffered(onto(red, scl), red, sclClearLookup(op.scenes.sclClearClasses), sclClearLookup(op.scenes.sclBufferedClasses)), lookup: CLEAR_MASK_LOOKUP },
      shade: op.scenes.shadeEndmembers,
      aot: { values: onto(red, aotDn), encoding: read.aot.encoding },
    });
    days.push(Math.floor(Date.parse(scene.datetime) / 86_400_000));
    ndvi.push(stats.ndvi_median ?? Number.NaN);
    flags.push(sceneFlags(stats, op.scenes));
    shade.push(stats.shade_fraction ?? Number.NaN);
    aot.push(stats.aot_mean ?? Number.NaN);
  }
  const troughs = seasonalTroughs({ days: Float64Array.from(days), index: Float64Array.from(ndvi), flags: Uint8Array.from(flags) }, PERIOD, op.seasons);

  const landsat = createLandsatAdapter({ where });
  const qaLookup = qaPixelClearLookup(op.scenes.landsatQaRequiredBits, op.scenes.landsatQaRejectedBits);
  const qaSpread = qaPixelAnyBitLookup(op.scenes.landsatQaBufferedBits);
  const merged: Array<[number, number, number]> = days.map((d, k) => [d, ndvi[k], flags[k]]);
  const landsatScenes = onePerAcquisition((await landsat.search({ bbox: box, start: '2016-01-01', end: '2020-12-31' })).map((s) => landsatPublication(s, box))).kept.map((p) => p.scene);
  for (const scene of landsatScenes) {
    const read = await landsat.sceneWindows(scene, box, ['red', 'nir08', 'qa_pixel', 'qa_aerosol']);
    const [red, nir, qa, aerosol] = await readWindows([read.red.request, read.nir08.request, read.qa_pixel.request, read.qa_aerosol.request]);
    const stats = sceneStats({
      mask: plotMask(red, m.lonLatRing),
      red: red.raw as Uint16Array,
      nir: nir.raw as Uint16Array,
      reflectance: read.red.encoding,
      clear: { classes: buffered(qa.raw, qa, qaLookup, qaSpread), lookup: CLEAR_MASK_LOOKUP },
      shade: op.scenes.shadeEndmembers,
      aerosolQa: { values: aerosol.raw, ...qaAerosolLookups(op.scenes.landsatAerosolHazyLevels) },
    });
    merged.push([Math.floor(Date.parse(scene.datetime) / 86_400_000), stats.ndvi_median ?? Number.NaN, sceneFlags(stats, op.scenes)]);
  }
  merged.sort((a, b) => a[0] - b[0]);
  const withLandsat = seasonalTroughs({
    days: Float64Array.from(merged, (x) => x[0]), index: Float64Array.from(merged, (x) => x[1]), flags: Uint8Array.from(merged, (x) => x[2]),
  }, PERIOD, op.seasons);
  const structure = structureAtTrough(troughs.seasons, Float64Array.from(shade), Float64Array.from(aot), op.structure);

  const radarBox = boxAround(m.lonLatRing, 0.0065);
  const palsar = await createPalsarAdapter({ where }).windows(radarBox, 2020);
  const [hv, hh, usable] = await readWindows([palsar.layers.HV.request, palsar.layers.HH.request, palsar.layers.mask.request]);
  const plot = plotMask(hv, m.lonLatRing);
  const pixelM = Math.abs(hv.geoTransform[5]) * 110_574;
  const mask = usable.raw;
  const radar = radarContrast({
    plot,
    ring: ringMask(plot, op.radar.ringOuterM / pixelM, op.radar.ringInnerM / pixelM),
    hv: hv.raw as Uint16Array,
    hh: hh.raw as Uint16Array,
    nodata: palsar.nodata,
    calibrationDb: palsar.calibrationDb,
    usable: { classes: mask, lookup: Uint8Array.from({ length: 256 }, (_, v) => (v === 255 ? 1 : 0)) },
  }, op.radar);

  const { Map: h } = (await createCanopyHeightAdapter({ where }).windows(box, ['Map'])).layers;
  const [heights] = await readWindows([h.request]);
  const height = heightPercentiles({ mask: plotMask(heights, m.lonLatRing), heights: heights.raw, encoding: h.encoding }, op.height);

  const dem = (await createDemAdapter({ where }).windows(box))!;
  const [ground] = await readWindows([dem.layers.heights.request]);
  const slope = terrainSlope({ mask: plotMask(ground, m.lonLatRing), dem: ground.raw, encoding: dem.layers.heights.encoding, pixelWidthM: dem.pixelWidthM, pixelHeightM: dem.pixelHeightM }, op.terrain);

  return {
    cycle: troughs.cycle,
    cycleWithLandsat: withLandsat.cycle,
    shade: { forest_like: structure.forest_like, confident: structure.confident, value: structure.shade_at_trough, dusty: structure.withheld_for_dust },
    radar: { forest_like: radar.forest_like, confident: radar.confident, polarimetry: radar.polarimetry_cultivated, contrast: radar.plot_minus_local_forest_db },
    height: { forest_like: height.forest_like, confident: height.confident, median: height.median_m },
    slope: slope.mean_slope_deg,
  };
}

// One test a site: each reads its whole record, and a site's time is what a test's time-out bounds.
for (const spec of DEMO_SITES) {
  test(`the demo site ${spec.name} reads, through the adapters and kernels, as its truth intends`, async () => {
    const { root } = await demoWorld(DEMO_SITES.map((s) => s.name));
    const r = await readSite(root, spec.name);
    const i = spec.intended;
    const say = (what: string) => `${spec.name} ${what}: ${JSON.stringify(r)}`;
    assert.equal(r.cycle, i.cycle, say('cycle'));
    assert.equal(r.cycleWithLandsat, i.cycle, say('cycle with the Landsat half'));
    if (i.cycle !== 'too_thin') {
      assert.equal(r.shade.forest_like, i.shade.forest_like, say('shade'));
      if (i.shade.forest_like !== null) assert.equal(r.shade.confident, i.shade.confident, say('shade confidence'));
      assert.equal(r.shade.dusty, spec.sky.dustAtTrough === true, say('dust'));
    }
    assert.equal(r.radar.forest_like, i.radar.forest_like, say('radar'));
    if (i.radar.forest_like !== null) assert.equal(r.radar.confident, i.radar.confident, say('radar confidence'));
    if (i.radar.polarimetry_cultivated) assert.equal(r.radar.polarimetry, true, say('polarimetry'));
    assert.equal(r.height.forest_like, i.height.forest_like, say('height'));
    if (i.height.forest_like !== null) assert.equal(r.height.confident, i.height.confident, say('height confidence'));
    assert.equal(r.slope !== null && r.slope > op.terrain.maxSlopeDeg, i.terrain_outside, say('terrain'));
  });
}
