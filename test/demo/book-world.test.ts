// The book world: a cooperative's adjacent smallholder plots, deterministic for a seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { area as turfArea } from '@turf/turf';
import { BOOK_PLOT_HA, cadastre } from '../../src/demo/book-world/cadastre.ts';
import { bookModel } from '../../src/demo/book-world/ground.ts';
import { bookPlots, bookWorld } from '../../src/demo/book-world/world.ts';
import { COVERS } from '../../src/demo/landscape.ts';

test('a book holds the plots asked for, each of 0.5 to 6 ha, side by side without overlapping', () => {
  const land = cadastre('book test', 300);
  assert.equal(land.plots.length, 300);
  const boxes = land.plots.map((p) => p.box);
  for (const [w, s, e, n] of boxes) {
    const ha = ((e - w) * (n - s)) / 10_000;
    assert.ok(ha >= BOOK_PLOT_HA.min - 1e-9 && ha <= BOOK_PLOT_HA.max + 1e-9, `a plot of ${ha} ha`);
  }
  // Each plot's eastern neighbour in its row begins where it ends: no gaps, no overlaps.
  let shared = 0;
  for (let i = 1; i < boxes.length; i++) {
    const [a, b] = [boxes[i - 1], boxes[i]];
    if (a[1] === b[1]) {
      assert.equal(b[0], a[2]);
      shared++;
    } else assert.ok(b[3] <= a[1] + 1e-9, 'a new row lies south of the last');
  }
  assert.ok(shared > 250, `${shared} plots share an edge with the one before`);
  // The cover at a plot's centre is the plot's own.
  for (const p of land.plots) assert.equal(land.coverAt((p.box[0] + p.box[2]) / 2, (p.box[1] + p.box[3]) / 2), p.cover);
  assert.ok(new Set(land.plots.map((p) => p.cover)).size >= 5, 'crops, forest patches, fallow and villages');
});

test('the same seed gives the same book; another seed another', () => {
  const a = bookPlots(bookWorld(tmpdir(), 7, 50));
  assert.deepEqual(bookPlots(bookWorld(tmpdir(), 7, 50)), a);
  assert.notDeepEqual(bookPlots(bookWorld(tmpdir(), 8, 50)).features.map((f) => f.geometry), a.features.map((f) => f.geometry));
  assert.equal(bookWorld('/data', 7, 50).root, join('/data', 'book-world', 'seed-7-plots-50', 'archive'));
  for (const f of a.features) assert.ok(Math.abs(turfArea(f.geometry) / 10_000 - f.properties.area_ha) < 0.01);
});

test('the ground under each plot of the book shows its plot\'s cover', () => {
  const w = bookWorld(tmpdir(), 3, 80);
  const land = cadastre(w.seed, 80);
  const m = bookModel(w.seed, 80);
  const day = Date.parse('2019-06-01') / 86_400_000;
  for (const p of land.plots.slice(0, 20)) {
    const [x, y] = [(p.box[0] + p.box[2]) / 2, (p.box[1] + p.box[3]) / 2];
    assert.equal(m.coverAt(x, y, day), p.cover);
    assert.equal(m.inPlot(x, y), false);
    const s = m.spectrumAt(x, y, day);
    // Texture moves red and near-infrared by a few percent at most.
    assert.ok(Math.abs(s.nir / COVERS[p.cover].leaf.nir - 1) < 0.1, `${p.cover}: nir ${s.nir}`);
  }
  assert.ok(m.spec.reachM! > 600, 'the products reach past the plots');
  assert.throws(() => bookWorld(tmpdir(), 1, 5000), /1 to 4000 plots/);
});
