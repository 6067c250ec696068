import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellRgba, classRgba, medianStack, ndviOf, nearestPixels, rampRgba, trueColourRgba } from '../../../src/engine/kernels/tile-pixels.ts';
import { lonLatToTile, tileAround, tileBounds, tilePixelCentres } from '../../../src/engine/kernels/web-mercator.ts';

const enc = { scale: 0.0001, offset: 0, nodata: 0 };

test('a tile pixel takes the source pixel its centre falls in, and none past the raster\'s edge', () => {
  // A 4 × 3 raster with 10 m pixels, origin (100, 60).
  const grid = { geoTransform: [100, 10, 0, 60, 0, -10], width: 4, height: 3 };
  const at = nearestPixels(Float64Array.from([105, 139.9, 100, 99.9, 140, 125]), Float64Array.from([55, 31, 60, 55, 55, 30.01]), grid);
  assert.deepEqual([...at], [0, 11, 0, -1, -1, 10]);
});

test('the median of a stack takes only the scenes with data and clear at each pixel, even counts averaging the middle two', () => {
  const scene = (dn: number[], clear: number[] | null) => ({
    at: Int32Array.from([0, 1, 2]),
    bands: [Uint16Array.from(dn)],
    encoding: enc,
    clear: clear === null ? null : { classes: Uint8Array.from(clear), lookup: Uint8Array.from([0, 1]), at: Int32Array.from([0, 1, 2]) },
  });
  const [band] = medianStack([scene([1000, 2000, 0], [1, 1, 1]), scene([3000, 4000, 0], [1, 0, 1]), scene([2000, 9000, 0], null)], 3, 1);
  // Pixel 0: 0.1, 0.3, 0.2 → 0.2. Pixel 1: the second scene is cloudy there → 0.2 and 0.9 → 0.55. Pixel 2: nodata everywhere.
  assert.ok(Math.abs(band[0] - 0.2) < 1e-6 && Math.abs(band[1] - 0.55) < 1e-6, `${[...band]}`);
  assert.ok(Number.isNaN(band[2]));
});

test('true colour lifts reflectance on a square-root curve up to the white point and leaves missing pixels transparent', () => {
  const rgba = trueColourRgba(Float32Array.from([0.3, 0.075, Number.NaN]), Float32Array.from([0, 0.6, 0.1]), Float32Array.from([0.075, 0.3, 0.1]), 0.3);
  assert.deepEqual([...rgba], [255, 0, 128, 255, 128, 255, 255, 255, 0, 0, 0, 0]);
});

test('NDVI is drawn along its colour stops, held past the ends, and transparent where it cannot be computed', () => {
  const ndvi = ndviOf(Float32Array.from([0.1, 0.05, 0]), Float32Array.from([0.1, 0.45, 0]));
  assert.ok(Math.abs(ndvi[0]) < 1e-6 && Math.abs(ndvi[1] - 0.8) < 1e-6 && Number.isNaN(ndvi[2]));
  const stops = [{ at: 0, rgba: [0, 0, 0, 255] }, { at: 1, rgba: [200, 100, 0, 255] }];
  assert.deepEqual([...rampRgba(Float32Array.from([0.5, 2, -1, Number.NaN]), stops)], [100, 50, 0, 255, 200, 100, 0, 255, 0, 0, 0, 255, 0, 0, 0, 0]);
});

test('class colours come from the first class holding the value; values no class holds stay transparent', () => {
  const classes = [{ from: 1, to: 20, rgba: [1, 1, 1, 200] }, { from: 21, to: 21, rgba: [9, 9, 9, 255] }];
  const out = new Uint8Array(16);
  classRgba(Uint8Array.from([0, 5, 21, 30]), Int32Array.from([1, 2, 3, -1]), classes, out);
  assert.deepEqual([...out], [1, 1, 1, 200, 9, 9, 9, 255, 0, 0, 0, 0, 0, 0, 0, 0]);
});

test('an alert cell covers the tile pixels it spans, at least one, and the higher confidence wins where cells overlap', () => {
  const classes = [{ from: 2, to: 2, rgba: [2, 2, 2, 255] }, { from: 3, to: 3, rgba: [3, 3, 3, 255] }];
  const out = cellRgba({ x0: Int32Array.from([0, 1, 3]), y0: Int32Array.from([0, 0, 3]), x1: Int32Array.from([2, 2, 3]), y1: Int32Array.from([1, 1, 3]), values: Uint8Array.from([2, 3, 2]) }, 4, classes);
  const colour = (c: number, r: number) => out[(r * 4 + c) * 4];
  assert.deepEqual([colour(0, 0), colour(1, 0), colour(2, 0), colour(3, 3), colour(0, 1)], [2, 3, 0, 2, 0]);
});

test('the XYZ grid: tile 0/0/0 is the whole Web Mercator world, and a point lies in the tile it is placed in', () => {
  const [w, s, e, n] = tileBounds(0, 0, 0);
  assert.deepEqual([w, e], [-180, 180]);
  assert.ok(Math.abs(n - 85.0511287798) < 1e-9 && Math.abs(s + 85.0511287798) < 1e-9);
  const t = lonLatToTile(99.13, 8.85, 15);
  const [tw, ts, te, tn] = tileBounds(15, Math.floor(t.x), Math.floor(t.y));
  assert.ok(tw <= 99.13 && 99.13 < te && ts < 8.85 && 8.85 <= tn);
  const { lons, lats } = tilePixelCentres(15, Math.floor(t.x), Math.floor(t.y));
  assert.ok(lons[0] > tw && lons[255] < te && lats[0] < tn && lats[255] > ts && lats[0] > lats[255]);
});

test('the tile around a box is the deepest in range whose half-width still holds the box', () => {
  const box = [99.13, 8.85, 99.135, 8.855] as const;
  const { z } = tileAround(box, 12, 17);
  // At z a tile spans 360 / 2^z degrees of longitude: the box fits in half a tile there and not one zoom deeper.
  assert.ok(0.005 <= 0.5 * (360 / 2 ** z) && 0.005 > 0.5 * (360 / 2 ** (z + 1)), `zoom ${z}`);
  assert.equal(tileAround([0, 0, 20, 20], 12, 17).z, 12);
});
