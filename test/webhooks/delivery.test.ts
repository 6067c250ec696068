/**
 * Delivery from the outbox to real receivers on loopback (spec 6, 3.3), on both backends, with a
 * clock the test moves: the body and headers, the signature, the retry schedule, the seventh failure,
 * rotation between attempts, time-outs, redirects, the address checked at every attempt.
 */
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { createLogger } from '../../src/log.ts';
import { addressGuard, type Resolve } from '../../src/webhooks/address-guard.ts';
import { getDelivery, listDeliveries } from '../../src/webhooks/deliveries.ts';
import { type Dispatcher, startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createEndpoint, rotateSecret, updateEndpoint } from '../../src/webhooks/endpoints.ts';
import type { Sender } from '../../src/webhooks/send.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';
import { writeEventNow } from '../support/events.ts';
import { answer, type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const MINUTE = 60_000;
/** Spec 8: retried after 1 minute, 5 minutes, 30 minutes, 2 hours, 6 hours, 12 hours; seven attempts in all. */
const SPEC_RETRY_WAITS_MS = [1, 5, 30, 120, 360, 720].map((m) => m * MINUTE);

const log = createLogger('silent');

const sign = (secret: string, timestamp: string, body: Buffer) =>
  `v1=${createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${timestamp}.`), body])).digest('hex')}`;

for (const backend of BACKENDS) {
  describe(`webhook delivery (${backend})`, () => {
    let db: TestStore;
    let receiver: Receiver;
    let workspaceId: string;
    let clock: Date;
    let sender: Sender;
    let dispatcher: Dispatcher;
    const em = () => db.store.em();
    const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));
    const loopback = addressGuard({ allowLoopback: true });

    before(async () => {
      db = await testStore(backend);
    });
    after(async () => {
      await db.close();
    });
    beforeEach(async () => {
      receiver = await startReceiver();
      workspaceId = randomUUID();
      clock = new Date('2026-03-02T09:00:00Z');
      sender = { guard: loopback, clock: () => clock, timeoutMs: 10_000 };
      dispatcher = startDispatcher({ store: db.store, log, sender, concurrency: 8, background: false });
    });
    afterEach(async () => {
      await dispatcher.stop();
      await receiver.close();
    });

    const endpoint = (events?: string[]) => createEndpoint(em(), loopback, workspaceId, { url: `${receiver.origin}/hooks`, events });
    const emit = (data: object = { plot_id: randomUUID() }) => writeEventNow(db.store, workspaceId, 'plot.evidence.completed', data, clock);
    const deliveries = async () => (await listDeliveries(em(), workspaceId, { endpointId: null, status: null, limit: 100, cursor: null })).deliveries;

    test('sends the event with every header of spec 6.1, signed over the raw body under the endpoint secret', async () => {
      const ep = await endpoint();
      const data = { plot_id: randomUUID(), ref: 'P-1', finding: true };
      const eventId = await emit(data);
      assert.equal(await dispatcher.runOnce(), 1);
      const [got] = receiver.received;
      assert.equal(got.path, '/hooks');
      assert.equal(got.headers['content-type'], 'application/json');
      assert.equal(got.headers['user-agent'], 'Service-Webhooks/1');
      assert.equal(got.headers['x-service-event'], 'plot.evidence.completed');
      assert.equal(got.headers['x-service-event-id'], eventId);
      assert.match(String(got.headers['x-service-delivery']), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const timestamp = String(got.headers['x-service-timestamp']);
      assert.equal(Number(timestamp), clock.getTime() / 1000);
      assert.equal(got.headers['x-service-signature'], sign(ep.secret, timestamp, got.body));
      const body = JSON.parse(got.body.toString('utf8'));
      assert.deepEqual(Object.keys(body).sort(), ['created', 'data', 'id', 'type', 'workspace_id']);
      assert.equal(body.id, eventId);
      assert.match(body.id, /^evt_/);
      assert.equal(body.workspace_id, workspaceId);
      assert.deepEqual(body.data, data);
      assert.equal(new Date(body.created).getTime(), clock.getTime());
      const [d] = await deliveries();
      assert.equal(d.id, got.headers['x-service-delivery']);
      assert.equal(d.status, 'delivered');
      assert.equal(d.attempts, 1);
      assert.equal(d.last_status_code, 200);
    });

    test('carries the Standard Webhooks headers, which the standard verifier accepts under the endpoint secret and refuses under another', async () => {
      // The verifier checks the timestamp against the real clock.
      clock = new Date();
      const ep = await endpoint();
      const data = { plot_id: randomUUID(), ref: 'P-std' };
      const eventId = await emit(data);
      assert.equal(await dispatcher.runOnce(), 1);
      const [got] = receiver.received;
      assert.equal(got.headers['webhook-id'], eventId);
      assert.equal(got.headers['webhook-timestamp'], got.headers['x-service-timestamp']);
      assert.match(String(got.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
      const headers = { 'webhook-id': String(got.headers['webhook-id']), 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) };
      const verified = new Webhook(ep.secret).verify(got.body.toString('utf8'), headers) as { id: string; data: unknown };
      assert.equal(verified.id, eventId);
      assert.deepEqual(verified.data, data);
      const other = await rotateSecret(em(), workspaceId, ep.id);
      assert.throws(() => new Webhook(other.secret).verify(got.body.toString('utf8'), headers), WebhookVerificationError);
      assert.throws(() => new Webhook(ep.secret).verify(got.body.toString('utf8').replace('P-std', 'P-alt'), headers), WebhookVerificationError);
    });

    test('retries on the schedule of spec 8 and marks the seventh failure failed', async () => {
      receiver.handler = answer(500);
      await endpoint();
      await emit();
      assert.equal(await dispatcher.runOnce(), 1);
      for (const [i, wait] of SPEC_RETRY_WAITS_MS.entries()) {
        const [pending] = await deliveries();
        assert.equal(pending.status, 'pending');
        assert.equal(pending.attempts, i + 1);
        assert.equal(pending.last_status_code, 500);
        assert.equal(new Date(pending.next_attempt_at!).getTime(), clock.getTime() + wait);
        advance(wait - 1000);
        assert.equal(await dispatcher.runOnce(), 0, `attempt ${i + 2} waits the full ${wait / MINUTE} minutes`);
        advance(1000);
        assert.equal(await dispatcher.runOnce(), 1, `attempt ${i + 2} is made after ${wait / MINUTE} minutes`);
      }
      const [failed] = await deliveries();
      assert.equal(failed.status, 'failed');
      assert.equal(failed.attempts, 7);
      assert.equal(failed.next_attempt_at, null);
      advance(48 * 60 * MINUTE);
      assert.equal(await dispatcher.runOnce(), 0);
      assert.equal(receiver.received.length, 7);
      assert.equal(new Set(receiver.received.map((r) => r.headers['x-service-event-id'])).size, 1, 'the event id is identical on every attempt');
      assert.equal(new Set(receiver.received.map((r) => r.headers['x-service-delivery'])).size, 1, 'one delivery id per endpoint per event');
    });

    test('a 2xx on the fourth attempt delivers once', async () => {
      receiver.handler = (req, res, n) => answer(n < 4 ? 503 : 204)(req, res, n);
      await endpoint();
      await emit();
      await dispatcher.runOnce();
      for (const wait of SPEC_RETRY_WAITS_MS) {
        advance(wait);
        await dispatcher.runOnce();
      }
      assert.equal(receiver.received.length, 4);
      const [d] = await deliveries();
      assert.equal(d.status, 'delivered');
      assert.equal(d.attempts, 4);
      assert.equal(d.last_status_code, 204);
      assert.equal(d.last_error, null);
    });

    test('a secret rotated between two attempts signs the next one; the old secret no longer verifies', async () => {
      receiver.handler = (req, res, n) => answer(n === 1 ? 500 : 200)(req, res, n);
      const ep = await endpoint();
      await emit();
      await dispatcher.runOnce();
      const rotated = await rotateSecret(em(), workspaceId, ep.id);
      assert.notEqual(rotated.secret, ep.secret);
      advance(MINUTE);
      await dispatcher.runOnce();
      const [first, second] = receiver.received;
      const stamp = (r: typeof first) => String(r.headers['x-service-timestamp']);
      assert.equal(first.headers['x-service-signature'], sign(ep.secret, stamp(first), first.body));
      assert.equal(second.headers['x-service-signature'], sign(rotated.secret, stamp(second), second.body));
      assert.notEqual(second.headers['x-service-signature'], sign(ep.secret, stamp(second), second.body));
      assert.notEqual(stamp(first), stamp(second), 'each attempt is signed when it is made');
    });

    test('a redirect is an answer, not followed', async () => {
      const elsewhere = await startReceiver();
      try {
        receiver.handler = answer(302, { location: `${elsewhere.origin}/caught` });
        await endpoint();
        await emit();
        await dispatcher.runOnce();
        assert.equal(elsewhere.received.length, 0);
        const [d] = await deliveries();
        assert.equal(d.status, 'pending');
        assert.equal(d.last_status_code, 302);
        assert.match(d.last_error!, /redirect.*not followed/);
      } finally {
        await elsewhere.close();
      }
    });

    test('a receiver that hangs 11 s is a time-out at 10 s, retried', async () => {
      receiver.handler = (_req, res) => void setTimeout(() => res.writeHead(200).end(), 11_000).unref();
      await endpoint();
      await emit();
      const started = Date.now();
      await dispatcher.runOnce();
      const took = Date.now() - started;
      // Load can only lengthen an attempt, so the time-out is bounded from below by the clock; that it
      // was the time-out that ended it, not the answer at 11 s, the delivery's record says.
      assert.ok(took >= 9_900, `the attempt ended after ${took} ms`);
      const [d] = await deliveries();
      assert.equal(d.status, 'pending');
      assert.equal(d.last_status_code, null);
      assert.match(d.last_error!, /within 10 s/);
    });

    test('only active endpoints that take the type get a delivery', async () => {
      const all = await endpoint();
      const failedOnly = await endpoint(['plot.evidence.failed']);
      const paused = await endpoint();
      await updateEndpoint(em(), loopback, workspaceId, paused.id, { active: false });
      await emit();
      await dispatcher.runOnce();
      const ds = await deliveries();
      assert.deepEqual(ds.map((d) => d.endpoint_id), [all.id]);
      assert.ok(failedOnly.id);
    });

    test('the host is resolved once per attempt and the connection goes to that address, with the name in Host', async () => {
      const calls: string[] = [];
      const resolve: Resolve = async (host) => (calls.push(host), [{ address: '127.0.0.1', family: 4 }]);
      const guard = addressGuard({ allowLoopback: true, resolve });
      const named = startDispatcher({ store: db.store, log, sender: { ...sender, guard }, concurrency: 4, background: false });
      try {
        await createEndpoint(em(), guard, workspaceId, { url: `http://hooks.example.test:${receiver.port}/in` });
        calls.length = 0;
        await emit();
        await named.runOnce();
        assert.deepEqual(calls, ['hooks.example.test']);
        assert.equal(receiver.received[0].headers.host, `hooks.example.test:${receiver.port}`);
      } finally {
        await named.stop();
      }
    });

    test('a host that changes its answer to a private address after the save is not sent to', async () => {
      let answer4 = '93.184.215.14';
      const resolve: Resolve = async () => [{ address: answer4, family: 4 }];
      const guard = addressGuard({ allowLoopback: false, resolve });
      const rebinding = startDispatcher({ store: db.store, log, sender: { ...sender, guard }, concurrency: 4, background: false });
      try {
        await createEndpoint(em(), guard, workspaceId, { url: 'https://rebind.example.test/in' });
        answer4 = '127.0.0.1';
        await emit();
        await rebinding.runOnce();
        const [d] = await deliveries();
        assert.equal(d.status, 'pending');
        assert.equal(d.last_status_code, null);
        assert.match(d.last_error!, /not sent: the host rebind\.example\.test resolves to 127\.0\.0\.1, which is a loopback address/);
        assert.equal(receiver.received.length, 0);
      } finally {
        await rebinding.stop();
      }
    });

    test('a host that changes its answer to an IPv6 address carrying an internal IPv4 address is not sent to', async () => {
      let answer6 = '2606:4700:4700::1111';
      const resolve: Resolve = async () => [{ address: answer6, family: 6 }];
      const guard = addressGuard({ allowLoopback: false, resolve });
      const rebinding = startDispatcher({ store: db.store, log, sender: { ...sender, guard }, concurrency: 4, background: false });
      try {
        await createEndpoint(em(), guard, workspaceId, { url: 'https://rebind6.example.test/in' });
        // Compatible, mapped, NAT64, 6to4 and Teredo (client inverted) spellings of loopback and of a private address.
        const carriers: [string, RegExp][] = [
          ['::127.0.0.1', /IPv4-compatible IPv6 address carrying 127\.0\.0\.1, a loopback address/],
          ['::ffff:10.0.0.5', /IPv4-mapped IPv6 address carrying 10\.0\.0\.5, a private address/],
          ['64:ff9b::a9fe:a9fe', /NAT64 address carrying 169\.254\.169\.254, a link-local address/],
          ['2002:7f00:1::1', /6to4 address carrying 127\.0\.0\.1, a loopback address/],
          ['2001:0:4136:e378:8000:63bf:f5ff:fffa', /Teredo address whose client is 10\.0\.0\.5, a private address/],
        ];
        for (const [address, rule] of carriers) {
          answer6 = address;
          const eventId = await emit();
          assert.equal(await rebinding.runOnce(), 1, address);
          const d = (await deliveries()).find((x) => x.event_id === eventId)!;
          assert.equal(d.status, 'pending', address);
          assert.equal(d.last_status_code, null, address);
          assert.match(d.last_error!, new RegExp(`^not sent: the host rebind6\\.example\\.test resolves to ${address.replace(/\./g, '\\.')}, which is`), address);
          assert.match(d.last_error!, rule, address);
        }
        assert.equal(receiver.received.length, 0);
      } finally {
        await rebinding.stop();
      }
    });

    test('one slow receiver does not hold back another endpoint', async () => {
      // The slow receiver answers nothing until the fast endpoint has all its deliveries.
      const held: import('node:http').ServerResponse[] = [];
      const slow = await startReceiver((_req, res) => void held.push(res));
      const background = startDispatcher({ store: db.store, log, sender, concurrency: 8, perEndpoint: 2, background: true, pollMs: 20 });
      try {
        await createEndpoint(em(), loopback, workspaceId, { url: `${slow.origin}/slow` });
        await endpoint();
        for (let i = 0; i < 20; i++) await emit();
        background.wake();
        await receiver.waitFor(20);
        assert.equal(slow.received.length, 2, 'the slow receiver holds only its share of the attempts');
      } finally {
        slow.handler = answer(200);
        for (const res of held) res.writeHead(200).end();
        await background.stop();
        await slow.close();
      }
    });

    test('the log keeps a finished delivery 30 days after its last attempt, then prunes it and its event', async () => {
      await endpoint();
      const eventId = await emit();
      await dispatcher.runOnce();
      const [d] = await deliveries();
      advance(30 * 24 * 60 * MINUTE - 1000);
      await dispatcher.runOnce();
      assert.equal((await getDelivery(em(), workspaceId, d.id)).event?.id, eventId);
      advance(2 * 3600_000);
      await dispatcher.runOnce();
      assert.deepEqual(await deliveries(), []);
      const [{ n }] = await em().execute<{ n: string }[]>('select count(*) as n from outbox where id = ?', [eventId]);
      assert.equal(Number(n), 0);
    });
  });
}
