import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openByteSource } from '../../../src/engine/sources/byte-source.ts';
import { isSourceError } from '../../../src/engine/sources/errors.ts';
import { createHttpClient } from '../../../src/engine/sources/http-client.ts';
import { startArchiveServer, type RouteHandler } from '../../support/archive-server.ts';
import { tempDir } from './gdal-fixtures.ts';

function content(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + (i >> 8)) & 0xff;
  return b;
}

const fast = { retryBaseMs: 1, retryCapMs: 5 };

test('a file source reads exact ranges on shared memory, short only at the end of the file', async () => {
  using dir = tempDir();
  const bytes = content(5000);
  const path = join(dir.path, 'f.bin');
  writeFileSync(path, bytes);
  for (const src of [openByteSource(path), openByteSource(pathToFileURL(path).href)]) {
    const r = await src.read(1000, 300);
    assert.ok(r.buffer instanceof SharedArrayBuffer);
    assert.deepEqual(Buffer.from(r), bytes.subarray(1000, 1300));
    assert.deepEqual(Buffer.from(await src.read(4900, 1024)), bytes.subarray(4900));
    assert.equal(src.size, 5000);
    assert.deepEqual(Buffer.from(await src.readAll()), bytes);
  }
  await assert.rejects(openByteSource(join(dir.path, 'none.bin')).read(0, 10), (e) => isSourceError(e, 'not_found'));
});

test('an HTTP source asks for exactly the range and checks the answer', async () => {
  using dir = tempDir();
  const bytes = content(70_000);
  writeFileSync(join(dir.path, 'f.tif'), bytes);
  const server = await startArchiveServer({ root: dir.path });
  const http = createHttpClient(fast);
  try {
    const src = openByteSource(`${server.url}/f.tif`, { http });
    assert.deepEqual(Buffer.from(await src.read(12_345, 20_000)), bytes.subarray(12_345, 32_345));
    assert.equal(src.size, 70_000);
    assert.deepEqual(Buffer.from(await src.read(69_000, 4_096)), bytes.subarray(69_000), 'a range past the end answers up to the end');
    assert.deepEqual(server.requests().map((r) => r.range), ['bytes=12345-32344', 'bytes=69000-73095']);
  } finally {
    http.close();
    await server.close();
  }
});

test('a truncated tile body is an error, never zeros', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'f.tif'), content(200_000));
  const server = await startArchiveServer({ root: dir.path, faults: { truncate: { keepBytes: 1000 } } });
  const http = createHttpClient({ retries: 1, ...fast });
  try {
    const src = openByteSource(`${server.url}/f.tif`, { http });
    await assert.rejects(src.read(50_000, 100_000), (e) => isSourceError(e, 'truncated') && e.url === `${server.url}/f.tif`);
    assert.equal(server.requests().length, 2, 'the one retry, then the error');
  } finally {
    http.close();
    await server.close();
  }
});

test('a 206 whose body is shorter than its own Content-Range is truncated; a wrong range is refused', async () => {
  using dir = tempDir();
  const routes: RouteHandler[] = [
    (req, res, url) => {
      if (url.pathname === '/short.tif') {
        // Consistent length header, but fewer bytes than the range it claims.
        res.writeHead(206, { 'content-range': 'bytes 0-99/1000', 'content-length': 50 }).end(Buffer.alloc(50, 1));
        return true;
      }
      if (url.pathname === '/shifted.tif') {
        res.writeHead(206, { 'content-range': 'bytes 10-109/1000', 'content-length': 100 }).end(Buffer.alloc(100, 1));
        return true;
      }
      return false;
    },
  ];
  const server = await startArchiveServer({ root: dir.path, routes });
  const http = createHttpClient({ retries: 0 });
  try {
    await assert.rejects(openByteSource(`${server.url}/short.tif`, { http }).read(0, 100), (e) => isSourceError(e, 'truncated'));
    await assert.rejects(openByteSource(`${server.url}/shifted.tif`, { http }).read(0, 100), (e) => isSourceError(e, 'invalid_response'));
  } finally {
    http.close();
    await server.close();
  }
});

test('a host that ignores Range: a small file is kept whole and served from memory; a large one is refused clearly', async () => {
  using dir = tempDir();
  const bytes = content(300_000);
  writeFileSync(join(dir.path, 'tmf.tif'), bytes);
  const server = await startArchiveServer({ root: dir.path, faults: { ignoreRange: {} } });
  const http = createHttpClient(fast);
  try {
    const src = openByteSource(`${server.url}/tmf.tif`, { http });
    assert.deepEqual(Buffer.from(await src.read(1000, 500)), bytes.subarray(1000, 1500));
    assert.deepEqual(Buffer.from(await src.read(250_000, 10_000)), bytes.subarray(250_000, 260_000));
    assert.equal(src.size, bytes.length);
    assert.deepEqual(server.requests().map((r) => [r.status, r.fault]), [[200, 'ignore_range']], 'one download serves both reads');

    const small = openByteSource(`${server.url}/tmf.tif`, { http, wholeBodyLimit: 100_000 });
    await assert.rejects(small.read(0, 1000), (e) => isSourceError(e, 'range_unsupported') && /download it whole/.test(e.message));
  } finally {
    http.close();
    await server.close();
  }
});

test('refuses URLs it has no source for', () => {
  assert.throws(() => openByteSource('s3://bucket/key.tif'), /no byte source/);
  assert.throws(() => openByteSource('https://example.org/x.tif'), /HTTP client/);
});
