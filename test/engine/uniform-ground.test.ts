// Issue 30's constructed cases: plots that are one crop over most of their ground and forest over a
// part of it that no forest line catches. Arrays are built here; the kernels and rules read them
// with the operating points in force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, NO_CONTEXT } from '../../src/engine/decide.ts';
import { blockDips } from '../../src/engine/kernels/block-dips.ts';
import { blockCount, blockIndex, latticePair, type LocalAffine, summariseBlocks, type BlockSummary, withForestPart } from '../../src/engine/kernels/block-index.ts';
import { heightBlocks, radarBlocks, shadeBlocks } from '../../src/engine/kernels/block-readings.ts';
import { maskFromBits } from '../../src/engine/kernels/rasterise-mask.ts';
import { ringDip } from '../../src/engine/kernels/ring-dip.ts';
import { addSceneBlocks, sceneBlockSums } from '../../src/engine/kernels/scene-blocks.ts';
import { CLEAR_MASK_LOOKUP, SCENE_USABLE } from '../../src/engine/kernels/scene-stats.ts';
import { seasonalTroughs } from '../../src/engine/kernels/seasonal-troughs.ts';
import { operatingPoints as op } from '../../src/engine/operating-points.ts';
import { unevenGround } from '../../src/engine/uneven-ground.ts';
import type { PlotTaskResult } from '../../src/engine/worker/tasks.ts';

const SIDE = 300;
const PIXEL = 10;
const W = SIDE / PIXEL;
const AFFINE: LocalAffine = [0, PIXEL, 0, SIDE, 0, -PIXEL];
const MASK = maskFromBits(new Uint8Array(W * W).fill(1), W, W);
const ENDMEMBERS = op.scenes.shadeEndmembers;
const REFLECTANCE = { scale: 1e-4, offset: 0, nodata: 0 };
const CLEAR = { classes: new Uint8Array(W * W).fill(1), lookup: CLEAR_MASK_LOOKUP };
const DAY0 = Date.UTC(2016, 0, 1) / 86_400_000;
const DAYS = Array.from({ length: Math.floor((5 * 365) / 10) }, (_, k) => DAY0 + 10 * k);

/** A cover as the instruments see it: canopy height (m), HV (dB), plateau NDVI and its dip (depth, day of year). */
interface Cover { heightM: (i: number) => number; hvDb: number; ndvi: number; dip: number; dipDoy: number }

// Tapped rubber beside a dry deciduous forest of 12 to 18 m that sheds earlier and deeper, and a
// secondary forest of 10 to 20 m that does not shed; all stand under the forest line of 25 m.
const RUBBER: Cover = { heightM: (i) => 21 + (i % 3), hvDb: -15.5, ndvi: 0.82, dip: 0.25, dipDoy: 60 };
const DRY_FOREST: Cover = { heightM: (i) => 12 + ((i * 7) % 7), hvDb: -12.5, ndvi: 0.8, dip: 0.35, dipDoy: 15 };
const SECONDARY: Cover = { heightM: (i) => 10 + ((i * 3) % 11), hvDb: -13, ndvi: 0.84, dip: 0, dipDoy: 0 };

const ndviOn = (c: Cover, day: number) => {
  const doy = (day - DAY0) % 365;
  const d = Math.min(Math.abs(doy - c.dipDoy), 365 - Math.abs(doy - c.dipDoy));
  return c.ndvi - c.dip * Math.exp(-0.5 * (d / 18) ** 2);
};
/** Red and near-infrared (DN, scale 1e-4) of an NDVI, with n + r = 0.5. */
const bands = (ndvi: number) => ({ red: Math.round(2500 * (1 - ndvi)), nir: Math.round(2500 * (1 + ndvi)) });

/** The plot with `forest` drawn into it from the west over `share` of its area. */
function plot(forest: Cover, share: number) {
  const coverAt = (i: number) => ((i % W) < Math.round(share * W) ? forest : RUBBER);
  return { coverAt };
}

function readings(forest: Cover, share: number) {
  const { coverAt } = plot(forest, share);
  // Canopy height on the 30 m lattices.
  const heights = Uint8Array.from({ length: W * W }, (_, i) => coverAt(i).heightM(i));
  const fine = latticePair(SIDE, SIDE, op.blocks.fineCellM);
  const heightLines = { forestLineM: op.height.forestLineM, minPixels: op.blocks.minFinePixels, unlikeM: op.blocks.unlike.heightM };
  const height = summariseBlocks(MASK, AFFINE, fine.map((l) => heightBlocks({ mask: MASK, blocks: blockIndex(MASK, AFFINE, l), count: blockCount(l), heights, encoding: { scale: 1, offset: 0, nodata: 255 } }, heightLines)));
  // Radar, two years of 25 m looks read here on the 10 m grid, against a closed-forest ring of −11 dB.
  const dn = (db: number) => Math.round(Math.sqrt(10 ** ((db + 83) / 10)));
  const year = Uint16Array.from({ length: W * W }, (_, i) => dn(coverAt(i).hvDb));
  const hv = new Uint16Array(2 * W * W);
  hv.set(year, 0);
  hv.set(year, W * W);
  const coarse = latticePair(SIDE, SIDE, op.blocks.radarCellM);
  const radarLines = { thresholdDb: op.radar.thresholdDb, marginSigmas: op.radar.marginSigmas, minPixels: op.blocks.minRadarPixels, unlikeDb: op.blocks.unlike.radarDb };
  const radar = summariseBlocks(MASK, AFFINE, coarse.map((l) => radarBlocks({
    mask: MASK, blocks: blockIndex(MASK, AFFINE, l), count: blockCount(l), years: 2, hv, nodata: 0, calibrationDb: 83,
    usable: { classes: new Uint8Array(2 * W * W).fill(1), lookup: CLEAR_MASK_LOOKUP }, baselineDb: -11, sigmaDb: 1,
  }, radarLines)));
  // The dry-season record: a scene every 10 days for five years, the plot's index its median pixel.
  const dipLattices = latticePair(SIDE, SIDE, op.blocks.dipCellM);
  const dipBlocks = dipLattices.map((l) => blockIndex(MASK, AFFINE, l));
  const sums = dipLattices.map((l) => sceneBlockSums(DAYS.length, blockCount(l)));
  const index = DAYS.map((day, k) => {
    const red = new Uint16Array(W * W);
    const nir = new Uint16Array(W * W);
    const values: number[] = [];
    for (let i = 0; i < W * W; i++) {
      const v = ndviOn(coverAt(i), day);
      const b = bands(v);
      red[i] = b.red;
      nir[i] = b.nir;
      values.push(v);
    }
    dipBlocks.forEach((blocks, l) => addSceneBlocks({ mask: MASK, blocks, red, nir, reflectance: REFLECTANCE, clear: CLEAR, shade: ENDMEMBERS }, k, sums[l]));
    values.sort((a, b) => a - b);
    return (values[(values.length - 1) >> 1] + values[values.length >> 1]) / 2;
  });
  const series = { days: Float64Array.from(DAYS), index: Float64Array.from(index), flags: new Uint8Array(DAYS.length).fill(SCENE_USABLE) };
  const troughs = seasonalTroughs(series, { start: DAY0, end: DAY0 + 5 * 365 - 1 }, op.seasons);
  const dipLines = { dipDepth: op.seasons.dipDepth, minPixels: op.blocks.minDipPixels, unlikeDays: op.blocks.unlike.dipDays, unlikeDepth: op.blocks.unlike.dipDepth };
  const dips = summariseBlocks(MASK, AFFINE, dipBlocks.map((blocks, l) => blockDips({ blocks, sums: sums[l], days: series.days, usable: series.flags, seasons: troughs.seasons }, dipLines)));
  return { height, radar, dips, troughs };
}

/** What the engine makes of the plot: the instruments' patches and the decision, radar confidently reading crop plot-wide. */
function judged(r: ReturnType<typeof readings>) {
  const result = {
    troughs: { ...r.troughs, dip_blocks: r.dips, part_without_dip: false },
    structure: { forest_like: false, blocks: null },
    radar: { forest_like: false, blocks: r.radar },
    height: { forest_like: null, between_lines: true, blocks: r.height },
  } as unknown as PlotTaskResult;
  const uneven = unevenGround(result, op.blocks.forestPart);
  const decision = decide({
    plot_area_km2: (SIDE * SIDE) / 1e6, area_known: true, cycle: r.troughs.cycle,
    shade: { forest_like: false, confident: true }, radar: { forest_like: false, confident: true, polarimetry_cultivated: false },
    height: { forest_like: null, confident: false, between_lines: true }, terrain_outside: false, context: NO_CONTEXT,
    uneven_part: uneven.length > 0,
  });
  return { uneven, decision };
}

const forestLike = (b: BlockSummary) => b.forest_like_pixels;

for (const share of [0.1, 0.2, 0.3]) {
  test(`a rubber block drawn ${share * 100}% into dry deciduous forest of 12 to 18 m is found unlike the rest and is not positive`, () => {
    const r = readings(DRY_FOREST, share);
    assert.equal(r.troughs.cycle, 'phase_locked', 'the plot as a whole winters in phase');
    assert.equal(forestLike(r.height), 0, 'no block of the dry forest stands as tall as the forest line');
    const { uneven, decision } = judged(r);
    const seen = uneven.map((u) => u.instrument);
    assert.ok(seen.includes('canopy height'), `canopy height finds the forest: ${seen.join(', ')}`);
    for (const u of uneven) {
      assert.ok(u.patch.share >= share - 0.02 && u.patch.share < share + 0.25, `${u.instrument}: ${u.patch.share}`);
      assert.ok(u.patch.offset_m[0] < -SIDE * 0.2, `${u.instrument} places it in the west: ${u.patch.offset_m}`);
    }
    assert.equal(decision.verdict, 'prior_management_weak');
    assert.deepEqual(decision.reasons, ['ground_not_shown_uniform', 'cycle_and_structure_agree']);
  });
}

test('the dry forest\'s earlier, deeper shedding sets it apart on the dip, and its radar return on radar, once it fills their blocks', () => {
  const { uneven } = judged(readings(DRY_FOREST, 0.3));
  assert.deepEqual(uneven.map((u) => u.instrument).sort(), ['canopy height', 'radar', 'the dry-season dip']);
});

for (const share of [0.1, 0.3]) {
  test(`a rubber block drawn ${share * 100}% into secondary forest of 10 to 20 m is found unlike the rest and is not positive`, () => {
    const r = readings(SECONDARY, share);
    assert.equal(forestLike(r.height), 0);
    const { uneven, decision } = judged(r);
    assert.ok(uneven.length > 0);
    assert.equal(decision.verdict, 'prior_management_weak');
    assert.equal(decision.reason, 'ground_not_shown_uniform');
  });
}

test('a plot of rubber throughout reads alike everywhere and stays positive', () => {
  const { uneven, decision } = judged(readings(RUBBER, 0));
  assert.deepEqual(uneven, []);
  assert.equal(decision.verdict, 'prior_management_evidenced');
});

test('a forest patch that shade locates is not overruled by radar and height reading crop plot-wide', () => {
  // Shade at the trough: a leafless plantation (red 0.12) with a dark evergreen patch (red 0.03) in its north-east ninth and more.
  const patch = (i: number) => i % W >= 18 && Math.floor(i / W) < 12;
  const red = Uint16Array.from({ length: W * W }, (_, i) => (patch(i) ? 300 : 1200));
  const nir = new Uint16Array(W * W).fill(3000);
  const fine = latticePair(SIDE, SIDE, op.blocks.fineCellM);
  const answers = fine.map((l) => {
    const blocks = blockIndex(MASK, AFFINE, l);
    const sums = sceneBlockSums(1, blockCount(l));
    addSceneBlocks({ mask: MASK, blocks, red, nir, reflectance: REFLECTANCE, clear: CLEAR, shade: ENDMEMBERS }, 0, sums);
    return shadeBlocks(blocks, sums, { shadeLine: op.structure.shadeLine, shadeMargin: op.structure.shadeMargin, minPixels: op.blocks.minFinePixels, unlike: op.blocks.unlike.shade });
  });
  const plotWide = { forest_like: false, confident: true, refusal: null };
  const shade = withForestPart(plotWide, summariseBlocks(MASK, AFFINE, answers), op.blocks.forestPart);
  assert.deepEqual([shade.forest_like, shade.located], [true, true]);
  const crop = { forest_like: false, confident: true };
  const d = decide({
    plot_area_km2: 0.09, area_known: true, cycle: 'phase_locked', shade, radar: { ...crop, polarimetry_cultivated: false },
    height: { ...crop, between_lines: false }, terrain_outside: false, context: { ...NO_CONTEXT, record_cleared_by_2015: true, eu_maps_at_most_a_tenth_forest: true },
  });
  assert.deepEqual([d.verdict, d.reasons], ['prior_management_weak', ['structural_reading_says_forest']]);
});

test('a deciduous ring around a deciduous crop dips as the plot does, and the plot is not positive', () => {
  // The plot and its surroundings, each one block of 100 clear pixels a scene; `ring` the ring's cover.
  const judge = (ring: (day: number) => number) => {
    const sums = sceneBlockSums(DAYS.length, 1);
    DAYS.forEach((day, k) => {
      sums.ndvi[k] = 100 * ring(day);
      sums.count[k] = 100;
    });
    const series = { days: Float64Array.from(DAYS), index: Float64Array.from(DAYS, (d) => ndviOn(DRY_FOREST, d)), flags: new Uint8Array(DAYS.length).fill(SCENE_USABLE) };
    const troughs = seasonalTroughs(series, { start: DAY0, end: DAY0 + 5 * 365 - 1 }, op.seasons);
    assert.equal(troughs.cycle, 'phase_locked');
    return ringDip({ sums, days: series.days, usable: series.flags, seasons: troughs.seasons }, { dipDepth: op.seasons.dipDepth, sameDays: op.blocks.unlike.dipDays, sameDepth: op.blocks.unlike.dipDepth });
  };
  const deciduous = judge((d) => ndviOn(DRY_FOREST, d) - 0.01);
  assert.deepEqual(deciduous, { seasons_seen: 5, seasons_same: 5, same: true });
  const d = decide({
    plot_area_km2: 0.09, area_known: true, cycle: 'phase_locked', shade: { forest_like: false, confident: true },
    radar: { forest_like: false, confident: true, polarimetry_cultivated: false }, height: { forest_like: null, confident: false, between_lines: true },
    terrain_outside: false, context: NO_CONTEXT, ring_shares_dip: deciduous.same,
  });
  assert.deepEqual([d.verdict, d.reason], ['prior_management_weak', 'surroundings_show_the_same_dip']);
  // An evergreen ring, a ring shedding two months apart, and a forest ring a third of it rubber do not share the dip.
  assert.equal(judge((d) => ndviOn(SECONDARY, d)).same, false);
  assert.equal(judge((d) => ndviOn({ ...DRY_FOREST, dipDoy: DRY_FOREST.dipDoy + 60 }, d)).same, false);
  assert.equal(judge((d) => (2 * ndviOn(SECONDARY, d) + ndviOn(DRY_FOREST, d)) / 3).same, false);
});
