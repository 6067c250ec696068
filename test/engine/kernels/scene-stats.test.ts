import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';
import {
  CLEAR_MASK_LOOKUP,
  SCENE_HAZY,
  SCENE_USABLE,
  qaAerosolLookups,
  qaPixelClearLookup,
  sceneFlags,
  sceneStats,
  sclClearLookup,
  type SceneStatsInput,
} from '../../../src/engine/kernels/scene-stats.ts';
import { utcDay } from '../../../src/engine/kernels/days.ts';
import { seasonalTroughs } from '../../../src/engine/kernels/seasonal-troughs.ts';
import { operatingPoints as op } from '../../../src/engine/operating-points.ts';

const S2 = { scale: 0.0001, offset: -0.1, nodata: 0 };
const ENDMEMBERS = { vegetation: [0.04, 0.5], soil: [0.25, 0.3] } as const;
const dn = (reflectance: number): number => Math.round((reflectance + 0.1) / 0.0001);

// Shade by solving the three-endmember mixture directly, as the reference.
function shadeOf(red: number, nir: number): number {
  const [vr, vn] = ENDMEMBERS.vegetation;
  const [sr, sn] = ENDMEMBERS.soil;
  const det = vr * sn - sr * vn;
  const fv = (red * sn - sr * nir) / det;
  const fs = (vr * nir - vn * red) / det;
  return Math.min(1, Math.max(0, 1 - fv - fs));
}

/** A 10×10 window, plot = the left 8 columns; pixels given by a function of (col, row). */
function scene(pixel: (c: number, r: number) => { red: number; nir: number; clear: boolean; aot?: number }): SceneStatsInput {
  const red = new Uint16Array(100);
  const nir = new Uint16Array(100);
  const clear = new Uint8Array(100);
  const aot = new Uint16Array(100);
  const inside = new Uint8Array(100);
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 10; c++) {
      const i = r * 10 + c;
      const p = pixel(c, r);
      red[i] = p.red < 0 ? 0 : dn(p.red);
      nir[i] = p.nir < 0 ? 0 : dn(p.nir);
      clear[i] = p.clear ? 1 : 0;
      aot[i] = p.aot === undefined ? 0 : Math.round(p.aot / 0.001);
      inside[i] = c < 8 ? 1 : 0;
    }
  }
  return {
    mask: maskFromBits(inside, 10, 10),
    red,
    nir,
    reflectance: S2,
    clear: { classes: clear, lookup: CLEAR_MASK_LOOKUP },
    shade: ENDMEMBERS,
    aot: { values: aot, encoding: { scale: 0.001, offset: 0, nodata: 0 } },
  };
}

test('the NDVI median reads clear plot pixels only, with the BOA offset applied', () => {
  // Clear plot rows 0-5 carry NDVI rising with the column; cloudy rows and pixels outside the plot are bright and flat.
  const input = scene((c, r) => (r < 6 ? { red: 0.03 + 0.002 * c, nir: 0.3, clear: true } : { red: 0.3, nir: 0.32, clear: c >= 8 }));
  const stats = sceneStats(input);
  const ndvis: number[] = [];
  for (let c = 0; c < 8; c++) {
    const red = (dn(0.03 + 0.002 * c)) * 0.0001 - 0.1;
    const nir = dn(0.3) * 0.0001 - 0.1;
    for (let r = 0; r < 6; r++) ndvis.push((nir - red) / (nir + red));
  }
  ndvis.sort((a, b) => a - b);
  const median = (ndvis[23] + ndvis[24]) / 2;
  assert.equal(stats.pixels, 80);
  assert.equal(stats.clear_pixels, 48);
  assert.equal(stats.clear_fraction, 48 / 80);
  assert.ok(Math.abs((stats.ndvi_median as number) - median) <= 0.0005, `median ${stats.ndvi_median} vs ${median}`);
});

test('shade is the mean clamped shade fraction of the clear pixels', () => {
  const forest = { red: 0.03, nir: 0.3 };
  const litter = { red: 0.12, nir: 0.3 };
  const bright = { red: 0.3, nir: 0.6 };
  const stats = sceneStats(scene((c) => ({ ...(c < 4 ? forest : c < 6 ? litter : bright), clear: true })));
  const want = (4 * shadeOf(0.03, 0.3) + 2 * shadeOf(0.12, 0.3) + 2 * shadeOf(0.3, 0.6)) / 8;
  assert.equal(shadeOf(0.3, 0.6), 0, 'a pixel brighter than both endmembers clamps to no shade');
  assert.ok(Math.abs((stats.shade_fraction as number) - want) < 1e-3, `${stats.shade_fraction} vs ${want}`);
  assert.ok(Math.abs(shadeOf(0.03, 0.3) - 0.39) < 0.01);
});

test('no-data reflectance is not clear, and AOT is averaged over plot pixels that carry one', () => {
  const stats = sceneStats(scene((c, r) => ({ red: r === 0 ? -1 : 0.05, nir: 0.35, clear: true, aot: c < 4 ? 0.2 : c < 8 ? 0.6 : 3 })));
  assert.equal(stats.clear_pixels, 72);
  assert.ok(Math.abs((stats.aot_mean as number) - 0.4) < 1e-9);
  const noAot = sceneStats({ ...scene(() => ({ red: 0.05, nir: 0.35, clear: true })), aot: null });
  assert.equal(noAot.aot_mean, null);
});

test('an empty mask answers no value, never NaN', () => {
  const input = scene(() => ({ red: 0.05, nir: 0.35, clear: true }));
  const stats = sceneStats({ ...input, mask: maskFromBits(new Uint8Array(100), 10, 10) });
  assert.deepEqual(stats, { pixels: 0, clear_pixels: 0, clear_fraction: null, ndvi_median: null, shade_fraction: null, aot_mean: null, hazy_share: null });
  assert.equal(sceneFlags(stats, { minClearFraction: 0, minPixels: 0, maxAot: 1.2, hazeAot: 0.5, maxHazyShare: 0.5 }), 0);
});

test('an overcast scene has a clear fraction of zero and no index', () => {
  const stats = sceneStats(scene(() => ({ red: 0.05, nir: 0.35, clear: false })));
  assert.equal(stats.clear_fraction, 0);
  assert.equal(stats.ndvi_median, null);
});

test('SCL classes decide clear pixels through their lookup', () => {
  const lookup = sclClearLookup([4, 5, 6]);
  const input = scene(() => ({ red: 0.05, nir: 0.35, clear: true }));
  const scl = new Uint8Array(100).fill(4);
  scl.fill(9, 0, 10); // cloud high probability over the first row
  scl.fill(3, 10, 15); // cloud shadow
  const stats = sceneStats({ ...input, clear: { classes: scl, lookup } });
  assert.equal(stats.clear_pixels, 80 - 8 - 5);
  assert.deepEqual([...lookup].flatMap((v, k) => (v ? [k] : [])), [4, 5, 6]);
});

test('Landsat QA_PIXEL words are clear with the clear bit set and no cloud, shadow, cirrus, snow or fill bit', () => {
  const lookup = qaPixelClearLookup([6], [0, 1, 2, 3, 4, 5]);
  assert.equal(lookup[0b0101_0100_0000], 1); // clear, low cloud confidence
  assert.equal(lookup[1 << 6], 1);
  assert.equal(lookup[(1 << 6) | (1 << 4)], 0); // shadow
  assert.equal(lookup[(1 << 6) | (1 << 2)], 0); // cirrus
  assert.equal(lookup[1 << 3], 0); // cloud, clear bit off
  assert.equal(lookup[1], 0); // fill
});

test('a scene is usable when the clear fraction and the clear pixel count both reach their lines', () => {
  const stats = sceneStats(scene((c, r) => ({ red: 0.05, nir: 0.35, clear: r < 7 })));
  assert.equal(sceneFlags(stats, { minClearFraction: 0.7, minPixels: 56, maxAot: 1.2, hazeAot: 0.5, maxHazyShare: 0.5 }), SCENE_USABLE);
  assert.equal(sceneFlags(stats, { minClearFraction: 0.71, minPixels: 56, maxAot: 1.2, hazeAot: 0.5, maxHazyShare: 0.5 }), 0);
  assert.equal(sceneFlags(stats, { minClearFraction: 0.7, minPixels: 57, maxAot: 1.2, hazeAot: 0.5, maxHazyShare: 0.5 }), 0);
});

test('collinear endmembers are refused', () => {
  const input = scene(() => ({ red: 0.05, nir: 0.35, clear: true }));
  assert.throws(() => sceneStats({ ...input, shade: { vegetation: [0.1, 0.2], soil: [0.2, 0.4] } }), RangeError);
});

test('a scene seen through air hazier than the line is not usable; at the line it is, read through haze; without AOT (Landsat) it is', () => {
  const lines = { minClearFraction: 0.7, minPixels: 10, maxAot: 1.2, hazeAot: 0.5, maxHazyShare: 0.5 };
  const at = (aot: number) => sceneFlags(sceneStats(scene(() => ({ red: 0.05, nir: 0.35, clear: true, aot }))), lines);
  assert.equal(at(0.15), SCENE_USABLE);
  assert.equal(at(0.5), SCENE_USABLE);
  assert.equal(at(1.2), SCENE_USABLE | SCENE_HAZY);
  assert.equal(at(1.25), 0);
  const landsat = sceneStats({ ...scene(() => ({ red: 0.05, nir: 0.35, clear: true })), aot: null });
  assert.equal(landsat.aot_mean, null);
  assert.equal(sceneFlags(landsat, lines), SCENE_USABLE);
});

test('hazy scenes off the trough are dropped from the series, so haze that lowers NDVI each year does not read as a wintering', () => {
  // An evergreen canopy seen every 10 days; each September two neighbouring scenes are seen through
  // smoke (AOT 1.6) whose path radiance lifts red more than near-infrared: NDVI falls by about 0.25.
  const period = { start: utcDay('2016-01-01'), end: utcDay('2020-12-31') };
  const days: number[] = [];
  const index: number[] = [];
  const flags: number[] = [];
  const unscreened: number[] = [];
  const lines = op.scenes;
  for (let d = period.start; d <= period.end; d += 10) {
    const doy = (d - utcDay(`${new Date(d * 86_400_000).getUTCFullYear()}-01-01`));
    const smoke = doy >= 250 && doy < 270;
    const stats = sceneStats(scene(() => (smoke ? { red: 0.09, nir: 0.3, clear: true, aot: 1.6 } : { red: 0.04, nir: 0.36, clear: true, aot: 0.15 })));
    days.push(d);
    index.push(stats.ndvi_median as number);
    flags.push(sceneFlags(stats, lines));
    unscreened.push(sceneFlags(stats, { ...lines, maxAot: Infinity, hazeAot: Infinity }));
  }
  const series = (f: number[]) => ({ days: Int32Array.from(days), index: Float64Array.from(index), flags: Uint8Array.from(f) });
  assert.equal(seasonalTroughs(series(unscreened), period, op.seasons).cycle, 'phase_locked');
  const screened = seasonalTroughs(series(flags), period, op.seasons);
  assert.equal(screened.seasons_with_dip, 0);
  assert.equal(screened.cycle, 'no_cycle');
  assert.equal(flags.filter((f) => f === 0).length, 10);
});

/**
 * Five years of an evergreen canopy seen every 10 days whose every dry season (late February)
 * brings two neighbouring scenes of haze under the line that drops a scene (smoke lifts red, NDVI
 * falls by about 0.25): on Sentinel-2 an AOT of 0.8, on Landsat 8/9 no AOT but its aerosol band at
 * a high level over the plot.
 */
function hazyEvergreen(sensor: 'sentinel-2' | 'landsat') {
  const period = { start: utcDay('2016-01-01'), end: utcDay('2020-12-31') };
  const days: number[] = [];
  const index: number[] = [];
  const flags: number[] = [];
  const aerosol = qaAerosolLookups(op.scenes.landsatAerosolHazyLevels);
  for (let d = period.start; d <= period.end; d += 10) {
    const doy = d - utcDay(`${new Date(d * 86_400_000).getUTCFullYear()}-01-01`);
    const haze = doy >= 50 && doy < 70;
    const input = scene(() => (haze ? { red: 0.09, nir: 0.3, clear: true, aot: 0.8 } : { red: 0.04, nir: 0.36, clear: true, aot: 0.1 }));
    // Landsat SR_QA_AEROSOL: bit 1 a valid retrieval, bits 6–7 the level (1 low, 3 high).
    const qa = new Uint8Array(100).fill(haze ? 0b1100_0010 : 0b0100_0010);
    const stats = sceneStats(sensor === 'sentinel-2' ? input : { ...input, aot: null, aerosolQa: { values: qa, ...aerosol } });
    days.push(d);
    index.push(stats.ndvi_median as number);
    flags.push(sceneFlags(stats, op.scenes));
  }
  const series = { days: Int32Array.from(days), index: Float64Array.from(index), flags: Uint8Array.from(flags) };
  return { series, period, flags };
}

for (const sensor of ['sentinel-2', 'landsat'] as const) {
  test(`haze at the trough of an evergreen canopy on ${sensor}: the scenes stay in the series, but the dip they show does not count`, () => {
    const { series, period, flags } = hazyEvergreen(sensor);
    assert.equal(flags.filter((f) => f === (SCENE_USABLE | SCENE_HAZY)).length, 10, 'two hazy scenes a year, kept and flagged');
    assert.ok(flags.every((f) => (f & SCENE_USABLE) !== 0), 'under the line that drops a scene');
    const unscreened = seasonalTroughs({ ...series, flags: series.flags.map((f) => f & SCENE_USABLE) }, period, op.seasons);
    assert.equal(unscreened.cycle, 'phase_locked', 'read as clear air, the haze makes a wintering');
    const screened = seasonalTroughs(series, period, op.seasons);
    assert.equal(screened.seasons_with_dip, 0);
    assert.notEqual(screened.cycle, 'phase_locked');
    assert.ok(screened.seasons.every((s) => !s.dipped && (s.no_answer || s.truncated)), 'a season whose dip only haze shows gives no answer');
  });
}

test('a dip the clear scenes show still counts when haze falls on the trough too', () => {
  // Rubber wintering for six weeks from mid-February; haze over two scenes at its lowest.
  const period = { start: utcDay('2016-01-01'), end: utcDay('2020-12-31') };
  const days: number[] = [];
  const index: number[] = [];
  const flags: number[] = [];
  for (let d = period.start; d <= period.end; d += 10) {
    const doy = d - utcDay(`${new Date(d * 86_400_000).getUTCFullYear()}-01-01`);
    const leafless = doy >= 40 && doy < 85;
    const haze = doy >= 55 && doy < 75;
    const stats = sceneStats(scene(() => (leafless ? { red: 0.12, nir: 0.3, clear: true, aot: haze ? 0.8 : 0.1 } : { red: 0.035, nir: 0.38, clear: true, aot: 0.1 })));
    days.push(d);
    index.push(stats.ndvi_median as number);
    flags.push(sceneFlags(stats, op.scenes));
  }
  const t = seasonalTroughs({ days: Int32Array.from(days), index: Float64Array.from(index), flags: Uint8Array.from(flags) }, period, op.seasons);
  assert.equal(t.cycle, 'phase_locked');
  for (const s of t.seasons.filter((x) => x.dipped)) assert.equal(flags[s.trough_scene as number], SCENE_USABLE, 'the trough is read in clear air');
});

test('the aerosol band calls a pixel hazy only at the levels named, and never where it is fill', () => {
  const { retrieved, hazy } = qaAerosolLookups([3]);
  assert.deepEqual([retrieved[0b1100_0010], hazy[0b1100_0010]], [1, 1]);
  assert.deepEqual([retrieved[0b1000_0010], hazy[0b1000_0010]], [1, 0], 'medium');
  assert.deepEqual([retrieved[1], hazy[1]], [0, 0], 'fill');
  assert.deepEqual([retrieved[0b1100_0001], hazy[0b1100_0001]], [0, 0], 'fill with a level');
});
