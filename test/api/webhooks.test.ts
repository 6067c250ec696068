/**
 * The webhook routes (spec 4.8, 7.8) on both backends, against a real receiver on loopback (the
 * test-only switch is on): endpoints and their limit, secrets shown once, refusals, the test route,
 * the delivery log with its filters and cursor, retry and its in-flight refusal, removal.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { answer, type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const sign = (secret: string, timestamp: string, body: Buffer) =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;

for (const backend of BACKENDS) {
  describe(`webhook routes (${backend})`, () => {
    let app: TestApp;
    let receiver: Receiver;
    let key: string;
    let otherKey: string;
    let workspaceId: string;
    let cookie: string;

    before(async () => {
      app = await startTestApp(backend, { WEBHOOK_ALLOW_LOOPBACK: 'on' });
      receiver = await startReceiver();
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Acme', plan: 'trial', email: 'owner@acme.test', password: 'correct horse' });
      key = created.api_key as string;
      workspaceId = created.workspace_id as string;
      const other = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Other', plan: 'trial', email: 'owner@other.test', password: 'correct horse' });
      otherKey = other.api_key as string;
      const signIn = await app.call('POST', '/api/v1/auth/sign-in', { body: { email: 'owner@acme.test', password: 'correct horse' } });
      cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    });
    after(async () => {
      await receiver.close();
      await app.close();
    });

    const call = (method: string, path: string, body?: unknown, as = key) => app.call(method, `/api/v1${path}`, { key: as, body });
    const create = (body: object = {}) => call('POST', '/portal/webhooks', { url: `${receiver.origin}/in`, ...body });
    const removeAll = async () => {
      for (const e of (await call('GET', '/portal/webhooks')).body.endpoints) await call('DELETE', `/portal/webhooks/${e.id}`);
    };

    test('creates an endpoint for every event by default, shows its secret once and a hint afterwards', async () => {
      const made = await create({ label: 'ERP' });
      assert.equal(made.status, 201);
      assert.match(made.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(made.body.secret_hint, `whsec_…${made.body.secret.slice(-4)}`);
      assert.equal(made.body.active, true);
      const list = await call('GET', '/portal/webhooks');
      assert.equal(list.status, 200);
      assert.deepEqual(made.body.events, list.body.event_types);
      assert.deepEqual(list.body.event_types, ['plot.evidence.completed', 'plot.evidence.failed', 'batch.completed', 'alert.opened', 'archive.reading.filed', 'webhook.test']);
      const [shown] = list.body.endpoints;
      assert.equal(shown.id, made.body.id);
      assert.equal(shown.secret, undefined);
      assert.ok(!JSON.stringify(list.body).includes(made.body.secret), 'the list never carries the secret');
      assert.deepEqual(list.body.delivery.retry_after_seconds, [60, 300, 1800, 7200, 21600, 43200]);
      assert.equal(list.body.delivery.max_attempts, 7);
      assert.equal(list.body.signing.tolerance_seconds, 300);
      assert.deepEqual((await call('GET', '/portal/webhooks', undefined, otherKey)).body.endpoints, [], 'another workspace sees none of it');
      await removeAll();
    });

    test('a signed-in session reaches the routes as a key does', async () => {
      const made = await app.call('POST', '/api/v1/portal/webhooks', { cookie, workspace: workspaceId, body: { url: `${receiver.origin}/session` } });
      assert.equal(made.status, 201);
      const list = await app.call('GET', '/api/v1/portal/webhooks', { cookie, workspace: workspaceId });
      assert.deepEqual(list.body.endpoints.map((e: { id: string }) => e.id), [made.body.id]);
      await removeAll();
    });

    test('refuses a sixth endpoint with 409 webhook_limit', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await create()).status, 201);
      const sixth = await create();
      assert.equal(sixth.status, 409);
      assert.equal(sixth.body.error.code, 'webhook_limit');
      assert.equal((await call('POST', '/portal/webhooks', { url: `${receiver.origin}/in` }, otherKey)).status, 201, 'the limit is per workspace');
      await removeAll();
    });

    test('refuses unknown event names and an empty list with 422 bad_events, naming them', async () => {
      const unknown = await create({ events: ['plot.evidence.completed', 'plot.done', 'shipment.sent'] });
      assert.equal(unknown.status, 422);
      assert.equal(unknown.body.error.code, 'bad_events');
      assert.match(unknown.body.error.message, /"plot\.done", "shipment\.sent"/);
      assert.equal((await create({ events: [] })).body.error.code, 'bad_events');
      assert.equal((await create({ events: 'all' })).body.error.code, 'bad_events');
    });

    test('refuses a URL that is not https, carries credentials or names a non-public host with 422 bad_url saying which', async () => {
      const cases: [string, RegExp][] = [
        ['ftp://hooks.example.com/x', /must use https/],
        ['http://93.184.215.14/x', /must use https/],
        ['https://user:pw@hooks.example.com/x', /credentials/],
        ['not a url', /absolute https URL/],
        ['https://10.1.2.3/x', /private address/],
        ['https://[::ffff:10.1.2.3]/x', /IPv4-mapped/],
        ['https://169.254.169.254/latest/meta-data', /link-local.*metadata/],
      ];
      for (const [url, message] of cases) {
        const r = await create({ url });
        assert.equal(r.status, 422, url);
        assert.equal(r.body.error.code, 'bad_url', url);
        assert.match(r.body.error.message, message, url);
      }
      const missing = await call('POST', '/portal/webhooks', {});
      assert.equal(missing.body.error.code, 'bad_url');
      assert.match(missing.body.error.message, /url is required/);
    });

    test('changes url, events, label and active; checks a new url; 404 for an endpoint elsewhere', async () => {
      const made = (await create()).body;
      const changed = await call('PATCH', `/portal/webhooks/${made.id}`, { events: ['plot.evidence.failed'], label: 'ops', active: false });
      assert.equal(changed.status, 200);
      assert.deepEqual(changed.body.events, ['plot.evidence.failed']);
      assert.equal(changed.body.label, 'ops');
      assert.equal(changed.body.active, false);
      const refused = await call('PATCH', `/portal/webhooks/${made.id}`, { url: 'https://192.168.1.10/in' });
      assert.equal(refused.body.error.code, 'bad_url');
      assert.equal((await call('PATCH', `/portal/webhooks/${made.id}`, { active: 'no' })).body.error.code, 'bad_active');
      assert.equal((await call('PATCH', `/portal/webhooks/${made.id}`, { label: 'x' }, otherKey)).status, 404);
      assert.equal((await call('PATCH', `/portal/webhooks/${randomUUID()}`, { label: 'x' })).body.error.code, 'not_found');
      await removeAll();
    });

    test('the test route sends webhook.test now, signed with the rotated secret, and answers what the receiver said', async () => {
      const made = (await create({ events: ['plot.evidence.failed'] })).body;
      const rotated = await call('POST', `/portal/webhooks/${made.id}/rotate-secret`);
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.secret, made.secret);
      const before = receiver.received.length;
      const tried = await call('POST', `/portal/webhooks/${made.id}/test`);
      assert.equal(tried.status, 200);
      assert.equal(tried.body.delivered, true);
      assert.equal(tried.body.status_code, 200);
      assert.equal(tried.body.answer, 'ok');
      assert.equal(tried.body.delivery.status, 'delivered');
      const got = receiver.received[before];
      assert.equal(got.headers['x-service-event'], 'webhook.test');
      const stamp = String(got.headers['x-service-timestamp']);
      assert.equal(got.headers['x-service-signature'], sign(rotated.body.secret, stamp, got.body));
      assert.notEqual(got.headers['x-service-signature'], sign(made.secret, stamp, got.body));
      receiver.handler = answer(500);
      const failing = await call('POST', `/portal/webhooks/${made.id}/test`);
      receiver.handler = answer(200);
      assert.equal(failing.body.delivered, false);
      assert.equal(failing.body.status_code, 500);
      assert.equal(failing.body.delivery.status, 'pending', 'a failed test delivery is retried on the schedule');
      await removeAll();
    });

    test('the log lists newest first with filters and a cursor, shows one delivery with its event, retries a finished one', async () => {
      const a = (await create()).body;
      const b = (await create()).body;
      const sent = [];
      for (let i = 0; i < 3; i++) sent.push((await call('POST', `/portal/webhooks/${a.id}/test`)).body.delivery.id);
      receiver.handler = answer(500);
      const failedId = (await call('POST', `/portal/webhooks/${b.id}/test`)).body.delivery.id;
      receiver.handler = answer(200);

      const all = await call('GET', '/portal/webhooks/deliveries');
      assert.deepEqual(all.body.deliveries.map((d: { id: string }) => d.id), [failedId, ...sent.reverse()]);
      const onlyA = await call('GET', `/portal/webhooks/deliveries?endpoint_id=${a.id}&limit=2`);
      assert.deepEqual(onlyA.body.deliveries.map((d: { id: string }) => d.id), sent.slice(0, 2));
      const next = await call('GET', `/portal/webhooks/deliveries?endpoint_id=${a.id}&limit=2&cursor=${onlyA.body.next_cursor}`);
      assert.deepEqual(next.body.deliveries.map((d: { id: string }) => d.id), sent.slice(2));
      assert.equal(next.body.next_cursor, null);
      const pending = await call('GET', '/portal/webhooks/deliveries?status=pending');
      assert.deepEqual(pending.body.deliveries.map((d: { id: string }) => d.id), [failedId]);
      assert.equal((await call('GET', '/portal/webhooks/deliveries?status=lost')).body.error.code, 'bad_status');
      assert.equal((await call('GET', '/portal/webhooks/deliveries?cursor=nonsense')).body.error.code, 'bad_cursor');
      assert.equal((await call('GET', '/portal/webhooks/deliveries?endpoint_id=abc')).body.error.code, 'bad_endpoint_id');
      assert.deepEqual((await call('GET', '/portal/webhooks/deliveries', undefined, otherKey)).body.deliveries, []);
      for (const [id, who] of [[randomUUID(), null], [a.id, otherKey]] as const) {
        const unknown = await call('GET', `/portal/webhooks/deliveries?endpoint_id=${id}`, undefined, who ?? undefined);
        assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found'], 'an endpoint the workspace does not hold is not_found, like the other filters');
      }

      const one = await call('GET', `/portal/webhooks/deliveries/${sent[0]}`);
      assert.equal(one.body.event.type, 'webhook.test');
      assert.equal(one.body.event.workspace_id, workspaceId);
      assert.equal(one.body.event.id, one.body.event_id);

      const inFlight = await call('POST', `/portal/webhooks/deliveries/${failedId}/retry`);
      assert.equal(inFlight.status, 409);
      assert.equal(inFlight.body.error.code, 'in_flight');
      const again = await call('POST', `/portal/webhooks/deliveries/${sent[0]}/retry`);
      assert.equal(again.status, 202);
      assert.equal(again.body.status, 'pending');
      assert.equal(again.body.attempts, 0);
      assert.equal((await call('POST', `/portal/webhooks/deliveries/${sent[0]}/retry`)).body.error.code, 'in_flight');
      assert.equal((await call('GET', `/portal/webhooks/deliveries/${randomUUID()}`)).status, 404);

      const removed = await call('DELETE', `/portal/webhooks/${a.id}`);
      assert.equal(removed.status, 200);
      assert.equal((await call('GET', `/portal/webhooks/deliveries/${sent[1]}`)).status, 404, 'removing an endpoint removes its log');
      assert.equal((await call('DELETE', `/portal/webhooks/${a.id}`)).status, 404);
      await removeAll();
    });
  });
}
