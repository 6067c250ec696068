import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskFromBits } from '../../../src/engine/kernels/rasterise-mask.ts';
import { terrainSlope } from '../../../src/engine/kernels/terrain-slope.ts';

const W = 16;
const H = 12;
const DEM = { scale: 1, offset: 0, nodata: null };

function plane(dzdx: number, dzdy: number, dx: number, dy: number): Float32Array {
  const dem = new Float32Array(W * H);
  for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) dem[r * W + c] = 100 + dzdx * c * dx - dzdy * r * dy;
  return dem;
}

function interior(): ReturnType<typeof maskFromBits> {
  const bits = new Uint8Array(W * H);
  for (let r = 2; r < H - 2; r++) bits.fill(1, r * W + 2, r * W + W - 2);
  return maskFromBits(bits, W, H);
}

const deg = (rad: number) => (rad * 180) / Math.PI;

test('a tilted plane gives its own slope, on pixels taller than they are wide', () => {
  // A geographic DEM away from the equator: 21 m wide, 31 m tall pixels.
  const dzdx = Math.tan((12 * Math.PI) / 180) * 0.6;
  const dzdy = Math.tan((12 * Math.PI) / 180) * 0.8;
  const r = terrainSlope({ mask: interior(), dem: plane(dzdx, dzdy, 21, 31), encoding: DEM, pixelWidthM: 21, pixelHeightM: 31 }, { maxSlopeDeg: 20 });
  assert.ok(Math.abs((r.mean_slope_deg as number) - deg(Math.atan(Math.hypot(dzdx, dzdy)))) < 1e-3, `${r.mean_slope_deg}`);
  assert.equal(r.pixels, (W - 4) * (H - 4));
  assert.equal(r.outside_characterised_range, false);
});

test('ground steeper than the limit is outside the characterised range', () => {
  const r = terrainSlope({ mask: interior(), dem: plane(Math.tan((26 * Math.PI) / 180), 0, 30, 30), encoding: DEM, pixelWidthM: 30, pixelHeightM: 30 }, { maxSlopeDeg: 20 });
  assert.ok(Math.abs((r.mean_slope_deg as number) - 26) < 1e-3);
  assert.equal(r.outside_characterised_range, true);
});

test('the elevation scale is applied to the gradient', () => {
  const raw = plane(0.1, 0, 30, 30).map((v) => v * 100);
  const r = terrainSlope({ mask: interior(), dem: raw, encoding: { scale: 0.01, offset: -5, nodata: null }, pixelWidthM: 30, pixelHeightM: 30 }, { maxSlopeDeg: 20 });
  assert.ok(Math.abs((r.mean_slope_deg as number) - deg(Math.atan(0.1))) < 1e-3);
});

test('edge pixels repeat their neighbours instead of reading outside the window', () => {
  const all = maskFromBits(new Uint8Array(W * H).fill(1), W, H);
  const r = terrainSlope({ mask: all, dem: plane(0, 0, 30, 30), encoding: DEM, pixelWidthM: 30, pixelHeightM: 30 }, { maxSlopeDeg: 20 });
  assert.equal(r.mean_slope_deg, 0);
  assert.equal(r.pixels, W * H);
});

test('a pixel with no data, or beside one, is not counted, whether no data is a value or NaN', () => {
  const dem = plane(0.05, 0, 30, 30);
  dem[5 * W + 5] = -9999;
  const numeric = terrainSlope({ mask: interior(), dem, encoding: { scale: 1, offset: 0, nodata: -9999 }, pixelWidthM: 30, pixelHeightM: 30 }, { maxSlopeDeg: 20 });
  assert.equal(numeric.pixels, (W - 4) * (H - 4) - 9);
  assert.ok(Math.abs((numeric.mean_slope_deg as number) - deg(Math.atan(0.05))) < 1e-3);
  dem[5 * W + 5] = NaN;
  const nan = terrainSlope({ mask: interior(), dem, encoding: DEM, pixelWidthM: 30, pixelHeightM: 30 }, { maxSlopeDeg: 20 });
  assert.equal(nan.pixels, numeric.pixels);
});

test('an empty mask has no slope and no range answer', () => {
  const r = terrainSlope({ mask: maskFromBits(new Uint8Array(W * H), W, H), dem: plane(0.1, 0, 30, 30), encoding: DEM, pixelWidthM: 30, pixelHeightM: 30 }, { maxSlopeDeg: 20 });
  assert.deepEqual(r, { mean_slope_deg: null, pixels: 0, outside_characterised_range: null });
});
