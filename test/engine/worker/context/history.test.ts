import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskFromBits } from '../../../../src/engine/kernels/rasterise-mask.ts';
import { type HistoryLayers, historyNotRead } from '../../../../src/engine/context/history.ts';
import { readHistory } from '../../../../src/engine/worker/context/history.ts';

const PROVENANCE = { source: 'JRC Tropical Moist Forest', version: 'v1_2025', licence: 'free', citation: 'Vancutsem et al. 2021', acknowledgement: 'Source: EC JRC' };

/** Per-pixel histories, one pixel each, all inside the plot. */
type Pixel = { y1990: number; y2020: number; def?: number; deg?: number; main: number; sub?: number };

function layersOf(pixels: Pixel[]): HistoryLayers {
  return {
    AnnualChange_1990: Uint8Array.from(pixels, (p) => p.y1990),
    AnnualChange_2020: Uint8Array.from(pixels, (p) => p.y2020),
    DeforestationYear: Uint16Array.from(pixels, (p) => p.def ?? 0),
    DegradationYear: Uint16Array.from(pixels, (p) => p.deg ?? 0),
    TransitionMap_MainClasses: Uint8Array.from(pixels, (p) => p.main),
    TransitionMap_Subtypes: Uint8Array.from(pixels, (p) => p.sub ?? p.main),
  };
}

const repeat = (n: number, p: Pixel): Pixel[] => Array.from({ length: n }, () => ({ ...p }));
const FOREST: Pixel = { y1990: 1, y2020: 1, main: 10 };
const NEVER: Pixel = { y1990: 6, y2020: 6, main: 70 };
const RUBBER_1996: Pixel = { y1990: 1, y2020: 3, def: 1996, main: 41, sub: 81 };

/** The record over `pixels` (those listed in `inside`, or all); the plot has `plotPixels` pixels on the grid, those inside by default. */
function read(pixels: Pixel[], inside?: number[], plotAreaHa = 10, plot: { plotPixels?: number; requiredGround?: boolean } = {}) {
  const bits = new Uint8Array(pixels.length).fill(inside ? 0 : 1);
  for (const i of inside ?? []) bits[i] = 1;
  const mask = maskFromBits(bits, pixels.length, 1);
  return readHistory({
    mask, layers: layersOf(pixels), tile: 'N10_E90', plotAreaHa, plotPixels: plot.plotPixels ?? mask.count, requiredGround: plot.requiredGround ?? false, provenance: PROVENANCE,
  });
}

test('classes at the end of 1990 and 2020, moist forest and never-forest shares, and the plantation share of 2025', () => {
  const r = read([...repeat(6, FOREST), ...repeat(10, RUBBER_1996), ...repeat(4, NEVER)]);
  const h = r.history;
  assert.equal(h.checked, true);
  assert.equal(h.available, true);
  assert.equal(h.pixels, 20);
  assert.deepEqual(h.classes_1990, { undisturbed_forest: 0.8, degraded_forest: 0, deforested_land: 0, regrowth: 0, water: 0, other_land_cover: 0.2 });
  assert.deepEqual(h.classes_2020, { undisturbed_forest: 0.3, degraded_forest: 0, deforested_land: 0.5, regrowth: 0, water: 0, other_land_cover: 0.2 });
  assert.equal(h.moist_forest_2020_share, 0.3);
  assert.equal(h.never_moist_forest_share, 0.2);
  assert.equal(h.plantation_2025_share, 0.5);
  assert.equal(h.note_on_read, null);
  assert.match(h.reading[0], /end of 2020, 30% of the plot was moist forest/);
  assert.ok(h.reading.length >= 1 && h.reading.length <= 4);
});

test('deforestation and degradation years are split at the cutoff', () => {
  const pixels = [
    ...repeat(2, { y1990: 1, y2020: 3, def: 2003, main: 43 }),
    ...repeat(3, { y1990: 1, y2020: 3, def: 2010, main: 43 }),
    ...repeat(1, { y1990: 1, y2020: 1, def: 2022, main: 50 }),
    ...repeat(3, { y1990: 1, y2020: 2, deg: 2019, main: 20 }),
    ...repeat(1, { y1990: 1, y2020: 1, deg: 2023, main: 20 }),
  ];
  const h = read(pixels).history;
  assert.deepEqual(h.deforestation_year, {
    share_ever: 0.6, share_before_2021: 0.5, share_2021_or_later: 0.1, year_min: 2003, year_median: 2010, year_max: 2022,
    before_2021: { year_min: 2003, year_median: 2010, year_max: 2010 },
    from_2021: { year_min: 2022, year_median: 2022, year_max: 2022 },
  });
  assert.equal(h.degradation_year!.share_before_2021, 0.3);
  assert.deepEqual(h.degradation_year!.from_2021, { year_min: 2023, year_median: 2023, year_max: 2023 });
});

test('the last moist-forest year is the year before the clearing, or the record end for forest still standing', () => {
  const pixels = [...repeat(3, { y1990: 1, y2020: 3, def: 2008, main: 41 }), ...repeat(1, { y1990: 1, y2020: 1, def: 2022, main: 43 }), ...repeat(1, FOREST), ...repeat(5, NEVER)];
  const last = read(pixels).history.last_moist_forest_year!;
  assert.equal(last.median, 2007);
  assert.equal(last.max, 2025);
  // Of the five pixels ever moist forest, two still were at the end of 2020.
  assert.equal(last.share_at_cutoff, 0.4);
});

const NO_CLASS: Pixel = { y1990: 0, y2020: 0, main: 0 };

test('pixels without a class are dropped, not counted as other land cover', () => {
  const h = read([...repeat(57, FOREST), ...repeat(19, NEVER), ...repeat(4, NO_CLASS)]).history;
  assert.equal(h.pixels, 80);
  assert.equal(h.coverage, 0.95);
  assert.equal(h.classes_2020!.undisturbed_forest, 0.75);
  assert.equal(h.classes_2020!.other_land_cover, 0.25);
});

test('classes over under 95% of the plot give no share: not available, the share read stated, and unread ground in Indonesia or Malaysia withholds', () => {
  // Forest on the 9% of the plot the tile holds: read alone it would withhold as undisturbed forest.
  const partial = read(repeat(9, FOREST), undefined, 10, { plotPixels: 100, requiredGround: true });
  assert.deepEqual([partial.history.available, partial.history.checked, partial.history.classes_2020, partial.history.coverage, partial.history.pixels], [false, false, null, 0.09, 9]);
  assert.match(partial.history.note_on_read!, /data for 9% of the plot, under the 95%/);
  assert.deepEqual(partial.facts, { landsat_record_reads_undisturbed_forest: false, landsat_record_unavailable: true, record_cleared_by_2015: false });
  assert.equal(read(repeat(9, FOREST), undefined, 10, { plotPixels: 100 }).facts.landsat_record_unavailable, false);
  // Unclassified pixels inside the tile are no more read than pixels beyond it.
  const holes = read([...repeat(18, FOREST), ...repeat(2, NO_CLASS)]).history;
  assert.deepEqual([holes.available, holes.coverage], [false, 0.9]);
});

test('at least half undisturbed at the end of 2020 withholds; just under half does not', () => {
  assert.equal(read([...repeat(5, FOREST), ...repeat(5, NEVER)]).facts.landsat_record_reads_undisturbed_forest, true);
  assert.equal(read([...repeat(4, FOREST), ...repeat(5, NEVER)]).facts.landsat_record_reads_undisturbed_forest, false);
  // Degraded forest is moist forest but not undisturbed.
  assert.equal(read(repeat(10, { y1990: 1, y2020: 2, deg: 2005, main: 20 })).facts.landsat_record_reads_undisturbed_forest, false);
});

test('post_cutoff_loss needs 5% of the plot and three pixels dated from 2021', () => {
  const lost = (n: number, total: number) => [...repeat(n, { y1990: 1, y2020: 1, def: 2022, main: 43 }), ...repeat(total - n, FOREST)];
  const loss = read(lost(3, 40), undefined, 12).post_cutoff_loss;
  assert.deepEqual(loss, { share: 0.075, area_ha: 0.9, years: [2022], source: 'JRC Tropical Moist Forest v1_2025, DeforestationYear' });
  // Three pixels but under 5%.
  assert.equal(read(lost(3, 70)).post_cutoff_loss, null);
  // Over 5% but two pixels.
  assert.equal(read(lost(2, 20)).post_cutoff_loss, null);
  // Loss before the cutoff never counts.
  assert.equal(read([...repeat(10, RUBBER_1996)]).post_cutoff_loss, null);
});

test('clearing of most of the plot by 2015 with nothing standing at the cutoff feeds the shade-veto overruling', () => {
  assert.equal(read(repeat(10, { y1990: 1, y2020: 3, def: 2008, main: 41 })).facts.record_cleared_by_2015, true);
  // Cleared in 2016: too late.
  assert.equal(read(repeat(10, { y1990: 1, y2020: 3, def: 2016, main: 41 })).facts.record_cleared_by_2015, false);
  // One pixel of regrowth at the cutoff is moist forest coming back.
  assert.equal(read([...repeat(9, { y1990: 1, y2020: 3, def: 2008, main: 41 }), { y1990: 1, y2020: 4, def: 2008, main: 30 }]).facts.record_cleared_by_2015, false);
  // Never forest: no clearing is dated at all.
  assert.equal(read(repeat(10, NEVER)).facts.record_cleared_by_2015, false);
});

test('under 12 pixels the block says so; with none inside, nothing is read and nothing withholds', () => {
  const few = read(repeat(5, FOREST)).history;
  assert.match(few.note_on_read!, /Only 5 pixels/);
  const none = read(repeat(5, FOREST), []);
  assert.equal(none.history.pixels, 0);
  assert.equal(none.history.classes_2020, null);
  assert.match(none.history.note_on_read!, /no 30 m pixel/);
  assert.equal(none.facts.landsat_record_reads_undisturbed_forest, false);
});

test('outside the tiles: not checked, no figure; an unreadable tile withholds only on Indonesian or Malaysian ground', () => {
  const outside = historyNotRead(PROVENANCE, { kind: 'outside_coverage', tile: 'N40_E0', why: 'north of 30°N' }, true);
  assert.deepEqual([outside.history.checked, outside.history.available], [false, true], 'outside the tiles is told apart from a tile that could not be read');
  assert.equal(outside.history.classes_2020, null);
  assert.equal(outside.history.pixels, null);
  assert.equal(outside.facts.landsat_record_unavailable, false);
  const unreadable = historyNotRead(PROVENANCE, { kind: 'unreadable', tile: 'N10_E110', why: 'HTTP 503' }, true);
  assert.deepEqual([unreadable.history.checked, unreadable.history.available], [false, false]);
  assert.equal(unreadable.history.moist_forest_2020_share, null);
  assert.match(unreadable.history.note_on_read!, /not a plot without history/);
  assert.equal(unreadable.facts.landsat_record_unavailable, true);
  assert.equal(unreadable.post_cutoff_loss, null);
  assert.equal(historyNotRead(PROVENANCE, { kind: 'unreadable', tile: 'N10_E90', why: 'HTTP 503' }, false).facts.landsat_record_unavailable, false);
});
