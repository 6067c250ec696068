// The demo sites placed across a tile edge of one product each: the edge is found from the product's
// own grid here, and the engine reads each plot whole, to its truth, from the files on both sides
// (for Sentinel-2, from the one of the two tiles publishing each pass whose file holds it whole).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/turf';
import type { Archive } from '../../src/engine/archive.ts';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SITES, type DemoSiteSpec } from '../../src/demo/sites.ts';
import { DEMO_SEED, type WorldManifest } from '../../src/demo/world.ts';
import { openByteSource } from '../../src/engine/sources/byte-source.ts';
import { openCog } from '../../src/engine/sources/cog.ts';
import { transformer } from '../../src/engine/sources/reproject.ts';
import { demoWorld, mirrored } from '../support/demo-world.ts';
import { readPlotHere } from '../support/read-plot.ts';

type Ring = number[][];

/** Pixels of a grid anchored at 0 with square pixels of `size` whose centre lies inside the ring (in the grid's units). */
function pixelsInside(ring: Ring, size: number): number {
  const polygon = { type: 'Polygon' as const, coordinates: [ring] };
  const xs = ring.map((p) => p[0]);
  const ys = ring.map((p) => p[1]);
  let n = 0;
  for (let c = Math.floor(Math.min(...xs) / size); c <= Math.ceil(Math.max(...xs) / size); c++) {
    for (let r = Math.floor(Math.min(...ys) / size); r <= Math.ceil(Math.max(...ys) / size); r++) {
      if (booleanPointInPolygon([(c + 0.5) * size, (r + 0.5) * size], polygon)) n++;
    }
  }
  return n;
}

/** The grid lines of spacing `step` that cross the span of `values` strictly inside it. */
function linesCrossed(values: number[], step: number): number[] {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const out: number[] = [];
  for (let k = Math.floor(lo / step) + 1; k * step < hi; k++) out.push(k * step);
  return out;
}

const site = (name: string): DemoSiteSpec => DEMO_SITES.find((s) => s.name === name)!;
const ringOf = (spec: DemoSiteSpec): Ring => buildSiteModel(spec, DEMO_SEED).lonLatRing;

let root: string;
let manifest: WorldManifest;
let dataDir: string;
let archive: Archive;
before(async () => {
  ({ root, manifest } = await demoWorld(DEMO_SITES.map((s) => s.name)));
  dataDir = await mkdtemp(join(tmpdir(), 'edge-sites-'));
  archive = await openDemoArchive({ dataDir, root });
});
after(async () => {
  await archive.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function evidenceOf(spec: DemoSiteSpec) {
  const { evidence } = await readPlotHere(archive, { type: 'Polygon', coordinates: [ringOf(spec)] }, spec.country);
  assert.deepEqual([evidence.verdict, evidence.reason, evidence.reasons], [spec.truth.verdict, spec.truth.reason, spec.truth.reasons], `${spec.name}: ${evidence.finding}`);
  return evidence;
}

test('the Sentinel-2 edge site is published in both MGRS tiles, and the engine reads every scene from the tile holding it whole', async () => {
  const spec = site('id-musi-banyuasin-s2-edge');
  const ring = ringOf(spec);
  // UTM zone and hemisphere of the centre; MGRS squares are 100 km of its grid.
  const epsg = (spec.centre[1] < 0 ? 32700 : 32600) + Math.floor((spec.centre[0] + 180) / 6) + 1;
  const utmRing = ring.map(([lon, lat]) => transformer('EPSG:4326', epsg)(lon, lat));
  const edges = linesCrossed(utmRing.map((p) => p[1]), 100_000);
  assert.equal(edges.length, 1, 'the plot crosses one square edge, a northing of whole 100 km');
  const [edge] = edges;
  const northings = utmRing.map((p) => p[1]);

  // Every acquisition sits in two tiles: the one whose file begins at the edge, and the one whose file reaches past it.
  const scenes = await archive.sentinel2.search({ bbox: [Math.min(...ring.map((p) => p[0])), Math.min(...ring.map((p) => p[1])), Math.max(...ring.map((p) => p[0])), Math.max(...ring.map((p) => p[1]))], start: '2016-01-01', end: '2020-12-31' });
  const byTile = Map.groupBy(scenes, (s) => s.tile);
  assert.equal(byTile.size, 2);
  const extent = async (tile: string) => {
    const cog = await openCog(openByteSource(mirrored(root, byTile.get(tile)![0].assets.red!.href)));
    const [x0, px, , y0, , py] = cog.geoTransform;
    return { west: x0, north: y0, east: x0 + px * cog.width, south: y0 + py * cog.height, epsg: cog.epsg };
  };
  const [a, b] = [...byTile.keys()];
  const files = { [a]: await extent(a), [b]: await extent(b) };
  const holds = (t: string) => files[t].epsg === epsg && files[t].south <= Math.min(...northings) && files[t].north >= Math.max(...northings)
    && utmRing.every(([x]) => x >= files[t].west && x <= files[t].east);
  const whole = [a, b].filter(holds);
  assert.equal(whole.length, 1, 'one tile\'s file holds the plot whole');
  const [part] = [a, b].filter((t) => !holds(t));
  assert.equal(files[part].north, edge, 'the other\'s file begins at the square edge inside the plot');
  assert.deepEqual(byTile.get(a)!.map((s) => s.datetime).sort(), byTile.get(b)!.map((s) => s.datetime).sort());

  const e = await evidenceOf(spec);
  const kept = e.scenes.filter((id) => id.startsWith('S2'));
  assert.ok(kept.length > 20, `${kept.length} Sentinel-2 scenes kept`);
  assert.ok(kept.every((id) => id.includes(`_${whole[0]}_`)), 'every kept scene is read from the tile holding the plot whole');
  assert.ok(e.skipped.filter((s) => s.scene.includes(`_${part}_`)).every((s) => new RegExp(`published in MGRS tile ${part}, which covers less of the plot`).test(s.why)));
  // Read whole: every plot pixel of the 10 m grid, and every pixel of a scene under a clear sky.
  assert.equal(e.read.coverage, 1);
  assert.equal(e.read.pixels, pixelsInside(utmRing, 10));
  const clear = new Set(manifest.sentinel2.filter((r) => r.site === spec.name && r.sky === 'clear').map((r) => r.id));
  const clearKept = e.series!.filter((p) => clear.has(p.scene));
  assert.ok(clearKept.length > 10);
  assert.deepEqual(clearKept.filter((p) => p.clear_share !== 1), []);
});

test('the PALSAR edge site is read from the 1° mosaics on both sides of its parallel, whole', async () => {
  const spec = site('br-bahia-palsar-edge');
  const ring = ringOf(spec);
  const [lat] = linesCrossed(ring.map((p) => p[1]), 1);
  assert.equal(lat, -14, 'the plot crosses 14°S');
  assert.deepEqual([linesCrossed(ring.map((p) => p[0]), 3), linesCrossed(ring.map((p) => p[1]), 3)], [[], []], 'and no canopy-height edge: the radar is the product split here');
  const e = await evidenceOf(spec);
  assert.deepEqual(e.radar.tile!.split(', ').sort(), ['S13W040', 'S14W040']);
  assert.equal(e.radar.coverage, 1);
  assert.deepEqual([e.radar.forest_like, e.radar.confident], [spec.intended.radar.forest_like, spec.intended.radar.confident]);
});

test('the canopy-height edge site is read from the 3° tiles on both sides of 6°N, every 1/12000° pixel of the plot', async () => {
  const spec = site('ci-gagnoa-height-edge');
  const ring = ringOf(spec);
  assert.deepEqual(linesCrossed(ring.map((p) => p[1]), 3), [6]);
  const e = await evidenceOf(spec);
  // Tiles are named by their south-west corner: 3–6°N and 6–9°N, 6–3°W.
  assert.deepEqual(e.height.tile!.split(', ').sort(), ['N03W006', 'N06W006']);
  assert.equal(e.height.coverage, 1);
  const perPixel = 12_000;
  assert.equal(e.height.pixels, pixelsInside(ring.map(([lon, la]) => [lon * perPixel, la * perPixel]), 1));
  assert.deepEqual([e.height.forest_like, e.height.confident], [true, true]);
});

test('the moist-forest record edge site is read from the 10° tiles on both sides of 10°N, every 30 m pixel of the plot', async () => {
  const spec = site('th-chumphon-tmf-edge');
  const ring = ringOf(spec);
  assert.deepEqual(linesCrossed(ring.map((p) => p[1]), 10), [10]);
  const e = await evidenceOf(spec);
  const history = e.history as { tile: string; coverage: number; pixels: number; checked: boolean };
  // Tiles are named by their north-west corner: N10 holds 0–10°N, N20 10–20°N.
  assert.deepEqual(history.tile.split(', ').sort(), ['N10_E90', 'N20_E90']);
  assert.equal(history.checked, true);
  assert.equal(history.coverage, 1);
  const perPixel = 4_000;
  assert.equal(history.pixels, pixelsInside(ring.map(([lon, la]) => [lon * perPixel, la * perPixel]), 1));
  // The oil palm map's 1° cells split there too: the grid lists both, and the smallholder palms are read over the whole plot.
  const palm = (e.commodity_maps as { oil_palm: { coverage: number; smallholder_2021: number; median_planting_year: number } }).oil_palm;
  assert.deepEqual([palm.coverage, palm.smallholder_2021, palm.median_planting_year], [1, 1, spec.oilPalm!.plantingYear]);
});
