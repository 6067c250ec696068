import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openByteSource } from '../../../src/engine/sources/byte-source.ts';
import { isSourceError } from '../../../src/engine/sources/errors.ts';
import { createHttpClient } from '../../../src/engine/sources/http-client.ts';
import { startArchiveServer, type RouteHandler } from '../../support/archive-server.ts';
import { openCatalogue, type StacItem, type StacQuery } from '../../../src/engine/sources/stac.ts';
import { tempDir } from './gdal-fixtures.ts';

// Items of the Earth Search v1 `sentinel-2-l2a` shape: one a fortnight over two MGRS squares.
function s2Item(square: string, lon0: number, day: number, cloud: number): StacItem {
  const date = new Date(Date.UTC(2019, 0, 1) + day * 86_400_000);
  const ymd = date.toISOString().slice(0, 10).replaceAll('-', '');
  const id = `S2A_33${square}_${ymd}_0_L2A`;
  const ring = [[lon0, 50], [lon0 + 1, 50], [lon0 + 1, 51], [lon0, 51], [lon0, 50]];
  return {
    type: 'Feature',
    stac_version: '1.0.0',
    id,
    collection: 'sentinel-2-l2a',
    geometry: { type: 'Polygon', coordinates: [ring] },
    bbox: [lon0, 50, lon0 + 1, 51],
    properties: { datetime: date.toISOString(), 'eo:cloud_cover': cloud, 'proj:epsg': 32633, 'earthsearch:boa_offset_applied': true },
    assets: {
      red: {
        href: `https://sentinel-cogs.s3.us-west-2.amazonaws.com/sentinel-s2-l2a-cogs/33/U/${square}/2019/${date.getUTCMonth() + 1}/${id}/B04.tif`,
        type: 'image/tiff; application=geotiff; profile=cloud-optimized',
        'raster:bands': [{ data_type: 'uint16', nodata: 0, scale: 0.0001, offset: -0.1 }],
      },
    },
    links: [],
  } as StacItem;
}

function writeCatalogue(dir: string): StacItem[] {
  const items: StacItem[] = [];
  for (let i = 0; i < 24; i++) {
    items.push(s2Item('VP', 14, i * 14, (i * 37) % 100));
    items.push(s2Item('WP', 16, i * 14 + 3, (i * 53) % 100));
  }
  const base = join(dir, 'earth-search.aws.element84.com', 'v1');
  for (const item of items) {
    const folder = join(base, 'collections', 'sentinel-2-l2a', 'items');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${item.id}.json`), JSON.stringify(item));
  }
  // Other JSON beside the items is not a scene; an item of another collection must be filtered out.
  writeFileSync(join(base, 'collections', 'sentinel-2-l2a', 'collection.json'), JSON.stringify({ type: 'Collection', id: 'sentinel-2-l2a' }));
  writeFileSync(join(base, 'other.json'), JSON.stringify({ ...s2Item('VP', 14, 30, 5), id: 'LC09_x', collection: 'landsat-c2-l2' }));
  return items;
}

const query: StacQuery = {
  collections: ['sentinel-2-l2a'],
  bbox: [14.2, 50.2, 14.4, 50.4],
  datetime: '2019-03-01T00:00:00Z/2019-09-30T23:59:59Z',
  query: { 'eo:cloud_cover': { lt: 80 } },
};

function expected(items: StacItem[], q: StacQuery): string[] {
  const [from, to] = q.datetime.split('/').map(Date.parse);
  return items
    .filter((i) => i.id.includes('33VP'))
    .filter((i) => Date.parse(i.properties.datetime!) >= from && Date.parse(i.properties.datetime!) <= to)
    .filter((i) => (i.properties['eo:cloud_cover'] as number) < 80)
    .sort((a, b) => Date.parse(b.properties.datetime!) - Date.parse(a.properties.datetime!))
    .map((i) => i.id);
}

async function collect(it: AsyncIterable<StacItem>): Promise<StacItem[]> {
  const out: StacItem[] = [];
  for await (const item of it) out.push(item);
  return out;
}

async function ids(it: AsyncIterable<StacItem>): Promise<string[]> {
  return (await collect(it)).map((i) => i.id);
}

test('the static catalogue filters by collection, bbox, datetime and the cloud query, newest first', async () => {
  using dir = tempDir();
  const items = writeCatalogue(dir.path);
  const catalogue = openCatalogue(join(dir.path, 'earth-search.aws.element84.com', 'v1'));
  const found = await ids(catalogue.search(query));
  assert.ok(found.length >= 5);
  assert.deepEqual(found, expected(items, query));

  const intersects = { type: 'Polygon' as const, coordinates: [[[16.5, 50.5], [16.6, 50.5], [16.6, 50.6], [16.5, 50.5]]] };
  const wp = await ids(catalogue.search({ collections: ['sentinel-2-l2a'], intersects, datetime: '2019-01-01T00:00:00Z/..' }));
  assert.equal(wp.length, 24);
  assert.ok(wp.every((id) => id.includes('33WP')));
  assert.deepEqual(await ids(catalogue.search({ collections: ['landsat-c2-l2'], datetime: '../..' })), ['LC09_x']);
  await assert.rejects(ids(catalogue.search({ ...query, query: { 'eo:cloud_cover': { below: 3 } } })), /operator "below"/);
});

test('the API client pages through POST-body next links', async () => {
  using dir = tempDir();
  const items = writeCatalogue(dir.path);
  const server = await startArchiveServer({ root: dir.path, stac: { pageSize: 3 } });
  const http = createHttpClient();
  try {
    const catalogue = openCatalogue(`${server.url}/earth-search.aws.element84.com/v1`, { http });
    const want = expected(items, query);
    const found = await ids(catalogue.search({ ...query, limit: 3 }));
    assert.deepEqual(found, want);
    const searches = server.requests();
    assert.equal(searches.length, Math.ceil(want.length / 3));
    assert.ok(searches.every((r) => r.method === 'POST' && r.path === '/earth-search.aws.element84.com/v1/search'));
  } finally {
    http.close();
    await server.close();
  }
});

test('the API client follows GET next links', async () => {
  using dir = tempDir();
  const items = writeCatalogue(dir.path);
  const server = await startArchiveServer({ root: dir.path, stac: { pageSize: 2, nextMethod: 'GET' } });
  const http = createHttpClient();
  try {
    const catalogue = openCatalogue(`${server.url}/earth-search.aws.element84.com/v1`, { http });
    const found = await ids(catalogue.search({ ...query, limit: 2 }));
    assert.deepEqual(found, expected(items, query));
    const methods = server.requests().map((r) => r.method);
    assert.equal(methods[0], 'POST');
    assert.ok(methods.length > 2 && methods.slice(1).every((m) => m === 'GET'));
  } finally {
    http.close();
    await server.close();
  }
});

test('a next link with merge: true adds its body to the previous one', async () => {
  using dir = tempDir();
  const bodies: Record<string, unknown>[] = [];
  const routes: RouteHandler[] = [
    async (req, res, url) => {
      if (url.pathname !== '/api/search') return false;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString());
      bodies.push(body);
      const page = Number(body.next ?? 0);
      const links = page < 2 ? [{ rel: 'next', method: 'POST', href: `${url.origin}/api/search`, body: { next: String(page + 1) }, merge: true }] : [];
      res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify({ type: 'FeatureCollection', features: [s2Item('VP', 14, page, 1)], links }));
      return true;
    },
  ];
  const server = await startArchiveServer({ root: dir.path, routes });
  const http = createHttpClient();
  try {
    const found = await ids(openCatalogue(`${server.url}/api`, { http }).search(query));
    assert.equal(found.length, 3);
    assert.deepEqual(bodies.map((b) => [b.next, b.collections]), [[undefined, ['sentinel-2-l2a']], ['1', ['sentinel-2-l2a']], ['2', ['sentinel-2-l2a']]]);
  } finally {
    http.close();
    await server.close();
  }
});

test('a next link that repeats a page, or an answer that is not an item collection, is invalid_catalogue', async () => {
  using dir = tempDir();
  const routes: RouteHandler[] = [
    (req, res, url) => {
      if (url.pathname === '/loop/search') {
        const links = [{ rel: 'next', method: 'GET', href: `${url.origin}/loop/search?token=1` }];
        res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify({ type: 'FeatureCollection', features: [s2Item('VP', 14, 1, 1)], links }));
        return true;
      }
      if (url.pathname === '/broken/search') {
        res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', id: 'x' }] }));
        return true;
      }
      return false;
    },
  ];
  const server = await startArchiveServer({ root: dir.path, routes });
  const http = createHttpClient();
  try {
    await assert.rejects(ids(openCatalogue(`${server.url}/loop`, { http }).search(query)), (e) => isSourceError(e, 'invalid_catalogue') && /repeats/.test(e.message));
    await assert.rejects(ids(openCatalogue(`${server.url}/broken`, { http }).search(query)), (e) => isSourceError(e, 'invalid_catalogue'));
  } finally {
    http.close();
    await server.close();
  }
});

test('a malformed item file in a static catalogue is an error naming the file', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'good.json'), JSON.stringify(s2Item('VP', 14, 1, 1)));
  writeFileSync(join(dir.path, 'bad.json'), '{"type": "Feature", "id": ');
  await assert.rejects(ids(openCatalogue(dir.path).search(query)), (e) => isSourceError(e, 'invalid_catalogue') && /bad\.json/.test(e.message));
});

test('relative asset hrefs resolve to where the item was read: a file URL on disk, the server over HTTP', async () => {
  using dir = tempDir();
  const folder = join(dir.path, 'stac', 'items', 'S2A_33VP_20190301_0_L2A');
  mkdirSync(folder, { recursive: true });
  const item = s2Item('VP', 14, 59, 1);
  item.assets.red.href = './B04.tif';
  item.assets.scl = { href: 'https://example.org/absolute/SCL.tif' };
  writeFileSync(join(folder, 'item.json'), JSON.stringify(item));
  writeFileSync(join(folder, 'B04.tif'), 'pixels');

  const [onDisk] = await collect(openCatalogue(join(dir.path, 'stac')).search(query));
  assert.equal(onDisk.assets.red.href, pathToFileURL(join(folder, 'B04.tif')).href);
  assert.equal(onDisk.assets.scl.href, 'https://example.org/absolute/SCL.tif');
  assert.equal(await openByteSource(onDisk.assets.red.href).readAll().then((b) => Buffer.from(b).toString()), 'pixels');

  const server = await startArchiveServer({ root: dir.path });
  const http = createHttpClient();
  try {
    const found = await collect(openCatalogue(`${server.url}/stac`, { http }).search(query));
    assert.equal(found[0].assets.red.href, `${server.url}/stac/items/S2A_33VP_20190301_0_L2A/B04.tif`);
    assert.equal(Buffer.from((await http.get(found[0].assets.red.href)).body).toString(), 'pixels');
  } finally {
    http.close();
    await server.close();
  }
});
