/**
 * A receiver written in Python's standard library (hmac, http.server) verifies the service's
 * deliveries with none of the service's code: the signature over the raw body, the timestamp
 * window, and deduplication on the event id when a delivery is sent again.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/log.ts';
import { addressGuard } from '../../src/webhooks/address-guard.ts';
import { listDeliveries, retryDelivery } from '../../src/webhooks/deliveries.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createEndpoint } from '../../src/webhooks/endpoints.ts';
import { ATTEMPT_TIMEOUT_MS, type Sender } from '../../src/webhooks/send.ts';
import { signatureHeader } from '../../src/webhooks/signature.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';
import { writeEventNow } from '../support/events.ts';
import { type PythonReceiver, startPythonReceiver } from '../support/python-receiver.ts';

for (const backend of BACKENDS) {
  describe(`a Python receiver verifies deliveries independently (${backend})`, () => {
    let db: TestStore;
    let python: PythonReceiver;
    let port: number;

    before(async () => {
      db = await testStore(backend);
      python = await startPythonReceiver();
      port = python.port;
    });
    after(async () => {
      await python.stop();
      await db.close();
    });

    test('accepts the service\'s signature, refuses a forged or stale one, and sees a resent event as a duplicate', async () => {
      const workspaceId = randomUUID();
      const sender: Sender = { guard: addressGuard({ allowLoopback: true }), clock: () => new Date(), timeoutMs: ATTEMPT_TIMEOUT_MS };
      const dispatcher = startDispatcher({ store: db.store, log: createLogger('silent'), sender, concurrency: 4, background: false });
      const endpoint = await createEndpoint(db.store.em(), sender.guard, workspaceId, { url: `http://127.0.0.1:${port}/hooks` });
      python.trust(endpoint.secret);
      const eventId = await writeEventNow(db.store, workspaceId, 'plot.evidence.completed', { plot_id: randomUUID(), ref: 'Ü-1 “quoted”', area_ha: 12.5 });
      await dispatcher.runOnce();
      const { deliveries } = await listDeliveries(db.store.em(), workspaceId, { endpointId: null, status: null, limit: 10, cursor: null });
      assert.equal(deliveries[0].status, 'delivered', 'the Python receiver answered 200');
      await retryDelivery(db.store.em(), workspaceId, deliveries[0].id, new Date());
      await dispatcher.runOnce();
      await dispatcher.stop();

      // Sent by hand: one signed with another secret, one signed correctly but 301 s old.
      const body = Buffer.from(JSON.stringify({ id: 'evt_forged', type: 'webhook.test', created: new Date().toISOString(), workspace_id: workspaceId, data: {} }));
      const post = (timestamp: number, secret: string) =>
        fetch(`http://127.0.0.1:${port}/hooks`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-service-timestamp': String(timestamp), 'x-service-signature': signatureHeader(secret, timestamp, body) },
        });
      const now = Math.floor(Date.now() / 1000);
      assert.equal((await post(now, 'whsec_not_the_secret')).status, 401);
      assert.equal((await post(now - 301, endpoint.secret)).status, 401);

      const [first, again, forged, stale] = await python.waitForVerdicts(4);
      assert.deepEqual(first, { signed: true, fresh: true, event_id: eventId, duplicate: false, header_matches: true });
      assert.deepEqual(again, { signed: true, fresh: true, event_id: eventId, duplicate: true, header_matches: true });
      assert.deepEqual(forged, { signed: false, fresh: true });
      assert.deepEqual(stale, { signed: true, fresh: false });
    });
  });
}
