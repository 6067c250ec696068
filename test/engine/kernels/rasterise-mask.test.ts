import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pointInRings } from '../../../src/engine/kernels/point-in-rings.ts';
import { maskFromBits, rasteriseMask, ringMask, type PixelFootprint } from '../../../src/engine/kernels/rasterise-mask.ts';

function spansCover(mask: ReturnType<typeof maskFromBits>): Uint8Array {
  const bits = new Uint8Array(mask.width * mask.height);
  for (let s = 0; s < mask.spans.length; s += 2) bits.fill(1, mask.spans[s], mask.spans[s + 1]);
  return bits;
}

test('a pixel belongs to the plot when its centre lies inside the boundary', () => {
  // Edges at 1.4 and 3.6 take the centres 1.5, 2.5 and 3.5; edges at 1.6 and 2.4 take none.
  const wide = rasteriseMask({ type: 'Polygon', coordinates: [[[1.4, 1.4], [3.6, 1.4], [3.6, 2.6], [1.4, 2.6]]] }, 6, 5);
  assert.equal(wide.count, 3 * 2);
  assert.deepEqual([...wide.spans], [7, 10, 13, 16]);
  const thin = rasteriseMask({ type: 'Polygon', coordinates: [[[1.6, 1.6], [2.4, 1.6], [2.4, 2.4], [1.6, 2.4]]] }, 6, 5);
  assert.equal(thin.count, 0);
  assert.equal(thin.spans.length, 0);
});

test('holes are cut out and the parts of a MultiPolygon all come in', () => {
  const outer = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]];
  const hole = [[3, 3], [3, 7], [7, 7], [7, 3], [3, 3]];
  const holed = rasteriseMask({ type: 'Polygon', coordinates: [outer, hole] }, 12, 12);
  assert.equal(holed.count, 100 - 16);
  assert.equal(holed.inside[5 * 12 + 5], 0);
  const two = rasteriseMask({ type: 'MultiPolygon', coordinates: [[[[0, 0], [2, 0], [2, 2], [0, 2]]], [[[5, 5], [8, 5], [8, 6], [5, 6]]]] }, 12, 12);
  assert.equal(two.count, 4 + 3);
});

test('a closed ring and the same ring left open give the same mask', () => {
  const open = [[0.2, 0.3], [7.9, 1.1], [5.2, 6.8]];
  const a = rasteriseMask({ type: 'Polygon', coordinates: [open] }, 9, 8);
  const b = rasteriseMask({ type: 'Polygon', coordinates: [[...open, open[0]]] }, 9, 8);
  assert.deepEqual(a.inside, b.inside);
});

test('a concave star with a hole matches ray casting at every pixel centre', () => {
  const star: number[][] = [];
  for (let k = 0; k < 14; k++) {
    const r = k % 2 === 0 ? 18.3 : 7.1;
    const a = (k * Math.PI) / 7 + 0.1;
    star.push([25 + r * Math.cos(a), 24 + r * Math.sin(a)]);
  }
  const hole = [[23, 22], [27.5, 22.4], [26, 26.2]];
  const footprint: PixelFootprint = { type: 'Polygon', coordinates: [star, hole] };
  const mask = rasteriseMask(footprint, 50, 48);
  let expected = 0;
  for (let r = 0; r < 48; r++) {
    for (let c = 0; c < 50; c++) {
      // Reference: even-odd ray casting at every pixel centre.
      const want = pointInRings(c + 0.5, r + 0.5, [star, hole]) ? 1 : 0;
      expected += want;
      assert.equal(mask.inside[r * 50 + c], want, `pixel ${c},${r}`);
    }
  }
  assert.equal(mask.count, expected);
  assert.deepEqual(spansCover(mask), mask.inside);
});

test('a footprint reaching past the window is clipped to it', () => {
  const mask = rasteriseMask({ type: 'Polygon', coordinates: [[[-5, -5], [3, -5], [3, 2], [-5, 2]]] }, 4, 4);
  assert.equal(mask.count, 3 * 2);
});

test('runs rebuilt from bytes cover exactly the member pixels, never across rows', () => {
  const bits = Uint8Array.from([1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1]);
  const mask = maskFromBits(bits, 4, 3);
  assert.equal(mask.count, 9);
  assert.deepEqual([...mask.spans], [0, 2, 3, 4, 4, 6, 8, 12]);
  assert.throws(() => maskFromBits(bits, 5, 3), RangeError);
});

test('the ring around one pixel holds the pixel centres within the buffer, the plot cut out', () => {
  const bits = new Uint8Array(11 * 11);
  bits[5 * 11 + 5] = 1;
  const plot = maskFromBits(bits, 11, 11);
  // Offsets with 0 < dx² + dy² ≤ 4: four at 1, four at √2, four at 2.
  assert.equal(ringMask(plot, 2).count, 12);
  assert.equal(ringMask(plot, 2, 1).count, 8);
  assert.equal(ringMask(plot, 2).inside[5 * 11 + 5], 0);
});

test('the ring matches brute-force distances to the nearest plot pixel', () => {
  const plot = rasteriseMask({ type: 'Polygon', coordinates: [[[12, 10], [24, 13], [19, 25], [11, 20]]] }, 40, 36);
  const ring = ringMask(plot, 6.5, 2);
  const members: number[] = [];
  for (let i = 0; i < plot.inside.length; i++) if (plot.inside[i]) members.push(i);
  for (let i = 0; i < ring.inside.length; i++) {
    const r = Math.floor(i / 40);
    const c = i % 40;
    let best = Infinity;
    for (const m of members) best = Math.min(best, (Math.floor(m / 40) - r) ** 2 + ((m % 40) - c) ** 2);
    const want = best > 4 && best <= 6.5 * 6.5 ? 1 : 0;
    assert.equal(ring.inside[i], want, `pixel ${c},${r}`);
  }
  assert.throws(() => ringMask(plot, 2, 2), RangeError);
});

test('an empty plot has an empty ring', () => {
  const plot = maskFromBits(new Uint8Array(100), 10, 10);
  assert.equal(ringMask(plot, 3).count, 0);
});
