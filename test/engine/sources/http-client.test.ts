import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSourceError } from '../../../src/engine/sources/errors.ts';
import { createHttpClient, DEFAULT_USER_AGENT } from '../../../src/engine/sources/http-client.ts';
import { startArchiveServer, type RouteHandler } from '../../support/archive-server.ts';
import { tempDir } from './gdal-fixtures.ts';

const fast = { retryBaseMs: 1, retryCapMs: 5 };

async function bodyOf(req: Parameters<RouteHandler>[0]): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

test('retries a 500 exactly `retries` times, then fails with the status and the url', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'a.bin'), 'abc');
  const server = await startArchiveServer({ root: dir.path, faults: { status: {} } });
  const http = createHttpClient({ retries: 3, ...fast });
  try {
    const url = `${server.url}/a.bin`;
    await assert.rejects(http.get(url), (e) => isSourceError(e, 'http_status') && e.status === 500 && e.url === url);
    assert.equal(server.requests().length, 4);
  } finally {
    http.close();
    await server.close();
  }
});

test('a retry that succeeds returns the body; a 404 is not retried', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'a.bin'), 'abc');
  const server = await startArchiveServer({ root: dir.path, faults: { status: { count: 2, status: 503 } } });
  const http = createHttpClient({ retries: 5, ...fast });
  try {
    const res = await http.get(`${server.url}/a.bin`);
    assert.equal(Buffer.from(res.body).toString(), 'abc');
    assert.deepEqual(server.requests().map((r) => r.status), [503, 503, 200]);
    server.clearRequests();
    await assert.rejects(http.get(`${server.url}/missing.bin`), (e) => isSourceError(e, 'not_found') && e.status === 404);
    assert.equal(server.requests().length, 1);
  } finally {
    http.close();
    await server.close();
  }
});

test('a server that never answers is a timeout error after the bounded retries', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'a.bin'), 'abc');
  const server = await startArchiveServer({ root: dir.path, faults: { hang: {} } });
  const http = createHttpClient({ timeoutMs: 100, retries: 1, ...fast });
  try {
    await assert.rejects(http.get(`${server.url}/a.bin`), (e) => isSourceError(e, 'timeout') && e.url === `${server.url}/a.bin`);
    assert.equal(server.requests().length, 2);
  } finally {
    http.close();
    await server.close();
  }
});

test('an abort ends a hung request at once and is not retried', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'a.bin'), 'abc');
  const server = await startArchiveServer({ root: dir.path, faults: { hang: {} } });
  const http = createHttpClient({ timeoutMs: 60_000, retries: 5, ...fast });
  try {
    const controller = new AbortController();
    const pending = http.get(`${server.url}/a.bin`, { signal: controller.signal });
    while (server.requests().length === 0) await new Promise((r) => setImmediate(r));
    controller.abort(new Error('plot cancelled'));
    await assert.rejects(pending, /plot cancelled/);
    assert.equal(server.requests().length, 1);
  } finally {
    http.close();
    await server.close();
  }
});

test('a body cut mid-way is `truncated`, retried within the bound', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'big.bin'), Buffer.alloc(100_000, 7));
  const server = await startArchiveServer({ root: dir.path, faults: { truncate: {} } });
  const http = createHttpClient({ retries: 2, ...fast });
  try {
    await assert.rejects(http.get(`${server.url}/big.bin`), (e) => isSourceError(e, 'truncated'));
    assert.deepEqual(server.requests().map((r) => r.fault), ['truncate', 'truncate', 'truncate']);
  } finally {
    http.close();
    await server.close();
  }
});

test('POST bodies are sent again across 307 and 308 redirects, with the service user agent', async () => {
  using dir = tempDir();
  const seen: { method: string; body: string; agent: string | undefined }[] = [];
  const routes: RouteHandler[] = [
    (req, res, url) => {
      const m = /^\/(307|308)\/query$/.exec(url.pathname);
      if (m === null) return false;
      res.writeHead(Number(m[1]), { location: '/query/json' }).end();
      return true;
    },
    async (req, res, url) => {
      if (url.pathname !== '/query/json') return false;
      seen.push({ method: req.method!, body: await bodyOf(req), agent: req.headers['user-agent'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ ok: true }], status: 'success' }));
      return true;
    },
  ];
  const server = await startArchiveServer({ root: dir.path, routes });
  const http = createHttpClient(fast);
  try {
    for (const code of [307, 308]) {
      const answer = await http.postJson<{ data: unknown[] }>(`${server.url}/${code}/query`, { sql: 'SELECT 1', geometry: { type: 'Point', coordinates: [1, 2] } });
      assert.deepEqual(answer.data, [{ ok: true }]);
    }
    assert.deepEqual(seen.map((s) => s.method), ['POST', 'POST']);
    for (const s of seen) {
      assert.deepEqual(JSON.parse(s.body), { sql: 'SELECT 1', geometry: { type: 'Point', coordinates: [1, 2] } });
      assert.equal(s.agent, DEFAULT_USER_AGENT);
    }
    assert.match(DEFAULT_USER_AGENT, /^precutoff-evidence\/\d+\.\d+\.\d+/);
  } finally {
    http.close();
    await server.close();
  }
});

test('a body over maxBytes is refused with too_large; JSON that is not JSON with invalid_response', async () => {
  using dir = tempDir();
  writeFileSync(join(dir.path, 'big.bin'), Buffer.alloc(10_000));
  writeFileSync(join(dir.path, 'bad.json'), '{"not json');
  const server = await startArchiveServer({ root: dir.path });
  const http = createHttpClient(fast);
  try {
    await assert.rejects(http.get(`${server.url}/big.bin`, { maxBytes: 9_999 }), (e) => isSourceError(e, 'too_large'));
    await assert.rejects(http.getJson(`${server.url}/bad.json`), (e) => isSourceError(e, 'invalid_response'));
  } finally {
    http.close();
    await server.close();
  }
});

test('download streams a whole file to disk and leaves nothing behind on failure', async () => {
  using dir = tempDir();
  const content = Buffer.alloc(300_000);
  for (let i = 0; i < content.length; i++) content[i] = (i * 31) & 0xff;
  writeFileSync(join(dir.path, 'tile.tif'), content);
  const server = await startArchiveServer({ root: dir.path });
  const http = createHttpClient({ retries: 1, ...fast });
  try {
    const out = join(dir.path, 'copy.tif');
    assert.equal(await http.download(`${server.url}/tile.tif`, out), content.length);
    assert.deepEqual(readFileSync(out), content);
    await assert.rejects(http.download(`${server.url}/nothing.tif`, join(dir.path, 'none.tif')), (e) => isSourceError(e, 'not_found'));
    assert.throws(() => readFileSync(join(dir.path, 'none.tif')));
  } finally {
    http.close();
    await server.close();
  }
});

test('refuses options it cannot use, naming them', () => {
  assert.throws(() => createHttpClient({ retries: -1 }), /"retries"/);
  assert.throws(() => createHttpClient({ timeoutMs: Number.NaN }), /"timeoutMs"/);
});
