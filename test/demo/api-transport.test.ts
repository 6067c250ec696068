// The demo world's API-shaped sources answered in-process: the same answers and the same errors a
// network client gets from them over HTTP, redirects followed as the network client follows them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoApi, DEMO_GFW_API_KEY, type DemoApi } from '../../src/demo/api-transport.ts';
import { DEMO_SITES } from '../../src/demo/sites.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import { isSourceError } from '../../src/engine/sources/errors.ts';
import { createHttpClient, type HttpClient } from '../../src/engine/sources/http-client.ts';
import { archiveUrl } from '../../src/engine/sources/products/archive-url.ts';
import { aroundQuery } from '../../src/engine/sources/products/protected-areas/codes.ts';
import { type ArchiveServer, serveDemoArchive } from '../support/archive-server.ts';
import { demoWorld } from '../support/demo-world.ts';

let api: DemoApi;
let server: ArchiveServer;
let network: HttpClient;

before(async () => {
  const { root } = await demoWorld();
  api = demoApi(root);
  server = await serveDemoArchive(root);
  network = createHttpClient({ retries: 0 });
});

after(async () => {
  network.close();
  await server.close();
});

const GFW = 'https://data-api.globalforestwatch.org';
const key = { 'x-api-key': DEMO_GFW_API_KEY };
const inProcess = (real: string) => archiveUrl(real, { root: api.root, synthetic: true }, { api: true });
const overHttp = (real: string) => archiveUrl(real, { root: server.url, synthetic: true }, { api: true });
const plot = { type: 'Polygon', coordinates: [buildSiteModel(DEMO_SITES.find((s) => s.name === 'ci-tai-cleared-2022')!, DEMO_SEED).lonLatRing] };

test('answers the catalogue, a query posted through the latest redirect and the old path, and Overpass as the server does', async () => {
  const catalogue = `${GFW}/dataset/gfw_integrated_alerts`;
  // `latest` answers 307 and the bare `query` 308: both keep the POST and its body.
  const query = `${GFW}/dataset/gfw_integrated_alerts/latest/query`;
  const body = { sql: 'SELECT latitude, longitude FROM data', geometry: plot };
  const overpass = `https://overpass-api.de/api/interpreter?data=${encodeURIComponent(aroundQuery(DEMO_SITES[0].centre[0], DEMO_SITES[0].centre[1], 25_000))}`;
  const here = {
    catalogue: await api.http.getJson(inProcess(catalogue)),
    rows: await api.http.postJson<{ data: unknown[] }>(inProcess(query), body, { headers: key }),
    overpass: await api.http.getJson(inProcess(overpass)),
  };
  const there = {
    catalogue: await network.getJson(overHttp(catalogue)),
    rows: await network.postJson<{ data: unknown[] }>(overHttp(query), body, { headers: key }),
    overpass: await network.getJson(overHttp(overpass)),
  };
  assert.ok(here.rows.data.length > 100, `${here.rows.data.length} alert rows over a plot cleared in 2022`);
  assert.deepEqual(here, there);
});

test('the address after redirects is the one that answered, under the archive root; a body asked shared is shared', async () => {
  const res = await api.http.get(inProcess(`${GFW}/dataset/gfw_integrated_alerts/latest`), { shared: true });
  assert.equal(res.status, 200);
  assert.equal(res.url, inProcess(`${GFW}/dataset/gfw_integrated_alerts/v20251115`));
  assert.equal(res.headers['content-length'], String(res.body.length));
  assert.ok(res.body.buffer instanceof SharedArrayBuffer);
  assert.equal(JSON.parse(Buffer.from(res.body).toString('utf8')).data.version, 'v20251115');
});

test('refusals leave as the network client\'s errors: a wrong key is http_status 403, an unknown dataset not_found', async () => {
  const query = `${GFW}/dataset/gfw_integrated_alerts/v20251115/query/json`;
  const body = { sql: 'SELECT latitude FROM data', geometry: plot };
  for (const client of [api.http, network]) {
    const at = client === api.http ? inProcess : overHttp;
    await assert.rejects(client.postJson(at(query), body, { headers: { 'x-api-key': 'wrong' } }), (e: unknown) => isSourceError(e, 'http_status') && e.status === 403);
    await assert.rejects(client.getJson(at(`${GFW}/dataset/no_such_dataset`)), (e: unknown) => isSourceError(e, 'not_found') && e.status === 404);
  }
});

test('refuses an address outside its archive, a body over the limit, and a request already aborted', async () => {
  await assert.rejects(api.http.getJson(`${GFW}/dataset/gfw_integrated_alerts`), (e: unknown) => isSourceError(e, 'network'));
  await assert.rejects(api.http.getJson(inProcess(`${GFW}/dataset/gfw_integrated_alerts`), { maxBytes: 10 }), (e: unknown) => isSourceError(e, 'too_large'));
  const stop = new AbortController();
  stop.abort(new Error('stopped'));
  await assert.rejects(api.http.getJson(inProcess(`${GFW}/dataset/gfw_integrated_alerts`), { signal: stop.signal }), /stopped/);
});

test('a download is written whole at its path', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'demo-api-'));
  try {
    const path = join(dir, 'fields.json');
    const bytes = await api.http.download(inProcess(`${GFW}/dataset/gfw_integrated_alerts/v20251115/fields`), path);
    const text = await readFile(path, 'utf8');
    assert.equal(Buffer.byteLength(text), bytes);
    assert.ok(Array.isArray(JSON.parse(text).data));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
