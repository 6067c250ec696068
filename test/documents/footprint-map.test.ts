import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MultiPolygon, Polygon } from 'geojson';
import sharp from 'sharp';
import { footprintPicture, type EvidenceChip } from '../../src/documents/footprint-map.ts';
import { metresPerDegree } from '../../src/engine/sources/reproject.ts';

const LAT = 8.85;
/** Metres per degree here, as the service measures the ground. */
const PER_DEGREE = metresPerDegree(LAT);
/** A square of `side` metres centred at (lon, lat) = (99.13 + dx m, 8.85 + dy m). */
function square(side: number, dx = 0, dy = 0): Polygon {
  const lon = 99.13 + dx / PER_DEGREE.lon, lat = LAT + dy / PER_DEGREE.lat;
  const h = side / 2;
  const c = (x: number, y: number): [number, number] => [lon + x / PER_DEGREE.lon, lat + y / PER_DEGREE.lat];
  return { type: 'Polygon', coordinates: [[c(-h, -h), c(h, -h), c(h, h), c(-h, h), c(-h, -h)]] };
}

/** A uniform blue chip 1 km across, 100 pixels of 10 m. */
async function blueChip(): Promise<EvidenceChip> {
  const png = await sharp({ create: { width: 100, height: 100, channels: 3, background: { r: 30, g: 60, b: 200 } } }).png().toBuffer();
  const half = 500;
  return { png, bbox: [99.13 - half / PER_DEGREE.lon, LAT - half / PER_DEGREE.lat, 99.13 + half / PER_DEGREE.lon, LAT + half / PER_DEGREE.lat], scene: 'S2A_47PMQ_20200212_0_L2A' };
}

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
  return { at, width: info.width, height: info.height };
}

const isBlue = ([r, g, b]: number[]) => b > 150 && r < 80;
const isYellow = ([r, g, b]: number[]) => r > 200 && g > 170 && b < 90;

test('outlines the footprint over the chip, north up, keeping the chip\'s pixels inside and out', async () => {
  const picture = await footprintPicture({ footprint: square(400), chip: await blueChip() }, 500);
  assert.equal(picture.scene, 'S2A_47PMQ_20200212_0_L2A');
  const p = await pixels(picture.png);
  assert.equal(p.width, 500);
  assert.ok(Math.abs(p.height - 500) <= 1, `a square kilometre is drawn square (${p.height})`);
  assert.ok(isBlue(p.at(250, 250)), 'inside the footprint');
  assert.ok(isBlue(p.at(60, 250)), 'outside the footprint');
  // The square spans 400 m of the chip's 1000 m: its west edge is at 30% of the width.
  assert.ok(isYellow(p.at(150, 250)), `west edge ${p.at(150, 250)}`);
  assert.ok(isYellow(p.at(250, 150)), `north edge ${p.at(250, 150)}`);
  assert.equal(picture.scale_bar_m, 250, 'a round length near a quarter of the width');
});

test('a footprint off the chip\'s centre is drawn where it lies', async () => {
  const picture = await footprintPicture({ footprint: square(200, 250, 0), chip: await blueChip() }, 500);
  const p = await pixels(picture.png);
  // East of centre by 250 m: its west edge at (500 + 250 - 100) / 1000 of the width.
  assert.ok(isYellow(p.at(325, 250)), `${p.at(325, 250)}`);
  assert.ok(!isYellow(p.at(175, 250)));
});

test('without a chip the footprint is drawn alone, shaded, with room around it', async () => {
  const footprint: MultiPolygon = { type: 'MultiPolygon', coordinates: [square(300, -300).coordinates, square(200, 300).coordinates] };
  const picture = await footprintPicture({ footprint, chip: null }, 400);
  assert.equal(picture.scene, null);
  const p = await pixels(picture.png);
  const corner = p.at(5, 5);
  assert.deepEqual(corner, [0xee, 0xf0, 0xea]);
  const [r, g, b] = p.at(Math.round(p.width * 0.25), Math.round(p.height / 2));
  assert.ok(r > g - 10 && b < 200 && !(r === 0xee && g === 0xf0), `the first part is shaded: ${[r, g, b]}`);
  assert.ok([50, 100, 200, 250].includes(picture.scale_bar_m));
});
