// The context blocks over a plot across the 100°E edge of the products' 10° tiles (and of two Open
// Buildings tiles put there): every tile the
// plot's box touches is asked for, and where the archive lacks the eastern tiles the blocks count
// only the pixels read, never the missing ones as a class.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { area, centroid } from '@turf/turf';
import type { Polygon } from 'geojson';
import { openArchive } from '../../../src/engine/archive.ts';
import type { ContextPlot } from '../../../src/engine/context/index.ts';
import { DecodedTiles, shipRasters } from '../../../src/engine/plan/raster-shipment.ts';
import { planContext } from '../../../src/engine/plan/context/index.ts';
import { computeContext } from '../../../src/engine/worker/context/index.ts';
import { assembleRasters } from '../../../src/engine/worker/raster-window.ts';
import { OIL_PALM_GRID_HREF, oilPalmHref, oilPalmYopValue, rubberHref } from '../../../src/engine/sources/products/commodity-maps/codes.ts';
import { euForestTile, gfc2020Href, gft2020Href } from '../../../src/engine/sources/products/eu-forest-maps/codes.ts';
import { hansenHref, hansenTile } from '../../../src/engine/sources/products/hansen/codes.ts';
import { manifestListingUrl, manifestToken, OPEN_BUILDINGS, OPEN_BUILDINGS_ASSUMED, objectUrl } from '../../../src/engine/sources/products/open-buildings/codes.ts';
import { tmfHref, tmfTile } from '../../../src/engine/sources/products/tmf/codes.ts';
import { transformer } from '../../../src/engine/sources/reproject.ts';
import { HISTORY_DATASETS } from '../../../src/engine/context/history.ts';
import { SETTLEMENT_YEARS } from '../../../src/engine/context/settlement.ts';
import { type CogDtype, writeCog } from '../../../src/demo/tiff-writer.ts';
import { mirrored } from '../../support/demo-world.ts';

const EDGE = 100;
const LAT = 5;
/** Each side's files span 0.05° of longitude from the edge and 0.1° of latitude around the plot. */
const SPAN = 0.05;
const WEST = EDGE - SPAN / 2;
const EAST = EDGE + SPAN / 2;

/** A file of one value over one side of the edge, on a grid shared by both sides. */
async function side(root: string, href: string, west: boolean, pixel: number, dtype: CogDtype, value: number): Promise<void> {
  const width = Math.round(SPAN / pixel);
  const height = Math.round((2 * SPAN) / pixel);
  const data = dtype === 'uint16' ? new Uint16Array(width * height).fill(value) : new Uint8Array(width * height).fill(value);
  await writeCog(mirrored(root, href), { width, height, dtype, data, epsg: 4326, geoTransform: [west ? EDGE - SPAN : EDGE, pixel, 0, LAT + SPAN, 0, -pixel] });
}

/**
 * West of the edge: primary forest, rubber, industrial palm planted in 2010, undisturbed moist
 * forest, Hansen land. East: planted forest, forest (not rubber), no palm, degraded moist forest,
 * Hansen land. `east: false` leaves every eastern file out of the archive.
 */
async function writeEdgeArchive(root: string, east: boolean): Promise<void> {
  const sides = east ? [true, false] : [true];
  const cells = { true: 'W', false: 'E' } as const;
  for (const west of sides) {
    const lon = west ? WEST : EAST;
    const eu = euForestTile(lon, LAT);
    await side(root, gft2020Href(eu), west, 0.0001, 'uint8', west ? 10 : 20);
    await side(root, gfc2020Href(eu), west, 0.0001, 'uint8', 1);
    await side(root, rubberHref(eu), west, 0.0001, 'uint8', west ? 2 : 1);
    const cell = cells[`${west}`];
    await side(root, oilPalmHref('OP-extent', cell), west, 0.0001, 'uint8', west ? 1 : 0);
    await side(root, oilPalmHref('YoP', cell), west, 0.00025, 'uint16', west ? oilPalmYopValue(2010) : 0);
    const hansen = hansenTile(lon, LAT);
    await side(root, hansenHref('treecover2000', hansen), west, 0.00025, 'uint8', 80);
    await side(root, hansenHref('lossyear', hansen), west, 0.00025, 'uint8', 0);
    await side(root, hansenHref('datamask', hansen), west, 0.00025, 'uint8', 1);
    for (const d of HISTORY_DATASETS) {
      const value = d.startsWith('AnnualChange') ? (west ? 1 : 2) : d === 'TransitionMap_MainClasses' ? (west ? 10 : 20) : 0;
      await side(root, tmfHref(d, tmfTile(lon, LAT)), west, 0.00025, d.endsWith('Year') ? 'uint16' : 'uint8', value);
    }
  }
  await writeBuildingTiles(root, east);
  const cell = (id: string, w: number) => ({ type: 'Feature', properties: { ID: id }, geometry: { type: 'Polygon', coordinates: [[[w, LAT - SPAN], [w + SPAN, LAT - SPAN], [w + SPAN, LAT + SPAN], [w, LAT + SPAN], [w, LAT - SPAN]]] } });
  await writeJson(mirrored(root, OIL_PALM_GRID_HREF), { type: 'FeatureCollection', features: [cell('W', EDGE - SPAN), cell('E', EDGE)] });
}

async function writeJson(path: string, doc: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(doc));
}

/**
 * Open Buildings for each year: two 500 m tiles of UTM 47N split at the easting of 100°E, listed by
 * one manifest, with no building on either (every cell read is data), declaring no nodata as the
 * producer's files need not.
 */
async function writeBuildingTiles(root: string, east: boolean): Promise<void> {
  const epsg = 32647;
  const pixel = OPEN_BUILDINGS_ASSUMED.pixelMetres;
  const [x, y] = transformer('EPSG:4326', epsg)(EDGE, LAT + 0.002);
  const edge = Math.round(x / pixel) * pixel;
  const top = Math.round(y / pixel) * pixel + 500;
  const size = { width: 500 / pixel, height: 1000 / pixel };
  const token = manifestToken(EDGE, LAT + 0.002);
  const names: string[] = [];
  for (const year of SETTLEMENT_YEARS) {
    const objects = [`v1/geotiffs/${token}_${year}_06_30/west.tif`, `v1/geotiffs/${token}_${year}_06_30/east.tif`];
    for (const [k, object] of objects.entries()) {
      if (k === 1 && !east) continue;
      await writeCog(mirrored(root, objectUrl(object)), {
        ...size, dtype: 'float32', blocks: [], samplesPerPixel: 3, fill: 0, epsg, geoTransform: [edge + (k - 1) * 500, pixel, 0, top, 0, -pixel],
      });
    }
    const name = `${OPEN_BUILDINGS.manifests}/${token}_edge_${year}_06_30_float.json`;
    names.push(name);
    await writeJson(mirrored(root, objectUrl(name)), {
      uriPrefix: `gs://${OPEN_BUILDINGS.bucket}/`,
      tilesets: [{
        crs: `EPSG:${epsg}`,
        sources: objects.map((o, k) => ({ uris: [o], affineTransform: { translateX: edge + (k - 1) * 500, translateY: top, scaleX: pixel, scaleY: -pixel }, dimensions: size })),
      }],
    });
  }
  await writeJson(mirrored(root, manifestListingUrl(token)), { items: names.map((name) => ({ name })) });
}

// A square of about 440 m whose west half lies west of 100°E.
const footprint: Polygon = { type: 'Polygon', coordinates: [[[99.998, 5.0], [100.002, 5.0], [100.002, 5.004], [99.998, 5.004], [99.998, 5.0]]] };
const plot: ContextPlot = {
  footprint,
  centroid: centroid(footprint).geometry.coordinates as [number, number],
  area_ha: area(footprint) / 10_000,
  country: 'MY',
  producer_country: 'MY',
};

const roots: string[] = [];
before(async () => {
  for (const east of [true, false]) {
    const root = await mkdtemp(join(tmpdir(), 'tile-edges-'));
    await writeEdgeArchive(root, east);
    roots.push(root);
  }
});
after(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function readContext(root: string) {
  const archive = await openArchive({ kind: 'demo', dataDir: root, root });
  try {
    const plan = await planContext(plot, archive, undefined, { readOn: '2026-11-24', whisp: true });
    const shipment = await shipRasters(plan.requests, new DecodedTiles());
    const rasters = assembleRasters(shipment.rasters, shipment.tiles);
    return { plan, result: computeContext(structuredClone(plan.prepared), rasters, plot) };
  } finally {
    await archive.close();
  }
}

/** The files each planned window reads, by the window's key. */
function filesOf(plan: Awaited<ReturnType<typeof readContext>>['plan']): Map<string, string[]> {
  return new Map(plan.requests.map((r) => [r.key, (r.parts ?? [{ cog: r.cog }]).map((p) => p.cog.id)]));
}

test('each planner asks for the tiles on both sides of the edge, not the centroid\'s tile alone', async () => {
  const { plan, result } = await readContext(roots[0]);
  const files = filesOf(plan);
  const both = (key: string, west: string, east: string) => {
    const read = files.get(key)!;
    assert.equal(read.length, 2, `${key} reads ${read.join(', ')}`);
    assert.ok(read.some((f) => f.includes(west)) && read.some((f) => f.includes(east)), `${key} reads ${read.join(', ')}`);
  };
  const { forestTypes, risk, commodityMaps, history } = plan.prepared;
  assert.ok(forestTypes.state === 'read' && risk.neighbourhood.state === 'read' && commodityMaps.oilPalm.state === 'read' && commodityMaps.rubber.state === 'read' && history.state === 'read');
  both(forestTypes.gft, 'N10_E90', 'N10_E100');
  both(forestTypes.gfc, 'N10_E90', 'N10_E100');
  both(risk.neighbourhood.lossyear, '10N_090E', '10N_100E');
  both(commodityMaps.oilPalm.extent, '_W.tif', '_E.tif');
  both(commodityMaps.oilPalm.years, '_W.tif', '_E.tif');
  both(commodityMaps.rubber.classes, 'N10_E90', 'N10_E100');
  both(history.keys.AnnualChange_2020, 'lon=E90', 'lon=E100');
  for (const year of SETTLEMENT_YEARS) {
    const y = plan.prepared.settlement.years[year];
    assert.ok(y.state === 'read', `${year} is read`);
    both(y.key, 'west.tif', 'east.tif');
    assert.equal(y.tiles.length, 2);
  }
  // Every file read: nothing is marked partly read, and the block names both TMF tiles.
  assert.equal(forestTypes.partlyRead, undefined);
  assert.equal(history.tile, 'N10_E90, N10_E100');
  // Half the plot on each side.
  const types = result.blocks.forest_types;
  assert.ok(types.available);
  assert.ok(Math.abs(types.primary! - 0.5) < 0.05 && Math.abs(types.planted! - 0.5) < 0.05, `primary ${types.primary}, planted ${types.planted}`);
  assert.ok(Math.abs(result.blocks.commodity_maps.rubber.rubber_2020! - 0.5) < 0.05);
});

test('with the eastern tiles missing, the maps state the half they read and give no share from it, never the missing half as a class', async () => {
  const whole = await readContext(roots[0]);
  const { plan, result } = await readContext(roots[1]);
  const { forestTypes, risk, commodityMaps, history } = plan.prepared;
  assert.ok(forestTypes.state === 'read' && risk.neighbourhood.state === 'read' && commodityMaps.oilPalm.state === 'read' && commodityMaps.rubber.state === 'read' && history.state === 'read');
  assert.ok(forestTypes.partlyRead?.[forestTypes.gft] !== undefined, 'the missing tile is marked');
  assert.equal(history.tile, 'N10_E90');
  const half = (share: number | null, what: string) => assert.ok(share !== null && share > 0.4 && share < 0.6, `${what} covers ${share}`);
  // Read whole, every map covers the plot.
  assert.equal(whole.result.blocks.forest_types.coverage, 1);
  assert.equal(whole.result.blocks.history.coverage, 1);
  assert.deepEqual([whole.result.blocks.commodity_maps.oil_palm.coverage, whole.result.blocks.commodity_maps.rubber.coverage], [1, 1]);
  // Half read: no share, no fact, and none of the missing half read as "not forest".
  const types = result.blocks.forest_types;
  assert.deepEqual([types.available, types.primary, types.not_forest], [false, null, null]);
  half(types.coverage, 'forest types');
  assert.deepEqual([result.facts.eu_forest_maps_read_forest, result.facts.eu_maps_at_most_a_tenth_forest, result.facts.planted_forest_2020], [false, false, false]);
  const { oil_palm: palm, rubber } = result.blocks.commodity_maps;
  assert.deepEqual([palm.available, palm.industrial_2021, rubber.available, rubber.rubber_2020], [false, null, false, null]);
  half(palm.coverage, 'oil palm');
  half(rubber.coverage, 'rubber');
  // The moist-forest record over half of a Malaysian plot: not available, and the finding is withheld as for an unread record.
  const h = result.blocks.history;
  assert.deepEqual([h.available, h.classes_2020], [false, null]);
  half(h.coverage, 'history');
  assert.ok(h.pixels! > 0.4 * whole.result.blocks.history.pixels! && h.pixels! < 0.6 * whole.result.blocks.history.pixels!);
  assert.equal(result.facts.landsat_record_unavailable, true);
  // Open Buildings cells of the missing tile read as nodata: about half the plot's cells hold data.
  const built = result.blocks.settlement.years['2020'];
  const builtWhole = whole.result.blocks.settlement.years['2020'];
  assert.equal(plan.prepared.settlement.years[2020].state === 'read' && plan.prepared.settlement.years[2020].tiles.length, 1);
  assert.ok(built.inside.read && built.inside.present === false, JSON.stringify(built));
  assert.equal(builtWhole.inside.valid_pixels, builtWhole.inside.pixels);
  assert.ok(built.inside.valid_pixels! > 0.4 * built.inside.pixels! && built.inside.valid_pixels! < 0.6 * built.inside.pixels!, `${built.inside.valid_pixels} of ${built.inside.pixels}`);
  // The ring read is its western half: the missing tile's pixels read as "no data", not land, and
  // half a ring gives no figure.
  const ring = result.blocks.risk.neighbourhood;
  const ringWhole = whole.result.blocks.risk.neighbourhood;
  assert.ok(ringWhole.available && ringWhole.coverage! > 0.99, `whole ring covers ${ringWhole.coverage}`);
  assert.deepEqual([ring.available, ring.prevalence_pct], [false, null]);
  half(ring.coverage, 'ring');
});
