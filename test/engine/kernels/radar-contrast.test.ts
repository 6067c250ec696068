import { test } from 'node:test';
import assert from 'node:assert/strict';
import { radarContrast, type RadarInput, type RadarLines } from '../../../src/engine/kernels/radar-contrast.ts';
import { rasteriseMask, ringMask } from '../../../src/engine/kernels/rasterise-mask.ts';

const LINES: RadarLines = {
  thresholdDb: -2,
  marginSigmas: 0.5,
  forestQuantile: 0.5,
  forestBaselineMinDb: -16,
  evergreenHhHvMinDb: 7,
  cropMaxHvDb: -14,
  minPlotPixels: 6,
  minRingPixels: 100,
};
const CF = 83;
const W = 60;
const dnOf = (db: number): number => Math.round(10 ** ((db + CF) / 20));
const dbOf = (dn: number): number => 20 * Math.log10(dn) - CF;
const LAND = (() => {
  const lookup = new Uint8Array(256);
  lookup[255] = 1;
  return lookup;
})();

const plot = rasteriseMask({ type: 'Polygon', coordinates: [[[25, 25], [35, 25], [35, 35], [25, 35]]] }, W, W);
const ring = ringMask(plot, 15, 2);

/** HV and HH in dB per pixel: `plotDb` inside the plot, `ringDb` elsewhere; speckle alternates ±1 dB. */
function scene(plotHv: (i: number) => number, aroundHv: (i: number) => number, hhOverHv = 5.5): RadarInput {
  const hv = new Uint16Array(W * W);
  const hh = new Uint16Array(W * W);
  for (let i = 0; i < W * W; i++) {
    const speckle = (i + Math.floor(i / W)) % 2 === 0 ? 1 : -1;
    const db = (plot.inside[i] ? plotHv(i) : aroundHv(i)) + speckle;
    hv[i] = dnOf(db);
    hh[i] = dnOf(db + hhOverHv);
  }
  return { plot, ring, hv, hh, nodata: 1, calibrationDb: CF, usable: { classes: new Uint8Array(W * W).fill(255), lookup: LAND } };
}

// Reference mean in linear power over a mask, from the DN actually stored.
function meanDb(dn: Uint16Array, bits: Uint8Array, pick: (v: number) => boolean = () => true): number {
  let p = 0;
  let n = 0;
  for (let i = 0; i < dn.length; i++) {
    if (!bits[i] || !pick(dn[i])) continue;
    p += dn[i] * dn[i];
    n++;
  }
  return 10 * Math.log10(p / n) - CF;
}

test('a plot well below the forest around it reads crop, confidently, in dB of linear means', () => {
  const input = scene(() => -17, () => -12);
  const r = radarContrast(input, LINES);
  assert.ok(Math.abs((r.plot_hv_db as number) - meanDb(input.hv, plot.inside)) < 1e-9);
  assert.ok(Math.abs((r.local_forest_baseline_db as number) - (-12)) < 0.7);
  assert.ok((r.plot_minus_local_forest_db as number) < -4);
  assert.equal(r.forest_like, false);
  assert.equal(r.confident, true);
  assert.equal(r.plot_pixels, 100);
  assert.equal(r.ring_pixels, ring.count);
  assert.ok(Math.abs((r.sigma_db as number) - 1) < 0.05, `sigma ${r.sigma_db}`);
  assert.equal(r.refusal, null);
});

test('averaging is done in linear power, not in dB', () => {
  const r = radarContrast(scene((i) => (i % 2 ? -10 : -20), () => -12), LINES);
  // Half at -10 dB and half at -20 dB (each ±1 dB) average near -12.6 dB in power; a dB mean would say -15.
  assert.ok((r.plot_hv_db as number) > -13.2 && (r.plot_hv_db as number) < -12.2, `${r.plot_hv_db}`);
});

test('a plot as bright as the forest around it reads forest-like', () => {
  const r = radarContrast(scene(() => -12.3, () => -12), LINES);
  assert.equal(r.forest_like, true);
  assert.equal(r.confident, true);
});

test('a plot sitting on the line answers without confidence', () => {
  const around = scene(() => -12, () => -12);
  const baseline = radarContrast(around, LINES).local_forest_baseline_db as number;
  const r = radarContrast(scene(() => baseline - 2.1, () => -12), LINES);
  assert.notEqual(r.forest_like, null);
  assert.equal(r.confident, false);
});

test('the baseline is the forest in a partly cleared ring, not the ring average', () => {
  const input = scene(() => -16, (i) => (i % W < 36 ? -12 : -21));
  const r = radarContrast(input, LINES);
  const forestOnly = meanDb(input.hv, ring.inside, (v) => dbOf(v) > -16);
  assert.ok(Math.abs((r.local_forest_baseline_db as number) - forestOnly) < 0.3, `${r.local_forest_baseline_db} vs ${forestOnly}`);
  assert.ok((r.local_forest_baseline_db as number) > meanDb(input.hv, ring.inside) + 1);
});

test('a ring without closed forest refuses to answer but keeps its readings', () => {
  const r = radarContrast(scene(() => -20, () => -19), LINES);
  assert.equal(r.forest_like, null);
  assert.match(r.refusal as string, /no closed forest/i);
  assert.notEqual(r.local_forest_baseline_db, null);
  assert.notEqual(r.plot_hv_db, null);
});

test('HH over HV at or above the evergreen line says a cultivated canopy', () => {
  const palm = radarContrast(scene(() => -14, () => -12, 8), LINES);
  assert.ok(Math.abs((palm.hh_hv_db as number) - 8) < 0.05);
  assert.equal(palm.polarimetry_cultivated, true);
  const forest = radarContrast(scene(() => -12, () => -12, 5.5), LINES);
  assert.equal(forest.polarimetry_cultivated, false);
});

test('no-data, zero and unusable (layover) pixels are not read', () => {
  const input = scene(() => -17, () => -12);
  const classes = input.usable.classes as Uint8Array;
  const first = plot.spans[0];
  input.hv[first] = 1; // no data since 2017
  input.hv[first + 1] = 0; // never read
  classes[first + 2] = 100; // radar layover
  const r = radarContrast(input, LINES);
  assert.equal(r.plot_pixels, 97);
  const kept = plot.inside.slice();
  kept[first] = kept[first + 1] = kept[first + 2] = 0;
  assert.ok(Math.abs((r.plot_hv_db as number) - meanDb(input.hv, kept)) < 1e-9);
});

test('too few plot pixels or ring pixels refuse with a sentence', () => {
  const few = scene(() => -17, () => -12);
  (few.usable.classes as Uint8Array).fill(0);
  const none = radarContrast(few, LINES);
  assert.equal(none.forest_like, null);
  assert.equal(none.plot_hv_db, null);
  assert.match(none.refusal as string, /inside the plot/);
  const noRing = radarContrast({ ...scene(() => -17, () => -12), ring: rasteriseMask({ type: 'Polygon', coordinates: [[[0, 0], [5, 0], [5, 5], [0, 5]]] }, W, W) }, LINES);
  assert.equal(noRing.local_forest_baseline_db, null);
  assert.equal(noRing.forest_like, null);
  assert.match(noRing.refusal as string, /around the plot/);
});

test('an empty plot mask answers no value, never NaN', () => {
  const empty = rasteriseMask({ type: 'Polygon', coordinates: [[[70, 70], [80, 70], [80, 80]]] }, W, W);
  const r = radarContrast({ ...scene(() => -17, () => -12), plot: empty }, LINES);
  assert.equal(r.plot_pixels, 0);
  assert.deepEqual([r.plot_hv_db, r.plot_minus_local_forest_db, r.hh_hv_db, r.forest_like, r.polarimetry_cultivated], [null, null, null, null, null]);
  assert.ok(r.refusal);
});

test('one call leaves nothing behind for the next', () => {
  const a = scene(() => -17, () => -12);
  const first = radarContrast(a, LINES);
  radarContrast(scene(() => -9, () => -25), LINES);
  assert.deepEqual(radarContrast(a, LINES), first);
});

test('a plot darker than its forest ring but as bright as a secondary or dry forest can be gives no crop answer', () => {
  // A dry deciduous forest of −13 dB beside a closed evergreen ring of −10.5 dB: 2.5 dB under it.
  const dry = radarContrast(scene(() => -13, () => -10.5), LINES);
  assert.ok((dry.plot_minus_local_forest_db as number) < LINES.thresholdDb);
  assert.deepEqual([dry.forest_like, dry.confident, dry.compared], [null, false, true]);
  assert.match(dry.refusal as string, /cannot tell a crop from forest/);
  // Under every forest type's return, the same contrast confirms a crop.
  const crop = radarContrast(scene(() => -15.5, () => -12), LINES);
  assert.deepEqual([crop.forest_like, crop.confident, crop.refusal], [false, true, null]);
});
