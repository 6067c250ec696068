// The context blocks read end to end on the demo world: planned against the archive, shipped and
// assembled as the engine does, computed from the prepared plan alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { area, centroid } from '@turf/turf';
import type { Polygon } from 'geojson';
import { type Archive, openArchive } from '../../../src/engine/archive.ts';
import { DEMO_GFW_API_KEY } from '../../../src/demo/api-transport.ts';
import { openDemoArchive } from '../../../src/demo/open-archive.ts';
import type { ContextPlot, ContextPrepared } from '../../../src/engine/context/index.ts';
import { planContext } from '../../../src/engine/plan/context/index.ts';
import { riskCountry } from '../../../src/engine/plan/context/risk.ts';
import { computeContext } from '../../../src/engine/worker/context/index.ts';
import { decide, type ContextFacts, type DecisionInput } from '../../../src/engine/decide.ts';
import { assembleRasters } from '../../../src/engine/worker/raster-window.ts';
import { DecodedTiles, shipRasters } from '../../../src/engine/plan/raster-shipment.ts';
import { DEMO_SITES, type DemoSiteSpec } from '../../../src/demo/sites.ts';
import { buildSiteModel } from '../../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../../src/demo/world.ts';
import { createHttpClient } from '../../../src/engine/sources/http-client.ts';
import { isTransient } from '../../../src/engine/sources/errors.ts';
import { type ArchiveServer, type FaultPlan, serveDemoArchive } from '../../support/archive-server.ts';
import { demoWorld } from '../../support/demo-world.ts';

let root: string;
let dataDir: string;
let archive: Archive;
const tiles = new DecodedTiles();
const READ_ON = '2026-11-22';

before(async () => {
  ({ root } = await demoWorld(DEMO_SITES.map((s) => s.name)));
  dataDir = await mkdtemp(join(tmpdir(), 'context-test-'));
  archive = await openDemoArchive({ dataDir, root });
});

after(async () => {
  await archive.close();
  await rm(dataDir, { recursive: true, force: true });
});

const site = (name: string): DemoSiteSpec => DEMO_SITES.find((s) => s.name === name)!;

function plotOf(spec: DemoSiteSpec, overrides: Partial<ContextPlot> = {}): ContextPlot {
  const footprint: Polygon = { type: 'Polygon', coordinates: [buildSiteModel(spec, DEMO_SEED).lonLatRing] };
  return {
    footprint,
    centroid: centroid(footprint).geometry.coordinates as [number, number],
    area_ha: area(footprint) / 10_000,
    country: spec.country,
    producer_country: spec.producer === null ? null : spec.country,
    ...overrides,
  };
}

async function read(plot: ContextPlot, from: Archive = archive, whisp = false) {
  const plan = await planContext(plot, from, undefined, { whisp, readOn: READ_ON });
  const shipment = await shipRasters(plan.requests, tiles);
  const rasters = assembleRasters(shipment.rasters, shipment.tiles);
  // The plan crosses to the worker by structured clone: compute from a clone, as the pool would.
  return { plan, rasters, result: computeContext(structuredClone(plan.prepared), rasters, plot) };
}

/** The archive served over HTTP with faults, without retries so a fault answers at once. */
async function faulty(faults: FaultPlan): Promise<{ archive: Archive; server: ArchiveServer }> {
  const server = await serveDemoArchive(root);
  server.setFaults(faults);
  const http = createHttpClient({ retries: 0 });
  return { server, archive: await openArchive({ kind: 'demo', dataDir, root: server.url, http, gfwApiKey: DEMO_GFW_API_KEY }) };
}

/**
 * The clearing-by-2015 fact by its rule from the site's own record: a demo site's intended facts
 * set it only where it matters to the verdict (a forest-like shade reading to overrule).
 */
function clearedBy2015(spec: DemoSiteSpec): boolean {
  const p = spec.tmf.plot;
  return p.kind === 'deforested' && p.year <= 2015 && (spec.tmf.plotShare ?? 1) === 1;
}

test('every demo site yields the context facts its truth was written for', async () => {
  for (const spec of DEMO_SITES) {
    const { result } = await read(plotOf(spec));
    const expected: ContextFacts = { ...spec.intended.context, record_cleared_by_2015: clearedBy2015(spec) };
    assert.deepEqual(result.facts, expected, spec.name);
  }
});

test('the withholding facts reach decide() and place their codes before the instruments\' reason', async () => {
  for (const name of ['id-jambi-pulpwood-concession', 'pe-madre-de-dios-eu-forest', 'in-kerala-planted-forest', 'mm-mon-tmf-undisturbed', 'kh-kampong-cham-record', 'ci-bouafle-eu-maps']) {
    const spec = site(name);
    const { result } = await read(plotOf(spec));
    const i = spec.intended;
    const input: DecisionInput = {
      plot_area_km2: spec.plot.areaHa / 100, area_known: true, cycle: i.cycle, shade: i.shade, radar: i.radar, height: i.height, terrain_outside: i.terrain_outside, context: result.facts,
    };
    const d = decide(input);
    assert.deepEqual([d.verdict, d.reasons], [spec.truth.verdict, spec.truth.reasons], name);
  }
});

test('concession: absent outside Indonesia\'s extent, inside in Jambi, present with inside: false in Malaysia', async () => {
  for (const name of ['th-surat-thani-rubber', 'br-sao-paulo-rubber', 'ci-tai-cleared-2022']) {
    const { result } = await read(plotOf(site(name)));
    assert.equal('concession' in result.blocks, false, name);
  }
  const jambi = (await read(plotOf(site('id-jambi-pulpwood-concession')))).result;
  assert.deepEqual([jambi.blocks.concession!.checked, jambi.blocks.concession!.inside], [true, true]);
  assert.ok(jambi.blocks.concession!.share! > 0);
  assert.equal(jambi.facts.inside_licensed_pulpwood_concession, true);
  assert.doesNotMatch(JSON.stringify(jambi.blocks.concession), /Demo HTI concession|Demo Pulpwood Company/);
  assert.match(jambi.blocks.concession!.note, new RegExp(READ_ON));
  const johor = (await read(plotOf(site('my-johor-oil-palm')))).result;
  assert.deepEqual([johor.blocks.concession!.checked, johor.blocks.concession!.inside, johor.blocks.concession!.share], [true, false, 0]);
  const kalbar = (await read(plotOf(site('id-kalbar-rubber')))).result;
  assert.equal(kalbar.blocks.concession!.inside, false);
});

test('an unreadable concession layer withholds on Indonesian ground; an unreadable record withholds there too', async () => {
  const spec = site('id-kalbar-rubber');
  const down = await faulty({ status: { match: 'gfw_wood_fiber', status: 503 } });
  try {
    const { result } = await read(plotOf(spec), down.archive);
    assert.deepEqual([result.blocks.concession!.checked, result.blocks.concession!.inside, result.blocks.concession!.share], [false, null, null]);
    assert.equal(result.facts.concession_layer_unavailable, true);
    // The same failure on Malaysian ground records the unread layer and withholds nothing.
    const johor = (await read(plotOf(site('my-johor-oil-palm')), down.archive)).result;
    assert.deepEqual([johor.blocks.concession!.checked, johor.facts.concession_layer_unavailable], [false, false]);
  } finally {
    await down.archive.close();
    await down.server.close();
  }
  // A record tile answering "no such file" in Indonesia is a failed read, never ground outside the record.
  const noRecord = await faulty({ status: { match: 'tmf_v1', status: 404 } });
  try {
    const { plan, result } = await read(plotOf(spec), noRecord.archive);
    assert.deepEqual([result.blocks.history.checked, result.blocks.history.available, result.blocks.history.pixels], [false, false, null]);
    assert.match(result.blocks.history.note_on_read!, /could not be read/);
    assert.equal(result.facts.landsat_record_unavailable, true);
    assert.equal(plan.requests.some((r) => r.key.includes('tmf_v1')), false);
    // Thailand is not ground whose unread record withholds: there a missing tile is no tile.
    const th = (await read(plotOf(site('th-surat-thani-rubber')), noRecord.archive)).result;
    assert.deepEqual([th.facts.landsat_record_unavailable, th.blocks.history.checked], [false, false]);
    assert.match(th.blocks.history.note_on_read!, /outside the tiles/);
  } finally {
    await noRecord.archive.close();
    await noRecord.server.close();
  }
});

test('a record host answering 503 fails the read: nothing is signed as unavailable, and the next read asks again', async () => {
  const spec = site('id-kalbar-rubber');
  const again = await faulty({ status: { match: 'tmf_v1', status: 503, count: 1 } });
  try {
    await assert.rejects(read(plotOf(spec), again.archive), (err: unknown) => isTransient(err));
    const second = (await read(plotOf(spec), again.archive)).result;
    assert.deepEqual([second.blocks.history.checked, second.facts.landsat_record_unavailable], [true, false]);
  } finally {
    await again.archive.close();
    await again.server.close();
  }
});

test('a plot outside the record\'s tiles asks for none and says so; nothing absent is served as zero', async () => {
  // A plot in the Beauce, France: north of 30°N, outside every demo map.
  const ring = [[1.5, 48.2], [1.503, 48.2], [1.503, 48.202], [1.5, 48.202], [1.5, 48.2]];
  const footprint: Polygon = { type: 'Polygon', coordinates: [ring] };
  const plot: ContextPlot = { footprint, centroid: [1.5015, 48.201], area_ha: area(footprint) / 10_000, country: 'FR', producer_country: 'FR' };
  const { plan, result } = await read(plot);
  assert.equal(plan.requests.some((r) => r.key.includes('tmf_v1')), false);
  const b = result.blocks;
  // Not checked, yet not a tile that failed: the record is there and does not cover the ground.
  assert.deepEqual([b.history.checked, b.history.available, b.history.classes_2020, b.history.moist_forest_2020_share], [false, true, null, null]);
  assert.match(b.history.note_on_read!, /30°S to 30°N/);
  assert.deepEqual([b.forest_types.available, b.forest_types.planted], [false, null]);
  assert.deepEqual([b.risk.neighbourhood.available, b.risk.neighbourhood.loss_ha, b.risk.neighbourhood.prevalence_pct], [false, null, null]);
  assert.deepEqual([b.commodity_maps.rubber.outside_coverage, b.commodity_maps.rubber.rubber_2020], [true, null]);
  assert.equal(b.settlement.present_inside_at_cutoff, null);
  assert.equal('concession' in b, false);
  assert.deepEqual(result.facts, {
    landsat_record_reads_undisturbed_forest: false, landsat_record_unavailable: false, planted_forest_2020: false, eu_forest_maps_read_forest: false,
    inside_licensed_pulpwood_concession: false, concession_layer_unavailable: false, record_cleared_by_2015: false, eu_maps_at_most_a_tenth_forest: false,
  });
});

test('protected areas: a distance for a plot outside every area, an intersection inside a park, the 25 km stop', async () => {
  const surat = (await read(plotOf(site('th-surat-thani-rubber')))).result.blocks.risk.protected_area;
  assert.deepEqual([surat.available, surat.intersects, surat.snapshot], [true, false, '2025-11-15T00:00:00Z']);
  assert.ok(surat.distance_km! > 5 && surat.distance_km! < 25, `distance ${surat.distance_km}`);
  assert.deepEqual(surat.areas.map((a) => [a.designation, a.iucn_category, a.map_type]), [['Wildlife Sanctuary', 'IV', 'osm']]);
  const lope = (await read(plotOf(site('ga-lope-evergreen-forest')))).result.blocks.risk.protected_area;
  assert.deepEqual([lope.intersects, lope.distance_km], [true, 0]);
  const johor = (await read(plotOf(site('my-johor-oil-palm')))).result.blocks.risk.protected_area;
  assert.deepEqual([johor.available, johor.intersects, johor.distance_km, johor.areas], [true, false, null, []]);
  assert.match(johor.note!, /search stops there/);
  const down = await faulty({ status: { match: 'overpass', status: 504 } });
  try {
    const pa = (await read(plotOf(site('th-surat-thani-rubber')), down.archive)).result.blocks.risk.protected_area;
    assert.deepEqual([pa.available, pa.intersects, pa.distance_km], [false, null, null]);
    assert.match(pa.note!, /OpenStreetMap/);
  } finally {
    await down.archive.close();
    await down.server.close();
  }
});

test('neighbourhood: loss since 2021 in the ring where the demo world put it, none where it did not', async () => {
  const surat = (await read(plotOf(site('th-surat-thani-rubber')))).result.blocks.risk.neighbourhood;
  assert.equal(surat.available, true);
  assert.ok(surat.prevalence_pct! > 0 && surat.loss_ha! > 0, JSON.stringify(surat));
  assert.ok(Math.abs((100 * surat.loss_ha!) / surat.ring_area_ha! - surat.prevalence_pct!) < 0.05);
  const jambi = (await read(plotOf(site('id-jambi-pulpwood-concession')))).result.blocks.risk.neighbourhood;
  assert.deepEqual([jambi.available, jambi.loss_ha, jambi.prevalence_pct], [true, 0, 0]);
});

test('settlement: years read inside and in the ring, a year refused is recorded, a year that may pass fails the read', async () => {
  const surat = (await read(plotOf(site('th-surat-thani-rubber')))).result.blocks.settlement;
  // The farmhouse went up in 2019; a shed in the ring stands throughout.
  assert.deepEqual([2016, 2020, 2023].map((y) => surat.years[y].inside.present), [false, true, true]);
  assert.deepEqual([2016, 2020, 2023].map((y) => surat.years[y].buffer.present), [true, true, true]);
  assert.deepEqual([surat.present_inside_at_cutoff, surat.present_in_buffer_at_cutoff], [true, true]);
  // A refusal is recorded; a transient failure fails the read, to be asked again.
  const busy = await faulty({ status: { match: '_2020_06_30', status: 503 } });
  try {
    await assert.rejects(read(plotOf(site('th-surat-thani-rubber')), busy.archive), (err: unknown) => isTransient(err));
  } finally {
    await busy.archive.close();
    await busy.server.close();
  }
  const down = await faulty({ status: { match: '_2020_06_30', status: 403 } });
  try {
    const s = (await read(plotOf(site('th-surat-thani-rubber')), down.archive)).result.blocks.settlement;
    assert.deepEqual([s.years['2020'].available, s.years['2020'].inside.read, s.years['2016'].inside.read], [false, false, true]);
    assert.deepEqual([s.present_inside_at_cutoff, s.present_in_buffer_at_cutoff], [null, null]);
    assert.match(s.reading, /2020 not read/);
  } finally {
    await down.archive.close();
    await down.server.close();
  }
});

test('risk and settlement never change a verdict: the same decision input with and without them', async () => {
  for (const name of ['th-surat-thani-rubber', 'ci-tai-cleared-2022', 'id-jambi-pulpwood-concession']) {
    const spec = site(name);
    const plot = plotOf(spec);
    const { plan, rasters, result } = await read(plot);
    // Unread protected areas, neighbourhood and every settlement year, and a high-risk producer country.
    const without: ContextPrepared = {
      ...plan.prepared,
      risk: { country: riskCountry({ ...plot, producer_country: 'MM' }), protectedAreas: { available: false, why: 'test' }, neighbourhood: { provenance: plan.prepared.risk.neighbourhood.provenance, state: 'not_read', why: 'test' } },
      settlement: { ...plan.prepared.settlement, years: { 2016: { state: 'unavailable', why: 'test' }, 2020: { state: 'unavailable', why: 'test' }, 2023: { state: 'unavailable', why: 'test' } } },
    };
    const other = computeContext(without, rasters, { ...plot, producer_country: 'MM' });
    assert.notDeepEqual(other.blocks.risk, result.blocks.risk);
    assert.notDeepEqual(other.blocks.settlement, result.blocks.settlement);
    assert.deepEqual(other.facts, result.facts, name);
    const i = spec.intended;
    const input = (context: ContextFacts): DecisionInput => ({
      plot_area_km2: spec.plot.areaHa / 100, area_known: true, cycle: i.cycle, shade: i.shade, radar: i.radar, height: i.height, terrain_outside: i.terrain_outside, context,
    });
    assert.deepEqual(decide(input(other.facts)), decide(input(result.facts)), name);
  }
});

test('calibration: the producer\'s country decides, else the plot\'s own; without either a centroid where regions overlap names none', async () => {
  const tiko = (await read(plotOf(site('cm-tiko-frontier'), { country: null, producer_country: null }))).plan.calibration;
  assert.deepEqual([tiko.region, tiko.state], [null, 'reads']);
  assert.match(tiko.note, /overlap.*producer's country/);
  const withProducer = (await read(plotOf(site('cm-tiko-frontier'), { country: null, producer_country: 'CM' }))).plan.calibration;
  assert.equal(withProducer.region, 'Central Africa');
  // A plot with its own country and no producer: that country places it, and classifies it.
  const own = await read(plotOf(site('cm-tiko-frontier'), { country: 'CM', producer_country: null }));
  assert.equal(own.plan.calibration.region, 'Central Africa');
  assert.deepEqual([own.result.blocks.risk.country.country, own.result.blocks.risk.country.classification], ['CM', 'standard']);
  // The producer's country still comes first.
  const producerFirst = await read(plotOf(site('cm-tiko-frontier'), { country: 'CM', producer_country: 'NG' }));
  assert.equal(producerFirst.result.blocks.risk.country.country, 'NG');
});

test('whisp: switched off by default, a rating from the same reads when on', async () => {
  const plot = plotOf(site('my-johor-oil-palm'));
  assert.deepEqual((await read(plot)).result.blocks.whisp.available, false);
  const on = (await read(plot, archive, true)).result.blocks.whisp;
  assert.equal(on.available, true);
  // Oil palm planted in 2004 on land cleared in 1992: a commodity mapped, so low.
  assert.equal(on.indicators!.ind_02_commodities, 'yes');
  assert.equal(on.risk_pcrop, 'low');
});

test('the plan refuses nothing quietly: a call that is aborted throws', async () => {
  const controller = new AbortController();
  controller.abort(new Error('job cancelled'));
  await assert.rejects(planContext(plotOf(site('th-surat-thani-rubber')), archive, controller.signal), /cancelled|abort/i);
});

test('the record is read from a host that ignores Range, as the TMF host does: each tile downloaded whole once', async () => {
  const spec = site('mm-mon-tmf-undisturbed');
  const whole = await faulty({ ignoreRange: { match: 'tmf' } });
  try {
    const first = (await read(plotOf(spec), whole.archive)).result;
    const again = (await read(plotOf(spec), whole.archive)).result;
    assert.equal(first.blocks.history.available, true);
    assert.equal(first.facts.landsat_record_reads_undisturbed_forest, true);
    assert.deepEqual(again.blocks.history, first.blocks.history);
    const tmfRequests = whole.server.requests().filter((r) => /tmf/i.test(r.path));
    assert.ok(tmfRequests.length > 0);
    assert.ok(tmfRequests.every((r) => r.range === null), 'every TMF tile is fetched whole, never by a range');
    assert.equal(new Set(tmfRequests.map((r) => r.path)).size, tmfRequests.length, 'no tile is fetched twice');
  } finally {
    await whole.archive.close();
    await whole.server.close();
  }
});
