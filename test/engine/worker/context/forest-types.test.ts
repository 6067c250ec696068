import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskFromBits } from '../../../../src/engine/kernels/rasterise-mask.ts';
import { forestTypesNotRead } from '../../../../src/engine/context/forest-types.ts';
import { readForestTypes } from '../../../../src/engine/worker/context/forest-types.ts';

const PROVENANCE = { source: 'JRC Global Forest Types 2020', licence: 'attribution', citation: 'Bourgoin et al.' };
const all = (n: number) => maskFromBits(new Uint8Array(n).fill(1), n, 1);

/** A plot of `n` pixels: GFT classes as given, GFC forest wherever GFT names a forest class. */
function plot(gftValues: number[]) {
  const gft = Uint8Array.from(gftValues);
  const gfc = Uint8Array.from(gftValues, (v) => (v === 0 ? 0 : 1));
  return readForestTypes({ gftMask: all(gft.length), gft, gfcMask: all(gfc.length), gfc, coverage: 1, provenance: PROVENANCE });
}
const fill = (counts: Record<number, number>) => Object.entries(counts).flatMap(([v, n]) => Array<number>(n).fill(Number(v)));

test('shares of primary, naturally regenerating, planted and not forest', () => {
  const r = plot(fill({ 10: 2, 1: 3, 20: 1, 0: 4 }));
  assert.deepEqual(
    { ...r.forest_types },
    { available: true, primary: 0.2, naturally_regenerating: 0.3, planted: 0.1, not_forest: 0.4, ...PROVENANCE, coverage: 1 },
  );
});

test('most of the plot planted forest withholds as planted_forest_2020; exactly half does not', () => {
  assert.equal(plot(fill({ 20: 7, 0: 3 })).facts.planted_forest_2020, true);
  assert.equal(plot(fill({ 20: 5, 0: 5 })).facts.planted_forest_2020, false);
});

test('at least half forest on the 2020 maps withholds as eu_forest_maps_read_forest', () => {
  assert.equal(plot(fill({ 1: 5, 0: 5 })).facts.eu_forest_maps_read_forest, true);
  assert.equal(plot(fill({ 1: 4, 0: 6 })).facts.eu_forest_maps_read_forest, false);
  // Either map is enough: GFC forest on half the plot where GFT names no forest type.
  const gft = new Uint8Array(10);
  const gfc = Uint8Array.from(fill({ 1: 5, 0: 5 }));
  assert.equal(readForestTypes({ gftMask: all(10), gft, gfcMask: all(10), gfc, coverage: 1, provenance: PROVENANCE }).facts.eu_forest_maps_read_forest, true);
});

test('at most a tenth forest on both maps lets structure overrule the shade veto', () => {
  assert.equal(plot(fill({ 1: 1, 0: 9 })).facts.eu_maps_at_most_a_tenth_forest, true);
  assert.equal(plot(fill({ 1: 2, 0: 8 })).facts.eu_maps_at_most_a_tenth_forest, false);
  // GFT reads no forest but GFC puts a fifth of the plot in forest: not both maps.
  const gfc = Uint8Array.from(fill({ 1: 2, 0: 8 }));
  assert.equal(readForestTypes({ gftMask: all(10), gft: new Uint8Array(10), gfcMask: all(10), gfc, coverage: 1, provenance: PROVENANCE }).facts.eu_maps_at_most_a_tenth_forest, false);
});

test('maps that cannot be read withhold nothing and overrule nothing', () => {
  const r = forestTypesNotRead(PROVENANCE, 'HTTP 503');
  assert.equal(r.forest_types.available, false);
  assert.equal(r.forest_types.planted, null);
  assert.match(r.forest_types.note!, /nothing is withheld/);
  assert.deepEqual(r.facts, { planted_forest_2020: false, eu_forest_maps_read_forest: false, eu_maps_at_most_a_tenth_forest: false });
  const empty = readForestTypes({ gftMask: maskFromBits(new Uint8Array(4), 4, 1), gft: new Uint8Array(4), gfcMask: maskFromBits(new Uint8Array(4), 4, 1), gfc: new Uint8Array(4), coverage: 0, provenance: PROVENANCE });
  assert.equal(empty.forest_types.available, false);
  assert.equal(empty.facts.eu_maps_at_most_a_tenth_forest, false);
});

test('maps read over under 95% of the plot give no share and no fact: the unread part is never "not forest"', () => {
  // A tenth of forest over the read pixels would unlock the shade override; read over 90% of the plot it does not.
  const gft = Uint8Array.from(fill({ 1: 1, 0: 9 }));
  const gfc = Uint8Array.from(gft, (v) => (v === 0 ? 0 : 1));
  const partial = readForestTypes({ gftMask: all(10), gft, gfcMask: all(10), gfc, coverage: 0.9, provenance: PROVENANCE });
  assert.deepEqual([partial.forest_types.available, partial.forest_types.not_forest, partial.forest_types.coverage], [false, null, 0.9]);
  assert.match(partial.forest_types.note!, /data for 90% of the plot, under the 95%/);
  assert.deepEqual(partial.facts, { planted_forest_2020: false, eu_forest_maps_read_forest: false, eu_maps_at_most_a_tenth_forest: false });
  const whole = readForestTypes({ gftMask: all(10), gft, gfcMask: all(10), gfc, coverage: 0.95, provenance: PROVENANCE });
  assert.deepEqual([whole.forest_types.available, whole.forest_types.coverage, whole.facts.eu_maps_at_most_a_tenth_forest], [true, 0.95, true]);
});
