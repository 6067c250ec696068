import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { FREE_FAILURES } from '../../src/accounts/sign-in-throttle.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type Reply, type TestApp } from '../support/app.ts';
import { fixtureEvidence, fixtureMap } from '../fixtures/evidence-wrapper.ts';
import { insertPlot } from '../documents/book.ts';

function assertAnswerHeaders(r: Reply | Response, what: string) {
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(r.headers.get('content-security-policy'), "frame-ancestors 'none'", what);
  assert.equal(r.headers.get('cache-control'), 'no-store', what);
}

/** The session cookie a sign-in sets, and its attributes. */
async function signedIn(app: TestApp, email: string, headers: Record<string, string> = {}) {
  const r = await app.call('POST', '/api/v1/auth/sign-in', { body: { email, password: 'right password' }, headers });
  assert.equal(r.status, 200);
  const setCookie = r.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], secure: /;\s*secure/i.test(setCookie) };
}

for (const backend of BACKENDS) {
  describe(`request guards (${backend})`, () => {
    let app: TestApp;
    let workspaceId: string;
    let key: string;
    let cookie: string;

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Acme', plan: 'trial', email: 'owner@acme.test', password: 'right password' });
      workspaceId = created.workspace_id as string;
      key = created.api_key as string;
      cookie = (await signedIn(app, 'owner@acme.test')).cookie;
    });
    after(() => app.close());

    const mint = (headers: Record<string, string>) => app.call('POST', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId, headers });

    test('a session write from another site is refused 403 cross_site, by Origin or Sec-Fetch-Site', async () => {
      const attempts: Record<string, string>[] = [{ origin: 'https://evil.test' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site', origin: 'https://portal.acme.test' }, { origin: 'null' }];
      for (const headers of attempts) {
        const r = await mint(headers);
        assert.equal(r.status, 403, JSON.stringify(headers));
        assert.equal(r.body.error.code, 'cross_site');
      }
      const signOut = await app.call('POST', '/api/v1/auth/sign-out', { cookie, headers: { origin: 'https://evil.test' } });
      assert.equal(signOut.status, 403);
      assert.equal((await app.call('GET', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId })).status, 200, 'the session outlives the refused sign-out');
    });

    test('a session write from the service\'s own origin, or from no browser page, goes through', async () => {
      const attempts: Record<string, string>[] = [{ origin: app.url }, { 'sec-fetch-site': 'same-origin', origin: app.url }, {}];
      for (const headers of attempts) {
        assert.equal((await mint(headers)).status, 201, JSON.stringify(headers));
      }
    });

    test('a session reads across sites as before: only writes are checked', async () => {
      const r = await app.call('GET', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' } });
      assert.equal(r.status, 200);
    });

    test('?workspace= names the workspace on a GET and is refused on a write', async () => {
      assert.equal((await app.call('GET', `/api/v1/portal/api-keys?workspace=${workspaceId}`, { cookie })).status, 200);
      const r = await app.call('POST', `/api/v1/portal/api-keys?workspace=${workspaceId}`, { cookie });
      assert.equal(r.status, 400);
      assert.equal(r.body.error.code, 'workspace_required');
      assert.match(r.body.error.message, /X-Workspace-Id/);
    });

    test('a body is read only after the caller is known', async () => {
      const send = (headers: Record<string, string>) =>
        fetch(`${app.url}/api/v1/portal/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"label": ' });
      const anonymous = await send({});
      assert.equal(anonymous.status, 401);
      assert.equal(((await anonymous.json()) as { error: { code: string } }).error.code, 'unauthorized');
      const unrouted = await fetch(`${app.url}/api/v1/nowhere`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"label": ' });
      assert.equal(unrouted.status, 404);
      const signedInCall = await send({ cookie, 'x-workspace-id': workspaceId });
      assert.equal(signedInCall.status, 400);
      assert.equal(((await signedInCall.json()) as { error: { code: string } }).error.code, 'malformed_json');
    });

    test('JSON, PDF and error answers carry nosniff, frame-ancestors none and no-store', async () => {
      assertAnswerHeaders(await app.call('GET', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId }), 'session JSON');
      assertAnswerHeaders(await app.call('GET', '/api/v1/workspace', { key }), 'a refusal');
      assertAnswerHeaders(await app.call('GET', '/api/v1/health'), 'health');
      const plotId = await insertPlot(app.services.store.em(), workspaceId, { ref: 'HDR-1', area_ha: 9, state: 'done', evidence: fixtureEvidence({ seed: 1 }) }, app.services.signingKey, await fixtureMap());
      const pdf = await fetch(`${app.url}/api/v1/portal/plots/${plotId}/evidence.pdf`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      assertAnswerHeaders(pdf, 'PDF');
    });

    test('without TRUST_PROXY a forwarded https does not make the cookie Secure', async () => {
      assert.equal((await signedIn(app, 'owner@acme.test', { 'x-forwarded-proto': 'https' })).secure, false);
    });

    // Last here: it leaves this app's own address throttled.
    test('without TRUST_PROXY a client cannot name its own address to escape the address throttle', async () => {
      for (let i = 0; i < FREE_FAILURES.address; i++) {
        const r = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: `sprayed-${i}@acme.test`, password: 'password1' }, headers: { 'x-forwarded-for': `198.51.100.${i}` } });
        assert.equal(r.status, 401);
      }
      const r = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: 'owner@acme.test', password: 'right password' }, headers: { 'x-forwarded-for': '203.0.113.1' } });
      assert.equal(r.status, 429);
    });
  });

  describe(`the session cookie's Secure flag (${backend})`, () => {
    test('an https public address gives a Secure cookie, even over a plain-HTTP last hop', async () => {
      const app = await startTestApp(backend, { BASE_URL: 'https://evidence.example.org/api/v1' });
      try {
        await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Acme', plan: 'trial', email: 'owner@acme.test', password: 'right password' });
        assert.equal((await signedIn(app, 'owner@acme.test')).secure, true);
        assert.equal((await signedIn(app, 'owner@acme.test', { 'x-forwarded-proto': 'http' })).secure, true);
      } finally {
        await app.close();
      }
    });

    test('with TRUST_PROXY, an https request the proxy forwards gets a Secure cookie and a plain one does not', async () => {
      const app = await startTestApp(backend, { TRUST_PROXY: '1' });
      try {
        await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Acme', plan: 'trial', email: 'owner@acme.test', password: 'right password' });
        assert.equal((await signedIn(app, 'owner@acme.test', { 'x-forwarded-proto': 'https' })).secure, true);
        assert.equal((await signedIn(app, 'owner@acme.test', { 'x-forwarded-proto': 'http' })).secure, false);
        assert.equal((await signedIn(app, 'owner@acme.test')).secure, false);
      } finally {
        await app.close();
      }
    });
  });
}
