import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient } from '../../../../src/engine/sources/http-client.ts';
import { answering, startArchiveServer } from '../../../support/archive-server.ts';
import { gfwDataApiRoutes } from '../../../../src/demo/gfw-routes.ts';
import { DEMO_SITES } from '../../../../src/demo/sites.ts';
import { buildSiteModel } from '../../../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../../../src/demo/world.ts';
import { decodeDateConf } from '../../../../src/engine/sources/products/gfw-alerts/codes.ts';
import { createAlertsAdapter } from '../../../../src/engine/sources/products/gfw-alerts/reader.ts';
import { GfwApiError, createGfwDataApi, newestFirst } from '../../../../src/engine/sources/products/gfw-data-api.ts';
import { demoWorld } from '../../../support/demo-world.ts';

test('date_conf decodes under either day origin, and 0 is no alert', () => {
  assert.deepEqual(decodeDateConf(20001, '2014-12-31'), { date: '2015-01-01', confidence: 'nominal' });
  assert.deepEqual(decodeDateConf(20001, '2015-01-01'), { date: '2015-01-02', confidence: 'nominal' });
  assert.deepEqual(decodeDateConf(42620, '2014-12-31'), { date: '2022-03-04', confidence: 'highest' });
  assert.equal(decodeDateConf(0, '2014-12-31'), null);
});

test('versions sort newest first', () => {
  assert.deepEqual(newestFirst(['v20240101', 'v20251115', 'v20250601']), ['v20251115', 'v20250601', 'v20240101']);
});

async function withApi<T>(fn: (where: { root: string; synthetic: true }, http: ReturnType<typeof createHttpClient>) => Promise<T>): Promise<T> {
  const { root } = await demoWorld();
  const server = await startArchiveServer({ root, routes: [answering(gfwDataApiRoutes({ root, apiKeys: ['demo-key'] }))] });
  const http = createHttpClient({ retries: 0 });
  try {
    return await fn({ root: server.url, synthetic: true }, http);
  } finally {
    http.close();
    await server.close();
  }
}

const cleared = buildSiteModel(DEMO_SITES.find((s) => s.name === 'ci-tai-cleared-2022')!, DEMO_SEED);
const plot = { type: 'Polygon' as const, coordinates: [cleared.lonLatRing] };

test('reads the alerts over a plot cleared in 2022 at the newest version, with an API key', async () => {
  await withApi(async (where, http) => {
    const alerts = createAlertsAdapter({ where, http, apiKey: 'demo-key' });
    const read = await alerts.read('integrated', plot, '2021-01-01', '2025-12-31');
    assert.equal(read.version, 'v20251115');
    assert.ok(read.pixels.length > 100);
    assert.ok(read.pixels.every((p) => p.date >= '2022-02-20' && p.date <= '2022-03-27'));
    assert.ok(read.pixels.some((p) => p.confidence === 'highest'));
    assert.equal(read.provenance.synthetic, true);
    const radd = await alerts.read('radd', plot, '2021-01-01', '2025-12-31');
    assert.ok(radd.pixels.length > 100 && radd.pixels.every((p) => p.confidence !== 'highest'));
    assert.equal((await alerts.read('integrated', plot, '2023-01-01', '2025-12-31')).pixels.length, 0);
  });
});

test('refuses to query without a key, and the API refuses a wrong one', async () => {
  await withApi(async (where, http) => {
    await assert.rejects(createAlertsAdapter({ where, http }).read('integrated', plot, '2021-01-01', '2025-12-31'), (e: unknown) => e instanceof GfwApiError && e.code === 'api_key_missing');
    await assert.rejects(createAlertsAdapter({ where, http, apiKey: 'wrong' }).read('integrated', plot, '2021-01-01', '2025-12-31'), /403/);
  });
});

test('the old /query path answers 308 and the POST body follows the redirect', async () => {
  await withApi(async (where, http) => {
    const { version } = await createGfwDataApi({ where, http }).latest('gfw_integrated_alerts');
    const answer = await http.postJson<{ data: unknown[] }>(`${where.root}/data-api.globalforestwatch.org/dataset/gfw_integrated_alerts/${version}/query`,
      { sql: "SELECT latitude FROM results WHERE gfw_integrated_alerts__date >= '2022-01-01'", geometry: plot }, { headers: { 'x-api-key': 'demo-key' } });
    assert.ok(answer.data.length > 100);
    const viaLatest = await http.postJson<{ data: unknown[] }>(`${where.root}/data-api.globalforestwatch.org/dataset/gfw_integrated_alerts/latest/query/json`,
      { sql: 'SELECT latitude FROM results', geometry: plot }, { headers: { 'x-api-key': 'demo-key' } });
    assert.equal(viaLatest.data.length, answer.data.length);
  });
});
