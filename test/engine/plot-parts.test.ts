/**
 * Multi-part plots and points read by the engine over the demo world (no database): each part of a
 * MultiPolygon is read on its own tiles and decided on its own, the plot takes its most cautious
 * part's answer, and a point with no declared area is read but not shown to reach the floor.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import type { Archive } from '../../src/engine/archive.ts';
import { DecodedTiles } from '../../src/engine/plan/raster-shipment.ts';
import { type PlotToRead, ReadError } from '../../src/engine/plan/read-plan.ts';
import { type EngineDeps, readPlot } from '../../src/engine/read-plot.ts';
import { loadSigningKey } from '../../src/engine/signing.ts';
import { metresPerDegree } from '../../src/engine/sources/reproject.ts';
import { createPool, type EnginePool } from '../../src/engine/worker/pool.ts';
import { polygonsAreaHa } from '../../src/intake/geodesic.ts';
import { demoWorld } from '../support/demo-world.ts';
import { type ArchiveServer, serveDemoArchive } from '../support/archive-server.ts';
import { openArchive } from '../../src/engine/archive.ts';
import { DEMO_GFW_API_KEY } from '../../src/demo/api-transport.ts';
import { palsarTile1 } from '../../src/engine/sources/products/palsar/codes.ts';
import { site } from './evidence-helpers.ts';

const RUBBER = 'th-surat-thani-rubber';
const FOREST = 'ga-lope-evergreen-forest';

const ringOf = (name: string): Position[][] => [buildSiteModel(site(name), DEMO_SEED).lonLatRing];
const areaOf = (polygons: Position[][][]) => polygonsAreaHa(polygons as [number, number][][][]);

function plotOf(geometry: PlotToRead['geometry'], over: Partial<PlotToRead> = {}): PlotToRead {
  const areaHa = geometry.type === 'Point' ? null : areaOf(geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates);
  return { id: 'p1', workspaceId: 'w1', ref: 'parts-1', geometry, areaHa, declaredAreaHa: null, country: null, producerCountry: null, ...over };
}

/** A square of `sideM` metres whose south-west corner is `dx`, `dy` metres from the site's centre. */
function squareNear(name: string, sideM: number, dx: number, dy: number): Position[][] {
  const [lon, lat] = site(name).centre;
  const m = metresPerDegree(lat);
  const at = (x: number, y: number): Position => [lon + x / m.lon, lat + y / m.lat];
  return [[at(dx, dy), at(dx + sideM, dy), at(dx + sideM, dy + sideM), at(dx, dy + sideM), at(dx, dy)]];
}

/** An engine over the two sites' world, its archive opened from the generated files' root (on disk or a server's URL). */
async function engine(open: (root: string, dataDir: string) => Promise<Archive>): Promise<{ deps: EngineDeps; close: () => Promise<void> }> {
  const { root } = await demoWorld([RUBBER, FOREST]);
  const dataDir = mkdtempSync(join(tmpdir(), 'parts-'));
  const archive = await open(root, dataDir);
  const pool: EnginePool = createPool({ size: 2 });
  return {
    deps: { archive, pool, tiles: new DecodedTiles(), signingKey: loadSigningKey(null, dataDir) },
    async close() {
      await pool.close();
      await archive.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('plots read part by part over the demo world', () => {
  let deps: EngineDeps;
  let close: () => Promise<void>;

  before(async () => {
    ({ deps, close } = await engine((root, dataDir) => openDemoArchive({ dataDir, root })));
  });
  after(() => close());

  test('a pure plantation site read as one polygon still reads prior_management_evidenced, with no parts entry', async () => {
    const { evidence } = await readPlot(plotOf({ type: 'Polygon', coordinates: ringOf(RUBBER) }), deps);
    assert.deepEqual([evidence.verdict, evidence.reasons], ['prior_management_evidenced', ['cycle_and_structure_agree']], evidence.finding);
    assert.equal(evidence.parts, undefined);
  });

  test('forest in Gabon and rubber in Thailand in one MultiPolygon: each part read on its own tiles, the plot not positive, the forest part\'s reason the forest reason', async () => {
    const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: [ringOf(FOREST), ringOf(RUBBER)] };
    const { evidence, map } = await readPlot(plotOf(geometry), deps);
    const alone = (await readPlot(plotOf({ type: 'Polygon', coordinates: ringOf(RUBBER) }), deps)).evidence;
    const forestAlone = (await readPlot(plotOf({ type: 'Polygon', coordinates: ringOf(FOREST) }), deps)).evidence;
    const parts = evidence.parts!;
    assert.equal(parts.length, 2);
    const [forest, rubber] = parts;
    assert.deepEqual([forest.part, forest.verdict, forest.reason], [1, 'no_prior_management_evidenced', 'no_canopy_cycle']);
    assert.deepEqual([rubber.part, rubber.verdict, rubber.reasons], [2, 'prior_management_evidenced', ['cycle_and_structure_agree']]);
    // Each part is read where it lies, exactly as it reads alone: its own pixels, scenes and tiles.
    for (const [part, own] of [[forest, forestAlone], [rubber, alone]] as const) {
      assert.ok(part.read && part.pixels > 0, `part ${part.part} read ${part.pixels} pixels`);
      assert.equal(part.pixels, own.read.pixels);
      assert.equal(part.scenes_kept, own.read.scenes_kept);
      assert.deepEqual(part.tiles, { radar: own.radar.tile, height: own.height.tile });
      assert.equal(part.verdict, own.verdict);
    }
    // Lopé National Park lies over the forest part only; the top-level risk block is that part's.
    assert.deepEqual([forest.protected_area_intersects, rubber.protected_area_intersects], [
      (forestAlone.risk as { protected_area: { intersects: boolean } }).protected_area.intersects,
      (alone.risk as { protected_area: { intersects: boolean } }).protected_area.intersects,
    ]);
    assert.deepEqual([forest.protected_area_intersects, rubber.protected_area_intersects], [true, false]);
    assert.notEqual(forest.tiles.radar, rubber.tiles.radar);
    assert.notEqual(forest.tiles.height, rubber.tiles.height);
    assert.ok(Math.abs(forest.centroid[0] - 11.55) < 0.01 && Math.abs(rubber.centroid[0] - 99.13) < 0.01);
    // The plot: its most cautious part's answer and blocks, the whole plot's area, both parts named.
    assert.deepEqual([evidence.verdict, evidence.reason, evidence.reasons], ['no_prior_management_evidenced', 'no_canopy_cycle', ['no_canopy_cycle']]);
    assert.equal(evidence.read.pixels, forest.pixels);
    assert.equal(evidence.radar.tile, forest.tiles.radar);
    assert.ok(evidence.scenes.every((s) => forestAlone.scenes.includes(s)), 'no rubber scene in the forest part\'s series');
    assert.equal(evidence.plot_area_km2, Number((areaOf(geometry.coordinates) / 100).toFixed(6)));
    assert.ok(Math.abs(forest.area_ha + rubber.area_ha - evidence.plot_area_km2 * 100) < 0.001);
    assert.match(evidence.finding, /^Read part by part, the plot takes the answer of its most cautious part\. Part 1 of 2 \(\d+\.\d\d ha\): No annual canopy cycle/);
    assert.match(evidence.finding, /Part 2 of 2 \(9\.\d\d ha\): prior_management_evidenced \(cycle_and_structure_agree\)\.$/);
    assert.match(evidence.footprint, /in 2 parts, was read part by part/);
    assert.notEqual(evidence.next_step, null);
    // The map holds the whole plot; no one scene's window spans two continents, so it is drawn without a chip.
    assert.deepEqual(map.footprint, geometry);
    assert.equal(map.chip, null);
  });

  test('nine parts of 0.46 ha: each carries plot_below_evidence_floor and the plot is not positive, though the parts total over 4 ha', async () => {
    const side = Math.sqrt(4600);
    const squares = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => squareNear(RUBBER, side, -110 + i * 80, -110 + j * 80)));
    const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: squares };
    const { evidence, map } = await readPlot(plotOf(geometry), deps);
    assert.ok(evidence.plot_area_km2 * 100 > 4, `the plot holds ${evidence.plot_area_km2 * 100} ha`);
    const parts = evidence.parts!;
    assert.equal(parts.length, 9);
    for (const p of parts) {
      assert.ok(p.area_ha < 0.5 && p.area_ha > 0.45, `part ${p.part}: ${p.area_ha} ha`);
      assert.ok(p.reasons.includes('plot_below_evidence_floor'), `part ${p.part}: ${p.reasons}`);
      assert.match(p.finding, /this part is under the 4 ha evidence floor/i);
      assert.notEqual(p.verdict, 'prior_management_evidenced');
    }
    assert.notEqual(evidence.verdict, 'prior_management_evidenced');
    assert.ok(evidence.reasons.includes('plot_below_evidence_floor'));
    // Parts a few hundred metres apart share one chip, cut around the whole plot.
    assert.deepEqual(map.footprint, geometry);
    const [w, s, e, n] = map.chip!.bbox;
    for (const [lon, lat] of squares.flat(2)) assert.ok(lon > w && lon < e && lat > s && lat < n, `${lon},${lat} outside the chip`);
    // Encoded on the pool's thread and moved back whole: a true-colour PNG.
    const meta = await sharp(map.chip!.png).metadata();
    assert.deepEqual([meta.format, meta.channels], ['png', 3]);
    assert.ok(meta.width! >= 16 && meta.height! >= 16);
  });

  test('a part no archive holds anything over is stated as not read, and the plot is not positive', async () => {
    const ocean: Position[][] = [[[-30, 0], [-29.998, 0], [-29.998, 0.002], [-30, 0.002], [-30, 0]]];
    const { evidence } = await readPlot(plotOf({ type: 'MultiPolygon', coordinates: [ringOf(RUBBER), ocean] }), deps);
    const [rubber, sea] = evidence.parts!;
    assert.equal(rubber.verdict, 'prior_management_evidenced');
    assert.deepEqual([sea.read, sea.pixels, sea.verdict, sea.reasons], [false, 0, 'insufficient_record', ['record_too_thin']]);
    assert.match(sea.not_read!, /^no archive covers the plot/);
    assert.match(sea.finding, /^Nothing was read on this part: no archive covers/);
    assert.deepEqual([evidence.verdict, evidence.reasons], ['insufficient_record', ['record_too_thin']]);
    // The blocks are those of the part that was read.
    assert.equal(evidence.read.pixels, rubber.pixels);
  });

  test('the area cap holds for the parts together, though each part is under it', async () => {
    const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: [ringOf(FOREST), ringOf(RUBBER)] };
    await assert.rejects(readPlot(plotOf(geometry), { ...deps, maxReadAreaHa: 12 }), (err: unknown) => {
      assert.ok(err instanceof ReadError);
      assert.match(err.message, /^the footprint covers 17(\.\d+)? ha, over the 12 ha a read may cover: split the plot/);
      return true;
    });
  });

  test('a point with no declared area is read over the drawn polygon, stated at its measured area, and not positive', async () => {
    const { evidence, map } = await readPlot(plotOf({ type: 'Point', coordinates: site(RUBBER).centre }), deps);
    const drawnHa = areaOf([(map.footprint as Polygon).coordinates]);
    assert.equal(evidence.plot_area_km2, Number((drawnHa / 100).toFixed(6)));
    assert.match(evidence.footprint, new RegExp(`a circle of ${drawnHa.toFixed(2).replace('.', '\\.')} ha`));
    assert.deepEqual([evidence.verdict, evidence.reasons], ['prior_management_weak', ['cycle_and_structure_agree', 'plot_below_evidence_floor']], evidence.finding);
    assert.match(evidence.finding, /^Withheld: no area was declared for the point, so the plot is not shown to reach the 4 ha evidence floor\./);
    assert.equal(evidence.next_step?.code, 'below_evidence_floor');
  });

  test('a point with a declared area over the floor keeps its positive reading, stated at the drawn polygon\'s measured area', async () => {
    const { evidence, map } = await readPlot(plotOf({ type: 'Point', coordinates: site(RUBBER).centre }, { declaredAreaHa: 6 }), deps);
    const drawnHa = areaOf([(map.footprint as Polygon).coordinates]);
    assert.ok(Math.abs(drawnHa - 6) < 1e-4);
    assert.equal(evidence.plot_area_km2, Number((drawnHa / 100).toFixed(6)));
    assert.deepEqual([evidence.verdict, evidence.reasons], ['prior_management_evidenced', ['cycle_and_structure_agree']], evidence.finding);
  });
});

describe('plots read part by part through the archive served over HTTP', () => {
  let server: ArchiveServer;
  let deps: EngineDeps;
  let close: () => Promise<void>;

  before(async () => {
    ({ deps, close } = await engine(async (root, dataDir) => {
      server = await serveDemoArchive(root);
      return openArchive({ kind: 'demo', dataDir, root: server.url, gfwApiKey: DEMO_GFW_API_KEY });
    }));
  });
  after(async () => {
    await close();
    await server.close();
  });

  test('a part whose radar cannot be read from any mirror fails the whole read, as a single plot\'s would', async () => {
    // Before any read here decodes the rubber's radar tiles: the only mirror that covers Asia answers 500.
    const [lon, lat] = site(RUBBER).centre;
    server.setFaults({ status: { match: new RegExp(`${palsarTile1(lon, lat)}_(19|20)_sl_`), status: 500 } });
    try {
      const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: [ringOf(RUBBER), ringOf(FOREST)] };
      await assert.rejects(readPlot(plotOf(geometry), deps), (err: unknown) => {
        assert.ok(err instanceof ReadError);
        assert.match(err.message, /radar mosaics could not be read/);
        return true;
      });
    } finally {
      server.setFaults({});
    }
  });

  test('parts that share tiles ask the archive for each byte range once', async () => {
    server.clearRequests();
    const squares = [0, 1, 2, 3].map((i) => squareNear(RUBBER, 60, -120 + i * 70, 0));
    const { evidence } = await readPlot(plotOf({ type: 'MultiPolygon', coordinates: squares }), deps);
    assert.equal(evidence.parts!.length, 4);
    const ranges = server.requests().filter((r) => r.range !== null).map((r) => `${r.path} ${r.range}`);
    assert.ok(ranges.length > 0);
    assert.deepEqual(ranges.filter((r, k) => ranges.indexOf(r) !== k), []);
  });
});
