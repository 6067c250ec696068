import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

for (const backend of BACKENDS) {
  describe(`authentication and keys (${backend})`, () => {
    let app: TestApp;
    let workspaceId: string;
    let portalKey: string;
    let memberKey: string;
    let cookie: string;

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], {
        name: 'Acme', plan: 'trial', email: 'owner@acme.test', password: 'correct horse',
      });
      workspaceId = created.workspace_id as string;
      portalKey = created.api_key as string;
      memberKey = (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'member' })).api_key as string;
      const signIn = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: 'OWNER@acme.test', password: 'correct horse' } });
      assert.equal(signIn.status, 200);
      cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    });
    after(() => app.close());

    test('refuses a call without a key with 401 unauthorized', async () => {
      const r = await app.call('GET', '/api/v1/workspace');
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, 'unauthorized');
    });

    test('refuses an unknown key, a malformed header and a foreign-looking token with 401', async () => {
      for (const headers of [{ authorization: 'Bearer pce_nothing_here' }, { authorization: 'Basic abc' }, { authorization: 'Bearer sk_live_123' }]) {
        const r = await app.call('GET', '/api/v1/workspace', { headers });
        assert.equal(r.status, 401, JSON.stringify(headers));
        assert.equal(r.body.error.code, 'unauthorized');
      }
    });

    test('a member key reaches the studio family and carries its workspace', async () => {
      const r = await app.call('GET', '/api/v1/workspace', { key: memberKey });
      assert.equal(r.status, 200);
      assert.equal(r.body.id, workspaceId);
      assert.deepEqual(r.body.seat, { role: 'member', via: 'key' });
      assert.deepEqual(r.body.allowance, { cap: 200, used: 0, window_days: 30 });
    });

    test('a portal key on a studio family is refused 403 forbidden, telling portal members to use the portal endpoints', async () => {
      const r = await app.call('GET', '/api/v1/workspace', { key: portalKey });
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'forbidden');
      assert.match(r.body.error.message, /portal members use the portal endpoints/);
    });

    test('keys are managed from a session, not with a key', async () => {
      const r = await app.call('GET', '/api/v1/portal/api-keys', { key: portalKey });
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'session_required');
    });

    test('a session must name a workspace it has a seat in', async () => {
      const none = await app.call('GET', '/api/v1/portal/api-keys', { cookie });
      assert.equal(none.status, 400);
      assert.equal(none.body.error.code, 'workspace_required');
      const other = await app.call('GET', '/api/v1/portal/api-keys', { cookie, workspace: crypto.randomUUID() });
      assert.equal(other.status, 403);
      assert.equal(other.body.error.code, 'forbidden');
      const viaQuery = await app.call('GET', `/api/v1/workspace?workspace=${workspaceId}`, { cookie });
      assert.equal(viaQuery.status, 200);
      assert.deepEqual(viaQuery.body.seat, { role: 'member', via: 'session' });
    });

    test('a wrong password is refused without saying which part was wrong', async () => {
      const r = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: 'owner@acme.test', password: 'wrong' } });
      assert.equal(r.status, 401);
      const unknown = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: 'nobody@acme.test', password: 'wrong' } });
      assert.equal(unknown.body.error.message, r.body.error.message);
    });

    test('a key is shown once, stored as a hash, works at once and stops working when revoked', async () => {
      const minted = await app.call('POST', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId, body: { label: 'nightly' } });
      assert.equal(minted.status, 201);
      assert.equal(minted.body.role, 'portal');
      assert.ok(minted.body.key.startsWith(minted.body.prefix));
      const listed = await app.call('GET', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId });
      assert.ok(!JSON.stringify(listed.body).includes(minted.body.key), 'the list never carries a secret');
      const row = await app.services.store.em().getConnection().execute('select hash from api_keys where id = ?', [minted.body.id]);
      assert.notEqual(row[0].hash, minted.body.key);
      assert.equal(row[0].hash.length, 64);
      assert.equal((await app.call('GET', '/api/v1/portal/plots?limit=1', { key: minted.body.key })).status, 200);
      const revoked = await app.call('DELETE', `/api/v1/portal/api-keys/${minted.body.id}`, { cookie, workspace: workspaceId });
      assert.equal(revoked.status, 200);
      assert.ok(revoked.body.revoked_at);
      const after = await app.call('GET', '/api/v1/portal/api-keys', { key: minted.body.key });
      assert.equal(after.status, 401);
    });

    /**
     * Calls with `key` until `done` holds of the answer. Answers when, after the start, the last call
     * that still got the old answer was sent (0 when none did), or Infinity past 10 s. Counted from
     * the sending, not the answer: a loaded machine may take any time to answer, but no call sent
     * once the key's entry has expired can be answered from it.
     */
    async function lastStale(key: string, path: string, done: (r: { status: number; body: any }) => boolean): Promise<number> {
      const start = performance.now();
      let stale = 0;
      while (performance.now() - start < 10_000) {
        const sent = performance.now();
        if (done(await app.call('GET', path, { key }))) return stale;
        stale = sent - start;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return Infinity;
    }
    const cacheMs = () => app.services.config.keyCacheMs;

    test('a key in use takes a plan change within KEY_CACHE_MS, and is refused from the revocation\'s answer on', async () => {
      const minted = await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'portal' });
      const key = minted.api_key as string;
      // The summary names the plan the caller's seat carries.
      const summary = '/api/v1/portal/plots/evidence/summary';
      assert.equal((await app.call('GET', summary, { key })).body.plan, 'trial');
      await runAdminCommand(app.services.store, ['plan', 'set'], { workspace: workspaceId, plan: 'professional' });
      // The entry was read before the change, on the clock the cache uses, so a call sent KEY_CACHE_MS after it reads again.
      const stale = await lastStale(key, summary, (r) => r.body.plan === 'professional');
      assert.ok(stale < cacheMs(), `a call sent ${stale.toFixed(0)} ms after the plan change still got the old plan`);
      await runAdminCommand(app.services.store, ['plan', 'set'], { workspace: workspaceId, plan: 'trial' });
      assert.equal((await app.call('DELETE', `/api/v1/portal/api-keys/${minted.id as string}`, { cookie, workspace: workspaceId })).status, 200);
      const r = await app.call('GET', summary, { key });
      assert.deepEqual([r.status, r.body.error.code], [401, 'unauthorized']);
    });

    test('a key revoked by another process sharing the database is refused within KEY_CACHE_MS', async () => {
      const minted = await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'member' });
      const key = minted.api_key as string;
      assert.equal((await app.call('GET', '/api/v1/workspace', { key })).status, 200);
      // As another API process revokes it: in the database, not through this one.
      await app.services.store.em().getConnection().execute('update api_keys set revoked_at = now() where id = ?', [minted.id]);
      const stale = await lastStale(key, '/api/v1/workspace', (r) => r.status === 401);
      assert.ok(stale < cacheMs(), `a call sent ${stale.toFixed(0)} ms after the revocation was still taken`);
    });

    test('revoking a key that is not in the workspace answers 404 not_found', async () => {
      for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
        const r = await app.call('DELETE', `/api/v1/portal/api-keys/${id}`, { cookie, workspace: workspaceId });
        assert.equal(r.status, 404);
        assert.equal(r.body.error.code, 'not_found');
      }
    });

    test('at most five active keys per workspace: the sixth is refused 409 key_limit until one is revoked', async () => {
      const active = async () => (await app.call('GET', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId })).body.keys.filter((k: { revoked_at: string | null }) => !k.revoked_at);
      while ((await active()).length < 5) {
        assert.equal((await app.call('POST', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId })).status, 201);
      }
      const sixth = await app.call('POST', '/api/v1/api-keys', { cookie, workspace: workspaceId });
      assert.equal(sixth.status, 409);
      assert.equal(sixth.body.error.code, 'key_limit');
      const victim = (await active())[0];
      await app.call('DELETE', `/api/v1/portal/api-keys/${victim.id}`, { cookie, workspace: workspaceId });
      const studio = await app.call('POST', '/api/v1/api-keys', { cookie, workspace: workspaceId });
      assert.equal(studio.status, 201);
      assert.equal(studio.body.role, 'member');
    });

    test('concurrent minting cannot pass the five-key limit', async () => {
      const replies = await Promise.all(Array.from({ length: 4 }, () => app.call('POST', '/api/v1/portal/api-keys', { cookie, workspace: workspaceId })));
      assert.ok(replies.every((r) => r.status === 409));
    });

    test('a portal seat signed in cannot mint a studio key', async () => {
      await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Portal only', plan: 'trial', email: 'clerk@acme.test', password: 'portal pass', role: 'portal' });
      const signIn = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: 'clerk@acme.test', password: 'portal pass' } });
      const clerkCookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const ws = signIn.body.workspaces[0].id;
      const r = await app.call('POST', '/api/v1/api-keys', { cookie: clerkCookie, workspace: ws });
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'forbidden');
      const portal = await app.call('POST', '/api/v1/portal/api-keys', { cookie: clerkCookie, workspace: ws });
      assert.equal(portal.status, 201);
    });

    test('workspace create with an email that has an account attaches it, says so, and leaves its password', async () => {
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Acme Two', plan: 'trial', email: 'Owner@Acme.test', password: 'another password' });
      assert.equal(created.account, 'existing');
      assert.match(String(created.note), /owner@acme\.test already had an account.*password left unchanged/);
      const fresh = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Beta', plan: 'trial', email: 'new@beta.test', password: 'beta password' });
      assert.equal(fresh.account, 'created');
      assert.equal(fresh.note, undefined);
      assert.equal((await app.call('POST', '/api/v1/auth/sign-in', { body: { email: 'owner@acme.test', password: 'another password' } })).status, 401);
      const signIn = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: 'owner@acme.test', password: 'correct horse' } });
      assert.equal(signIn.status, 200);
      assert.ok(signIn.body.workspaces.some((w: { id: string }) => w.id === created.workspace_id), 'the new workspace is among the account\'s seats');
    });

    test('unknown routes answer 404 in the error shape', async () => {
      const r = await app.call('GET', '/api/v1/openapi.json');
      assert.equal(r.status, 200);
      const res = await fetch(`${app.url}/api/v1/nowhere`);
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
    });
  });
}
