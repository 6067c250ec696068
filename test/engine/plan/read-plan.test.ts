import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Archive } from '../../../src/engine/archive.ts';
import { failureReason } from '../../../src/reading-service/job-runner.ts';
import { MAX_READ_AREA_HA, planRead, type PlotToRead, ReadError } from '../../../src/engine/plan/read-plan.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDemoArchive } from '../../../src/demo/open-archive.ts';
import { demoWorld } from '../../support/demo-world.ts';
import { DEMO_SITES } from '../../../src/demo/sites.ts';
import { buildSiteModel } from '../../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../../src/demo/world.ts';

/** An archive that records every use: a refused read must not search, open or fetch anything. */
function watchedArchive(): { archive: Archive; touched: string[] } {
  const touched: string[] = [];
  const archive = new Proxy({}, {
    get(_target, name) {
      touched.push(String(name));
      throw new Error(`the archive was used (${String(name)})`);
    },
  }) as Archive;
  return { archive, touched };
}

const plot = (over: Partial<PlotToRead>): PlotToRead => ({
  id: 'p1', workspaceId: 'w1', ref: 'cattle-1', geometry: { type: 'Point', coordinates: [-55, -10] },
  areaHa: null, declaredAreaHa: null, country: 'BR', producerCountry: 'BR', ...over,
});

test('refuses a point declaring 1e9 ha before the archive is touched, with a reason that says to split the plot', async () => {
  const { archive, touched } = watchedArchive();
  await assert.rejects(planRead(plot({ declaredAreaHa: 1e9 }), archive), (err: unknown) => {
    assert.ok(err instanceof ReadError);
    // The area quoted is the drawn polygon's own, measured: the declared area to within a millionth of a percent.
    assert.match(err.message, /^the circle drawn for the declared area covers 1,000,000,000(\.\d+)? ha, over the 10,000 ha a read may cover: split the plot into parts of at most 10,000 ha$/);
    assert.equal(failureReason(err), `The read could not be completed: ${err.message}`);
    return true;
  });
  assert.deepEqual(touched, []);
});

test('refuses a polygon over the area bound, and the bound is configurable', async () => {
  const square = { type: 'Polygon' as const, coordinates: [[[-55, -10], [-54.9, -10], [-54.9, -9.9], [-55, -9.9], [-55, -10]]] };
  const { archive, touched } = watchedArchive();
  const refusal = (pattern: RegExp) => (err: unknown) => err instanceof ReadError && pattern.test(err.message);
  await assert.rejects(planRead(plot({ geometry: square, areaHa: 12_000 }), archive), refusal(/^the footprint covers 12,000 ha, over the 10,000 ha/));
  await assert.rejects(planRead(plot({ geometry: square, areaHa: 12_000 }), archive, undefined, { maxAreaHa: 500 }), refusal(/over the 500 ha a read may cover: split the plot into parts of at most 500 ha$/));
  assert.deepEqual(touched, []);
});

test('refuses a thin footprint within the area bound whose box would span past it', async () => {
  // About a metre wide and 780 km long, running north-east: under 10,000 ha, but every window would cover its 550 km box.
  const sliver = { type: 'Polygon' as const, coordinates: [[[-60, -10], [-55, -5], [-55, -4.99999], [-60, -9.99999], [-60, -10]]] };
  const { archive, touched } = watchedArchive();
  await assert.rejects(planRead(plot({ geometry: sliver, areaHa: 80 }), archive), (err: unknown) => {
    assert.ok(err instanceof ReadError);
    assert.match(err.message, /^the footprint spans a box of [\d,.]+ ha, over the 160,000 ha a read may span: split the plot/);
    return true;
  });
  assert.deepEqual(touched, []);
  assert.equal(MAX_READ_AREA_HA, 10_000);
});

test('a plot cut at the antimeridian is refused before the archive is touched, saying to register each side', async () => {
  const split = {
    type: 'MultiPolygon' as const,
    coordinates: [[[[180, -16.7], [180, -16.69], [179.98, -16.69], [179.98, -16.7], [180, -16.7]]], [[[-180, -16.69], [-180, -16.7], [-179.99, -16.7], [-179.99, -16.69], [-180, -16.69]]]],
  };
  const { archive, touched } = watchedArchive();
  await assert.rejects(planRead(plot({ geometry: split, areaHa: 354, country: 'FJ', producerCountry: 'FJ' }), archive), (err: unknown) => {
    assert.ok(err instanceof ReadError);
    assert.equal(err.message, 'the footprint lies on both sides of the antimeridian, which a read does not cross: register each side as its own plot');
    return true;
  });
  assert.deepEqual(touched, []);
});

test('a plot no archive covers (open ocean, a pole) fails with a plain reason instead of being read as a thin record', async () => {
  const { root } = await demoWorld();
  const dataDir = mkdtempSync(join(tmpdir(), 'ocean-'));
  const archive = await openDemoArchive({ dataDir, root });
  try {
    const ocean = { type: 'Polygon' as const, coordinates: [[[-30, 0], [-29.99, 0], [-29.99, 0.01], [-30, 0.01], [-30, 0]]] };
    for (const geometry of [ocean, { type: 'Point' as const, coordinates: [0, 89.5] }]) {
      await assert.rejects(planRead(plot({ geometry, areaHa: geometry.type === 'Point' ? null : 123, country: null, producerCountry: null }), archive), (err: unknown) => {
        assert.ok(err instanceof ReadError, String(err));
        assert.match(err.message, /^no archive covers the plot: no Sentinel-2 or Landsat scene .*open ocean, or a pole/);
        assert.equal(failureReason(err), `The read could not be completed: ${err.message}`);
        return true;
      });
    }
  } finally {
    await archive.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an acquisition the archive publishes twice (a neighbouring MGRS tile, a reprocessing) is planned once, the other named in skipped with why', async () => {
  const { root, manifest } = await demoWorld();
  const dataDir = mkdtempSync(join(tmpdir(), 'twins-'));
  const archive = await openDemoArchive({ dataDir, root });
  try {
    const spec = DEMO_SITES.find((s) => s.name === 'gh-dust-no-structure')!;
    const ring = buildSiteModel(spec, DEMO_SEED).lonLatRing;
    const plan = await planRead(plot({ geometry: { type: 'Polygon', coordinates: [ring] }, areaHa: spec.plot.areaHa, country: 'GH', producerCountry: 'GH' }), archive);
    // The archive holds the site's record with both twins; the plan reads each acquisition once.
    const published = manifest.sentinel2.filter((r) => r.site === spec.name && r.date <= '2020-12-31');
    const dates = published.map((r) => r.date);
    const twinDates = dates.filter((d, k) => dates.indexOf(d) !== k);
    assert.equal(twinDates.length, 2);
    const planned = plan.scenes.filter((s) => s.sensor === 'sentinel-2');
    assert.equal(planned.length, plan.searched['sentinel-2'] - 2);
    assert.equal(new Set(planned.map((s) => s.date)).size, planned.length);
    const twins = plan.skipped.filter((s) => twinDates.includes(s.at));
    assert.deepEqual(twins.map((s) => s.scene).sort(), published.filter((r) => twinDates.includes(r.date) && !planned.some((p) => p.id === r.id)).map((r) => r.id).sort());
    const [neighbour, reprocessed] = [...twins].sort((a, b) => (a.at < b.at ? -1 : 1));
    const kept = (date: string) => planned.find((p) => p.date === date)!.id;
    assert.match(neighbour.scene, /^S2[AB]_30NWL_/);
    assert.equal(neighbour.why, `the same acquisition as ${kept(neighbour.at)}, published in MGRS tile 30NWL`);
    assert.match(kept(reprocessed.at), /_1_L2A$/);
    assert.equal(reprocessed.why, `reprocessed as ${kept(reprocessed.at)} (baseline 05.00)`);
  } finally {
    await archive.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
