import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXACT_EVERY, gridPlaces } from '../../../src/engine/worker/grid-places.ts';
import { metresPerDegree, transformer } from '../../../src/engine/sources/reproject.ts';

/** Pixel centres of a grid `width` by `height` over a box in degrees, as a chip lays them out. */
function centres(box: [number, number, number, number], width: number, height: number) {
  const [w, s, e, n] = box;
  return {
    lons: Float64Array.from({ length: width }, (_, i) => w + ((i + 0.5) * (e - w)) / width),
    lats: Float64Array.from({ length: height }, (_, j) => n - ((j + 0.5) * (n - s)) / height),
  };
}

test('grid places agree with each pixel projected alone to well under a millimetre, whatever the grid size', () => {
  // Chips of 10 m pixels near the equator and far from their zone's centre at high latitude, and a
  // zoom-14 map tile's span (256 pixels of about 9.5 m at 6.8° N).
  const cases: Array<{ lon: number; lat: number; epsg: number; width: number; height: number; pixelM: number }> = [
    { lon: -5.62, lat: 6.81, epsg: 32630, width: 27, height: 41, pixelM: 10 },
    { lon: 23.9, lat: 61.2, epsg: 32634, width: 256, height: 200, pixelM: 10 },
    { lon: 101.1, lat: 2.9, epsg: 32647, width: EXACT_EVERY, height: 1, pixelM: 10 },
    { lon: -5.62, lat: 6.81, epsg: 32630, width: 256, height: 256, pixelM: 9.5 },
  ];
  for (const { lon, lat, epsg, width, height, pixelM } of cases) {
    const m = metresPerDegree(lat);
    const { lons, lats } = centres([lon, lat, lon + (width * pixelM) / m.lon, lat + (height * pixelM) / m.lat], width, height);
    const to = transformer('EPSG:4326', epsg);
    const { xs, ys } = gridPlaces(lons, lats, to);
    assert.equal(xs.length, width * height);
    let worst = 0;
    for (let j = 0; j < height; j++) {
      for (let i = 0; i < width; i++) {
        const [x, y] = to(lons[i], lats[j]);
        worst = Math.max(worst, Math.abs(x - xs[j * width + i]), Math.abs(y - ys[j * width + i]));
      }
    }
    assert.ok(worst < 1e-3, `${width}×${height} on EPSG:${epsg}: ${worst} m`);
  }
});

test('grid places are exact where the transform is affine, on a grid whose size is no multiple of the step', () => {
  const { lons, lats } = centres([10, 20, 10.5, 20.3], 37, 18);
  const { xs, ys } = gridPlaces(lons, lats, (x, y) => [2 * x + 1, 3 * y - 4]);
  for (let j = 0; j < 18; j++) {
    for (let i = 0; i < 37; i++) {
      assert.ok(Math.abs(xs[j * 37 + i] - (2 * lons[i] + 1)) < 1e-9);
      assert.ok(Math.abs(ys[j * 37 + i] - (3 * lats[j] - 4)) < 1e-9);
    }
  }
});
