import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openByteSource } from '../../src/engine/sources/byte-source.ts';
import { isSourceError, isTransient } from '../../src/engine/sources/errors.ts';
import { createHttpClient } from '../../src/engine/sources/http-client.ts';
import { startArchiveServer } from './archive-server.ts';
import { tempDir } from '../engine/sources/gdal-fixtures.ts';

test('serves files with Range: 206 with Content-Range, 416 outside the file, HEAD without a body', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'f.bin'), Buffer.from('0123456789'));
  const server = await startArchiveServer({ root: dir.path });
  try {
    const part = await fetch(`${server.url}/f.bin`, { headers: { range: 'bytes=2-5' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), 'bytes 2-5/10');
    assert.equal(await part.text(), '2345');
    const suffix = await fetch(`${server.url}/f.bin`, { headers: { range: 'bytes=-3' } });
    assert.equal(await suffix.text(), '789');
    const outside = await fetch(`${server.url}/f.bin`, { headers: { range: 'bytes=20-30' } });
    assert.equal(outside.status, 416);
    assert.equal(outside.headers.get('content-range'), 'bytes */10');
    await outside.body?.cancel();
    const head = await fetch(`${server.url}/f.bin`, { method: 'HEAD' });
    assert.equal(head.headers.get('content-length'), '10');
    assert.equal(head.headers.get('accept-ranges'), 'bytes');
    const escape = await fetch(`${server.url}/..%2F..%2Fetc%2Fpasswd`);
    assert.equal(escape.status, 404);
    await escape.body?.cancel();
    assert.deepEqual(server.requests().map((r) => r.status), [206, 206, 416, 200, 404]);
  } finally {
    await server.close();
  }
});

test('one mirror down fails every request under its prefix and nothing else, with errors naming code and url', async () => {
  using dir = tempDir();
  for (const mirror of ['mirror-a', 'mirror-b']) {
    mkdirSync(join(dir.path, mirror));
    writeFileSync(join(dir.path, mirror, 'tile.tif'), Buffer.alloc(1000, 3));
  }
  const server = await startArchiveServer({ root: dir.path, faults: { down: ['/mirror-a/'] } });
  const http = createHttpClient({ retries: 1, retryBaseMs: 1, retryCapMs: 2 });
  try {
    const a = `${server.url}/mirror-a/tile.tif`;
    // A down mirror is transient (move to the next one); a missing file is not.
    await assert.rejects(openByteSource(a, { http }).read(0, 100), (e) => isSourceError(e, 'http_status') && e.status === 503 && e.url === a && isTransient(e));
    await assert.rejects(openByteSource(`${server.url}/mirror-b/none.tif`, { http }).read(0, 100), (e) => isSourceError(e, 'not_found') && !isTransient(e));
    const b = await openByteSource(`${server.url}/mirror-b/tile.tif`, { http }).read(0, 100);
    assert.equal(b.length, 100);
    const failures = server.requests().filter((r) => r.status >= 500);
    assert.equal(failures.length, 2);
    assert.ok(failures.every((r) => r.path.startsWith('/mirror-a/') && r.fault === 'down'));
    assert.deepEqual(server.requests().filter((r) => r.path.startsWith('/mirror-b/')).map((r) => r.status), [404, 206]);

    server.setFaults({});
    assert.equal((await openByteSource(a, { http }).read(0, 10)).length, 10, 'the mirror is back once the fault is lifted');
  } finally {
    http.close();
    await server.close();
  }
});

test('a fault hits only the requests it matches, up to its count', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'a.tif'), 'aaaa');
  writeFileSync(join(dir.path, 'b.json'), '{}');
  const server = await startArchiveServer({ root: dir.path, faults: { status: { match: /\.tif$/, count: 2, status: 502 } } });
  try {
    const statuses = [];
    for (const path of ['/a.tif', '/b.json', '/a.tif', '/a.tif']) {
      const res = await fetch(server.url + path);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [502, 200, 502, 200]);
  } finally {
    await server.close();
  }
});

test('extra route handlers answer before the files, and what they decline falls through', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'x.json'), '{"file":true}');
  const server = await startArchiveServer({
    root: dir.path,
    latencyMs: 5,
    bytesPerSecond: 200_000,
    routes: [
      (req, res, url) => {
        if (url.pathname !== '/api/interpreter') return false;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: 0.6, elements: [] }));
        return true;
      },
    ],
  });
  try {
    assert.deepEqual(await (await fetch(`${server.url}/api/interpreter`, { method: 'POST', body: 'data=x' })).json(), { version: 0.6, elements: [] });
    assert.deepEqual(await (await fetch(`${server.url}/x.json`)).json(), { file: true });
    assert.deepEqual(server.requests().map((r) => [r.method, r.path, r.status]), [['POST', '/api/interpreter', 200], ['GET', '/x.json', 200]]);
  } finally {
    await server.close();
  }
});

test('a link bandwidth is shared by every response at once: three bodies together take three times one', async () => {
  using dir = tempDir();
  const body = Buffer.alloc(200_000, 7);
  writeFileSync(join(dir.path, 'tile.bin'), body);
  const server = await startArchiveServer({ root: dir.path, linkBytesPerSecond: 1_000_000 });
  const read = async () => Buffer.from(await (await fetch(`${server.url}/tile.bin`)).arrayBuffer());
  try {
    let t = performance.now();
    assert.deepEqual(await read(), body);
    const one = performance.now() - t;
    t = performance.now();
    const three = await Promise.all([read(), read(), read()]);
    const together = performance.now() - t;
    assert.ok(three.every((b) => b.equals(body)));
    // 200 kB at 1 MB/s is 200 ms; 600 kB through the same link at least 600 ms.
    assert.ok(one >= 180, `one body took ${one.toFixed(0)} ms`);
    assert.ok(together >= 570, `three bodies at once took ${together.toFixed(0)} ms`);
    assert.deepEqual(server.requests().map((r) => r.bytes), [200_000, 200_000, 200_000, 200_000]);
  } finally {
    await server.close();
  }
});
