// Coverage is measured, never assumed: a plot read across tile edges is read whole from every tile;
// a plot reaching past the archive's data says what share was read, and gives no positive finding.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { centroid, union } from '@turf/turf';
import type { Polygon } from 'geojson';
import type { Archive } from '../../src/engine/archive.ts';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import { type CogDtype, writeCog } from '../../src/demo/tiff-writer.ts';
import { PALSAR_MASK, PC_MIRROR, palsarNodata } from '../../src/engine/sources/products/palsar/codes.ts';
import { createPalsarAdapter } from '../../src/engine/sources/products/palsar/reader.ts';
import { transformer } from '../../src/engine/sources/reproject.ts';
import { maskFor, type WorkerRaster } from '../../src/engine/worker/raster-window.ts';
import { markRead, unionCoverage, windowCoverage } from '../../src/engine/worker/coverage.ts';
import { demoWorld, mirrored, onDisk } from '../support/demo-world.ts';
import { readWindows } from '../support/read-windows.ts';
import { readPlotHere } from '../support/read-plot.ts';

// ---- tile edges -------------------------------------------------------------------------------

const EDGE = 100;
const LAT = 5.5;
const SPAN = 0.02;
/** A square of about 440 m across 100°E, the edge of PALSAR's 1° tiles and of UTM zones 47 and 48. */
const square: Polygon = { type: 'Polygon', coordinates: [[[99.998, 5.5], [100.002, 5.5], [100.002, 5.504], [99.998, 5.504], [99.998, 5.5]]] };
const PALSAR_PIXEL = 1 / 4500;

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'coverage-edges-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

/** One PALSAR band of 2020 over one side of 100°E, every pixel `value`, on the 1° tiles' shared grid. */
async function palsarSide(west: boolean, band: 'HH' | 'HV' | 'mask', value: number): Promise<void> {
  const width = Math.round(SPAN / PALSAR_PIXEL);
  const dtype: CogDtype = band === 'mask' ? 'uint8' : 'uint16';
  const data = dtype === 'uint8' ? new Uint8Array(width * width).fill(value) : new Uint16Array(width * width).fill(value);
  const lon = west ? EDGE - SPAN : EDGE;
  await writeCog(mirrored(root, PC_MIRROR.href(lon + SPAN / 2, LAT, 2020, band)), {
    width, height: width, dtype, data, epsg: 4326, nodata: palsarNodata(2020, band), geoTransform: [lon, PALSAR_PIXEL, 0, LAT + SPAN / 2, 0, -PALSAR_PIXEL],
  });
}

test('a plot across a PALSAR tile edge is read from both tiles, names both, and is covered whole', async () => {
  for (const west of [true, false]) {
    await palsarSide(west, 'HH', 3000);
    await palsarSide(west, 'HV', 1500);
    await palsarSide(west, 'mask', PALSAR_MASK.LAND);
  }
  const box: [number, number, number, number] = [99.99, 5.49, 100.01, 5.51];
  const read = await createPalsarAdapter({ where: onDisk(root) }).windows(box, 2020);
  assert.deepEqual(read.tiles.sort(), ['N06E099', 'N06E100']);
  assert.deepEqual(read.notRead, []);
  assert.equal(read.provenance.tile, 'N06E099_20, N06E100_20');
  assert.equal(read.layers.HV.request.parts?.length, 2);
  const [hv] = await readWindows([read.layers.HV.request]);
  assert.equal(windowCoverage(hv, maskFor(hv, square), [hv.raw], read.nodata, square), 1);
});

/** A raster of one value over a UTM zone's 10 m grid, reaching from `fromLon` to `toLon` around the square. */
function utmRaster(zone: 47 | 48, fromLon: number, toLon: number, value: number): WorkerRaster {
  const epsg = 32600 + zone;
  const to = transformer('EPSG:4326', epsg);
  const [x0, y1] = to(fromLon, LAT + 0.006);
  const [x1, y0] = to(toLon, LAT - 0.002);
  const left = Math.floor(x0 / 10) * 10;
  const top = Math.ceil(y1 / 10) * 10;
  const width = Math.ceil((x1 - left) / 10);
  const height = Math.ceil((top - y0) / 10);
  return { raw: new Uint16Array(width * height).fill(value), width, height, samplesPerPixel: 1, geoTransform: [left, 10, 0, top, 0, -10], epsg, nodata: 0, scale: 1, offset: 0 };
}

test('a plot across a Sentinel-2 tile edge is covered whole by scenes of both tiles, each of its own zone', () => {
  // Zone 47's tile holds the western half, zone 48's the eastern half; each reads as 0 (no data) beyond 100°E or short of it.
  const west = utmRaster(47, 99.99, EDGE, 1200);
  const east = utmRaster(48, EDGE, 100.01, 1200);
  // Each raster's pixels with data, as a scene group marks them for the plot task.
  const read = (...rasters: ReturnType<typeof utmRaster>[]) => rasters.map((r) => {
    const marked = new Uint8Array(r.width * r.height);
    markRead(marked, r.raw, 0);
    return { grid: r, read: marked };
  });
  assert.equal(unionCoverage(west, read(west, east), square), 1);
  const half = unionCoverage(west, read(west), square);
  assert.ok(half > 0.45 && half < 0.55, `the western tile alone covers half the plot, got ${half}`);
  // A scene's fill is no data: the eastern scene filled with 0 adds nothing.
  assert.equal(unionCoverage(west, read(west, utmRaster(48, EDGE, 100.01, 0)), square), half);
  // Counted on the first grid, whichever covers it.
  assert.equal(unionCoverage(east, read(west, east), square), 1);
});

// ---- a plot past the archive's data ------------------------------------------------------------

let demoRoot: string;
let dataDir: string;
let archive: Archive;

before(async () => {
  ({ root: demoRoot } = await demoWorld());
  dataDir = await mkdtemp(join(tmpdir(), 'coverage-demo-'));
  archive = await openDemoArchive({ dataDir, root: demoRoot });
});
after(async () => {
  await archive.close();
  await rm(dataDir, { recursive: true, force: true });
});

const readWhole = (footprint: Polygon, country: string) => readPlotHere(archive, footprint, country);

test('a rubber plot with an arm past the archive\'s data states what share was read and gives no positive finding', async () => {
  const spec = DEMO_SITES.find((s) => s.name === 'th-surat-thani-rubber')!;
  const own: Polygon = { type: 'Polygon', coordinates: [buildSiteModel(spec, DEMO_SEED).lonLatRing] };
  const whole = await readWhole(own, spec.country);
  // The site alone lies inside every demo file: read whole, and its finding stands.
  assert.equal(whole.evidence.read.coverage, 1);
  assert.deepEqual([whole.evidence.radar.coverage, whole.evidence.height.coverage, whole.evidence.terrain.coverage], [1, 1, 1]);
  assert.equal(whole.evidence.verdict, 'prior_management_evidenced');
  assert.doesNotMatch(whole.evidence.finding, /outside the archive/);

  // A 40 m wide arm from the plot's centre 2.8 km east: the demo files end some 400 to 800 m from the site's centre.
  const [lon, lat] = centroid(own).geometry.coordinates;
  const east = lon + 2800 / (111_320 * Math.cos((lat * Math.PI) / 180));
  const h = 20 / 110_574;
  const arm: Polygon = { type: 'Polygon', coordinates: [[[lon, lat - h], [east, lat - h], [east, lat + h], [lon, lat + h], [lon, lat - h]]] };
  const armed = union({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: own }, { type: 'Feature', properties: {}, geometry: arm }] })!.geometry as Polygon;
  const { evidence: e } = await readWhole(armed, spec.country);
  assert.ok(e.read.coverage !== null && e.read.coverage < 0.95 && e.read.coverage > 0.3, `optical coverage ${e.read.coverage}`);
  assert.notEqual(e.verdict, 'prior_management_evidenced');
  // What withholds it first may be the forest the arm crosses, read per block; the share not read is said either way.
  const outside = Math.round((1 - e.read.coverage) * 100);
  assert.match(e.finding, new RegExp(`${outside}% of the plot lies outside the archive's Sentinel-2 and Landsat data`));
  // The radar and the height map read under 95% of it too: neither answers, and each says what share it read.
  for (const [name, block] of [['radar', e.radar], ['height', e.height]] as const) {
    assert.ok(block.coverage !== null && block.coverage < 0.95, `${name} coverage ${block.coverage}`);
    assert.equal(block.forest_like, null, name);
    assert.match(block.refusal!, new RegExp(`held data for ${Math.floor(block.coverage * 100)}% of the plot`), name);
  }
  // The EU maps have no nodata: 0 is "not forest (or no data)" in the product itself, and a tile stored
  // empty in a file without nodata reads 0, as GDAL reads it. So in a tile the archive holds, ground no
  // demo site reaches reads "not forest" as the real tile's would; a file the archive lacks is never read
  // so (test/engine/plan/context-tile-edges.test.ts), and the TMF record, with its nodata, reads part.
  // The optical record, read over part of the plot, still withholds the finding (above).
  const types = e.forest_types as { available: boolean; not_forest: number | null; coverage: number | null };
  assert.deepEqual([types.available, types.coverage], [true, 1]);
  assert.ok(types.not_forest! > 1 - e.read.coverage!, `not forest ${types.not_forest}`);
  const history = e.history as { available: boolean; coverage: number | null; classes_2020: unknown };
  assert.deepEqual([history.available, history.classes_2020], [false, null]);
  assert.ok(history.coverage! < 0.95);
});
