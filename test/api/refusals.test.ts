import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import net from 'node:net';
import zlib from 'node:zlib';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openApiDocument } from '../../src/api/openapi/index.ts';
import { assertDocumented } from '../support/openapi.ts';

interface Answer {
  status: number;
  headers: Headers;
  body: { error: { code: string; message: string } };
}

/** Every refusal has one shape: a JSON object holding only `error`, with a string code and message. */
function assertErrorShape(answer: { headers: Headers | Map<string, string>; body: unknown }, code: string): void {
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(answer.body as object), ['error']);
  const error = (answer.body as Answer['body']).error;
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message']);
  assert.equal(error.code, code);
  assert.ok(error.message.length > 10, error.message);
}

/** A raw HTTP/1.1 exchange, for requests fetch will not send (bytes outside ASCII in the request line, oversized headers). */
function rawExchange(url: string, request: Buffer): Promise<{ status: number; headers: Map<string, string>; body: unknown }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(request));
    const parts: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : null });
    });
  });
}

const GEOJSON = '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"ref":"TWO-1"},"geometry":{"type":"Point","coordinates":[-1.6,6.7]}}]}';

for (const backend of BACKENDS) {
  describe(`refusals outside the routes' own checks (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let workspaceId: string;
    let memberKey: string;

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Acme', plan: 'trial', email: 'owner@acme.test', password: 'right password' });
      key = created.api_key as string;
      workspaceId = created.workspace_id as string;
      memberKey = (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'member' })).api_key as string;
    });
    after(() => app.close());

    /** A call through fetch with the key; documented answers are checked against the OpenAPI document. */
    async function send(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit; documented?: boolean } = {}): Promise<Answer> {
      const res = await fetch(app.url + path, { method, headers: { authorization: `Bearer ${key}`, ...init.headers }, body: init.body });
      const body = await res.json();
      if (init.documented !== false) assertDocumented(method, path, res.status, body);
      return { status: res.status, headers: res.headers, body };
    }
    const postJson = (body: BodyInit, headers: Record<string, string> = {}) =>
      send('POST', '/api/v1/portal/plots/evidence', { headers: { 'content-type': 'application/json', ...headers }, body });

    test('answers 405 in the error shape with an Allow header', async () => {
      const answer = await send('DELETE', '/api/v1/portal/plots/evidence/summary', { documented: false });
      assert.equal(answer.status, 405);
      assertErrorShape(answer, 'method_not_allowed');
      assert.deepEqual(answer.headers.get('allow')?.split(/,\s*/).sort(), ['GET', 'HEAD']);
      assert.match(answer.body.error.message, /DELETE.*GET/);
    });

    test('answers 405 on a path only another method takes, though a route with a parameter also matches it', async () => {
      const answer = await send('GET', '/api/v1/portal/plots/evidence', { documented: false });
      assert.equal(answer.status, 405);
      assertErrorShape(answer, 'method_not_allowed');
      assert.equal(answer.headers.get('allow'), 'POST');
      const unknown = await send('GET', '/api/v1/portal/plots/no-such-segment', { documented: false });
      assert.equal(unknown.status, 404);
      assertErrorShape(unknown, 'not_found');
    });

    test('answers a method no route takes 501 in the error shape', async () => {
      const answer = await send('PURGE', '/api/v1/health', { documented: false });
      assert.equal(answer.status, 501);
      assertErrorShape(answer, 'not_implemented');
    });

    test('answers an unknown route 404 not_found in the error shape, inside and outside the API prefix', async () => {
      for (const path of ['/api/v1/portal/nowhere', '/nowhere']) {
        const answer = await send('GET', path, { documented: false });
        assert.equal(answer.status, 404, path);
        assertErrorShape(answer, 'not_found');
      }
    });

    test('refuses a Content-Encoding it cannot decode with 415 naming the accepted encodings', async () => {
      const answer = await postJson('{"all": true}', { 'content-encoding': 'bogus' });
      assert.equal(answer.status, 415);
      assertErrorShape(answer, 'unsupported_content_encoding');
      assert.match(answer.body.error.message, /bogus.*gzip, deflate or br/);
    });

    test('refuses a body that is not what its Content-Encoding says with 400 bad_content_encoding, and reads a true gzip body', async () => {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const answer = await postJson('{"all": true}', { 'content-encoding': encoding });
        assert.equal(answer.status, 400, encoding);
        assertErrorShape(answer, 'bad_content_encoding');
        assert.match(answer.body.error.message, new RegExp(encoding));
      }
      const gzipped = await postJson(zlib.gzipSync('{"all": true}'), { 'content-encoding': 'gzip' });
      assert.equal(gzipped.status, 200, JSON.stringify(gzipped.body));
    });

    test('answers raw UTF-8 in the query string 400 invalid_query in the error shape', async () => {
      const request = Buffer.concat([Buffer.from('GET /api/v1/portal/plots?q='), Buffer.from('café', 'utf8'), Buffer.from(` HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`)]);
      const answer = await rawExchange(app.url, request);
      assert.equal(answer.status, 400);
      assertErrorShape(answer, 'invalid_query');
      assert.match((answer.body as Answer['body']).error.message, /percent-encoded/);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
    });

    test('answers headers over the size limit 431 header_too_large in the error shape', async () => {
      const answer = await rawExchange(app.url, Buffer.from(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`));
      assert.equal(answer.status, 431);
      assertErrorShape(answer, 'header_too_large');
    });

    test('refuses JSON sent as text/plain with 415 unsupported_media_type naming application/json', async () => {
      const answer = await send('POST', '/api/v1/portal/plots/evidence', { headers: { 'content-type': 'text/plain' }, body: '{"all": true}' });
      assert.equal(answer.status, 415);
      assertErrorShape(answer, 'unsupported_media_type');
      assert.match(answer.body.error.message, /application\/json.*text\/plain/);
    });

    test('refuses a JSON body of null, an array or a string with the route\'s bad_body', async () => {
      for (const [body, what] of [['null', 'null'], ['[]', 'an array'], ['"all"', 'a string'], ['1', 'a number']]) {
        const answer = await postJson(body);
        assert.equal(answer.status, 422, body);
        assertErrorShape(answer, 'bad_body');
        assert.match(answer.body.error.message, new RegExp(`not ${what}$`));
      }
    });

    test('refuses malformed JSON with 400 malformed_json and a JSON body over 2 MB with 413 payload_too_large', async () => {
      const malformed = await postJson('{"all": ');
      assert.equal(malformed.status, 400);
      assertErrorShape(malformed, 'malformed_json');
      const large = await postJson(JSON.stringify({ all: true, padding: 'a'.repeat(2_100_000) }));
      assert.equal(large.status, 413);
      assertErrorShape(large, 'payload_too_large');
    });

    test('refuses an upload sent with a Content-Encoding with 415 unsupported_content_encoding and registers nothing', async () => {
      const form = new Response((() => { const f = new FormData(); f.append('file', new Blob([GEOJSON]), 'plots.geojson'); return f; })());
      const type = form.headers.get('content-type')!;
      const body = zlib.gzipSync(Buffer.from(await form.arrayBuffer()));
      const answer = await send('POST', '/api/v1/portal/plots/import', { headers: { 'content-type': type, 'content-encoding': 'gzip' }, body });
      assert.equal(answer.status, 415);
      assertErrorShape(answer, 'unsupported_content_encoding');
      assert.match(answer.body.error.message, /gzip is not accepted on an upload/);
      const list = await fetch(`${app.url}/api/v1/portal/plots`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(((await list.json()) as { total: number }).total, 0);
    });

    test('refuses two file parts in one upload with 400 one_file_per_upload and registers nothing', async () => {
      const form = new FormData();
      form.append('file', new Blob([GEOJSON]), 'first.geojson');
      form.append('file', new Blob([GEOJSON]), 'second.geojson');
      const answer = await send('POST', '/api/v1/portal/plots/import', { body: form });
      assert.equal(answer.status, 400);
      assertErrorShape(answer, 'one_file_per_upload');
      const list = await fetch(`${app.url}/api/v1/portal/plots`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(((await list.json()) as { total: number }).total, 0);
    });

    test('refuses a NUL or a lone surrogate anywhere in a JSON body with 400 unstorable_text on every JSON route of the OpenAPI document', async () => {
      const signIn = await fetch(`${app.url}/api/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@acme.test', password: 'right password' }) });
      assert.equal(signIn.status, 200);
      const session = { cookie: signIn.headers.get('set-cookie')!.split(';')[0]!, 'x-workspace-id': workspaceId };
      // As sent on the wire: JSON escapes for a NUL, an unpaired high and low surrogate, in values and in a key.
      const bodies: [string, RegExp][] = [
        ['{"name":"North\\u0000block","email":"owner@acme.test","password":"right password"}', /at \$\.name holds/],
        ['{"note":"\\ud800","items":[1]}', /at \$\.note holds/],
        ['{"plots":[{"ref":"ok"},{"r\\u0000":1}]}', /at \$\.plots\[1\] \(a key\) holds/],
        ['["fine","x\\udc00y"]', /at \$\[1\] holds/],
      ];
      const doc = openApiDocument(`${app.url}/api/v1`);
      let routes = 0;
      for (const [template, operations] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content: object }; security?: object[] }>>)) {
        for (const [method, op] of Object.entries(operations)) {
          if (!op.requestBody || !('application/json' in op.requestBody.content)) continue;
          routes++;
          const path = `/api/v1${template.replace(/\{[^}]+\}/g, () => crypto.randomUUID())}`;
          const credentials: Record<string, string> = op.security?.length === 0 ? {} : op.security ? session : { authorization: `Bearer ${memberKey}` };
          for (const [body, where] of bodies) {
            const res = await fetch(app.url + path, { method: method.toUpperCase(), headers: { 'content-type': 'application/json', ...credentials }, body });
            const answer = { status: res.status, headers: res.headers, body: await res.json() };
            assertDocumented(method, path, answer.status, answer.body);
            assert.equal(answer.status, 400, `${method} ${template} ${body}: ${JSON.stringify(answer.body)}`);
            assertErrorShape(answer, 'unstorable_text');
            assert.match(answer.body.error.message, where);
          }
        }
      }
      assert.ok(routes >= 20, `only ${routes} JSON routes found`);
      const list = await fetch(`${app.url}/api/v1/portal/plots`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(((await list.json()) as { total: number }).total, 0);
    });
  });
}
