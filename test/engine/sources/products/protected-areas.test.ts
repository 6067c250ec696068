import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient } from '../../../../src/engine/sources/http-client.ts';
import { answering, startArchiveServer } from '../../../support/archive-server.ts';
import { overpassRoutes } from '../../../../src/demo/overpass-routes.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { aroundQuery, containingQuery, toProtectedArea } from '../../../../src/engine/sources/products/protected-areas/codes.ts';
import { createProtectedAreasAdapter } from '../../../../src/engine/sources/products/protected-areas/reader.ts';
import { demoWorld } from '../../../support/demo-world.ts';

test('queries name the three tag families and the point', () => {
  const q = aroundQuery(11.55, -0.45, 25000);
  assert.match(q, /around:25000,-0\.450000,11\.550000/);
  assert.match(q, /"boundary"="protected_area"/);
  assert.match(q, /"leisure"="nature_reserve"/);
  assert.match(q, /"boundary"="national_park"/);
  assert.match(containingQuery(11.55, -0.45), /is_in\(-0\.450000,11\.550000\)/);
});

test('an element becomes an area with its own designation and IUCN category only where tagged', () => {
  const ring = [{ lat: 0, lon: 0 }, { lat: 0, lon: 1 }, { lat: 1, lon: 1 }, { lat: 0, lon: 0 }];
  const a = toProtectedArea({ type: 'way', id: 7, tags: { name: 'X', boundary: 'protected_area', protect_class: '1b' }, geometry: ring });
  assert.deepEqual({ ...a, polygons: a.polygons.length }, { name: 'X', designation: 'Protected area', iucn_category: 'Ib', map_type: 'osm', map_id: 'way/7', polygons: 1 });
  const b = toProtectedArea({ type: 'area', id: 3_600_000_012, tags: { leisure: 'nature_reserve' } });
  assert.equal(b.map_id, 'relation/12');
  assert.equal(b.iucn_category, null);
  assert.equal(b.designation, 'Nature Reserve');
});

test('finds protected areas around and containing demo points through an Overpass-shaped endpoint', async () => {
  const { root } = await demoWorld();
  const server = await startArchiveServer({ root, routes: [answering(overpassRoutes({ root }))] });
  const http = createHttpClient({ retries: 0 });
  try {
    const pa = createProtectedAreasAdapter({ where: { root: server.url, synthetic: true }, http });
    const [lon, lat] = DEMO_SITES.find((s) => s.name === 'ci-tai-cleared-2022')!.centre;
    const near = await pa.around(lon, lat, 25_000);
    assert.deepEqual(near.areas.map((a) => [a.designation, a.iucn_category]), [['Parc National', 'II']]);
    assert.equal(near.areas[0].polygons.length, 1);
    assert.equal(near.snapshot, '2025-11-15T00:00:00Z');
    assert.equal((await pa.containing(lon, lat)).areas.length, 0);
    assert.equal((await pa.around(lon, lat, 1000)).areas.length, 0);
    const [jlon, jlat] = DEMO_SITES.find((s) => s.name === 'id-jambi-pulpwood-concession')!.centre;
    assert.equal((await pa.around(jlon, jlat, 25_000)).areas[0].iucn_category, 'IV');
    assert.equal(near.provenance.attribution, '© OpenStreetMap contributors');
  } finally {
    http.close();
    await server.close();
  }
});
