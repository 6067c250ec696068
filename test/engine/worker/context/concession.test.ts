import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Polygon } from 'geojson';
import { concessionApplies, type ConcessionFeature } from '../../../../src/engine/context/concession.ts';
import { readConcession } from '../../../../src/engine/worker/context/concession.ts';
import type { ContextPlot } from '../../../../src/engine/context/plot.ts';

const PROVENANCE = { source: 'Global Forest Watch Data API', dataset: 'gfw_wood_fiber', version: 'v202106', licence: 'varies', citation: 'GFW' };
const box = (w: number, s: number, e: number, n: number): Polygon => ({ type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] });

function plotAt(lon: number, lat: number, country: string | null): ContextPlot {
  return { footprint: box(lon - 0.001, lat - 0.001, lon + 0.001, lat + 0.001), centroid: [lon, lat], area_ha: 4.9, country, producer_country: country };
}
type Answer = { checked: true; features: ConcessionFeature[] } | { checked: false; why: string };
const read = (plot: ContextPlot, answer: Answer) => readConcession(plot, { ...answer, provenance: PROVENANCE }, '2026-11-22');

test('present only in Indonesia\'s extent, which holds Malaysia; absent in Thailand, Brazil and Papua New Guinea', () => {
  assert.equal(concessionApplies([102.85, -1.25]), true); // Jambi
  assert.equal(concessionApplies([103.35, 2.05]), true); // Johor
  assert.equal(concessionApplies([116.8, 7.2]), true); // northern Sabah
  assert.equal(concessionApplies([99.13, 8.85]), false); // Surat Thani
  assert.equal(concessionApplies([-49.35, -20.75]), false);
  assert.equal(concessionApplies([147.2, -9.4]), false); // Port Moresby
});

test('a concession over the eastern half of a plot: inside, its share and class, never its name', () => {
  const plot = plotAt(102.85, -1.25, 'ID');
  const r = read(plot, { checked: true, features: [{ geometry: box(102.85, -1.3, 102.9, -1.2), licenceType: 'wood fibre (pulpwood) concession' }] });
  assert.equal(r.concession.checked, true);
  assert.equal(r.concession.inside, true);
  assert.ok(Math.abs(r.concession.share! - 0.5) < 0.01, `share ${r.concession.share}`);
  assert.equal(r.concession.licence_type, 'wood fibre (pulpwood) concession');
  assert.match(r.concession.caution, /incomplete/);
  assert.deepEqual(r.facts, { inside_licensed_pulpwood_concession: true, concession_layer_unavailable: false });
});

test('two concessions over one plot: the share of their union, each class named once', () => {
  const plot = plotAt(102.85, -1.25, 'ID');
  const r = read(plot, {
    checked: true,
    features: [
      { geometry: box(102.85, -1.3, 102.9, -1.2), licenceType: 'HTI' },
      { geometry: box(102.8495, -1.3, 102.86, -1.2), licenceType: 'HTI' },
    ],
  });
  assert.ok(Math.abs(r.concession.share! - 0.75) < 0.01, `share ${r.concession.share}`);
  assert.equal(r.concession.licence_type, 'HTI');
});

test('a Malaysian plot outside every concession carries the block with inside: false', () => {
  const r = read(plotAt(103.35, 2.05, 'MY'), { checked: true, features: [] });
  assert.deepEqual([r.concession.checked, r.concession.inside, r.concession.share, r.concession.licence_type], [true, false, 0, null]);
  assert.deepEqual(r.facts, { inside_licensed_pulpwood_concession: false, concession_layer_unavailable: false });
});

test('an unread layer is never outside: it withholds on Indonesian ground only', () => {
  const unread = { checked: false as const, why: 'HTTP 503' };
  const id = read(plotAt(110.35, 0.15, 'ID'), unread);
  assert.deepEqual([id.concession.checked, id.concession.inside, id.concession.share], [false, null, null]);
  assert.equal(id.facts.concession_layer_unavailable, true);
  assert.match(id.concession.note, /Running the plot again/);
  // Malaysian plot: the finding stands, the block records the layer was not read.
  const my = read(plotAt(103.35, 2.05, 'MY'), unread);
  assert.equal(my.facts.concession_layer_unavailable, false);
  assert.equal(my.concession.inside, null);
  // No country: the centroid decides, unless it is also in Malaysia's extent.
  assert.equal(read(plotAt(110.35, 0.15, null), unread).facts.concession_layer_unavailable, true);
  assert.equal(read(plotAt(103.35, 2.05, null), unread).facts.concession_layer_unavailable, false);
});
