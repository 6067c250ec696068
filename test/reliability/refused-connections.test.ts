/**
 * Outbound connections the kernel refuses at once (issue 29, item 1): connect(2) answering ENETUNREACH
 * (a receiver name with only an IPv6 address on a host without an IPv6 route) or EPERM (an egress
 * firewall) fails inside net's own connect. The webhook test route, a dispatcher retry and the archive
 * client each end such an attempt as a plain failure; no error reaches the process, and the service
 * goes on answering.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { SourceError } from '../../src/engine/sources/errors.ts';
import { createHttpClient } from '../../src/engine/sources/http-client.ts';
import { createLogger } from '../../src/log.ts';
import { addressGuard } from '../../src/webhooks/address-guard.ts';
import { listDeliveries } from '../../src/webhooks/deliveries.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createEndpoint } from '../../src/webhooks/endpoints.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';
import { writeEventNow } from '../support/events.ts';
import { freePort } from '../support/python-receiver.ts';
import { refuseConnects, uncaughtDuring } from '../support/refused-connects.ts';

const CODES = ['ENETUNREACH', 'EPERM'] as const;
const MINUTE = 60_000;

/** Runs `run` while connects to `port` fail with `code`, and answers the uncaught exceptions it caused. */
async function refusedDuring(port: number, code: (typeof CODES)[number], run: () => Promise<void>): Promise<Error[]> {
  const restore = refuseConnects(port, code);
  try {
    return await uncaughtDuring(run);
  } finally {
    restore();
  }
}

for (const backend of BACKENDS) {
  describe(`a webhook receiver the kernel refuses at once, through the test route (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let port: number;

    before(async () => {
      app = await startTestApp(backend, { WEBHOOK_ALLOW_LOOPBACK: 'on' });
      key = (await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Acme', plan: 'trial', email: 'owner@acme.test', password: 'correct horse' })).api_key as string;
      port = await freePort();
    });
    after(() => app.close());

    for (const code of CODES) {
      test(`connect ${code}: the test delivery is recorded as failed and pending a retry, and the service keeps answering`, async () => {
        // A host name, so the connection goes through the lookup pinned to the checked address, over TLS.
        const made = await app.call('POST', '/api/v1/portal/webhooks', { key, body: { url: `https://localhost:${port}/hooks` } });
        assert.equal(made.status, 201);
        const uncaught = await refusedDuring(port, code, async () => {
          const tried = await app.call('POST', `/api/v1/portal/webhooks/${made.body.id}/test`, { key });
          assert.equal(tried.status, 200);
          assert.equal(tried.body.delivered, false);
          assert.equal(tried.body.status_code, null);
          assert.match(tried.body.error, new RegExp(code));
          assert.equal(tried.body.delivery.status, 'pending', 'retried on the schedule');
          // Still answering, and reaching its database (the demo archive is absent here, so the whole says degraded).
          assert.equal((await app.call('GET', '/api/v1/health', { key })).body.database.ok, true);
        });
        assert.deepEqual(uncaught, []);
      });
    }
  });

  describe(`a webhook receiver the kernel refuses at once, through the dispatcher's retries (${backend})`, () => {
    let db: TestStore;
    before(async () => {
      db = await testStore(backend);
    });
    after(() => db.close());

    test('each refused attempt is recorded with its error and the next is scheduled by spec 8', async () => {
      const port = await freePort();
      const workspaceId = randomUUID();
      let clock = new Date('2026-03-02T09:00:00Z');
      const guard = addressGuard({ allowLoopback: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
      const dispatcher = startDispatcher({ store: db.store, log: createLogger('silent'), sender: { guard, clock: () => clock, timeoutMs: 10_000 }, concurrency: 4, background: false });
      try {
        await createEndpoint(db.store.em(), guard, workspaceId, { url: `https://hooks.example.test:${port}/in` });
        await writeEventNow(db.store, workspaceId, 'plot.evidence.completed', { plot_id: randomUUID() }, clock);
        const waits = [1, 5];
        for (const [i, code] of CODES.entries()) {
          const uncaught = await refusedDuring(port, code, async () => assert.equal(await dispatcher.runOnce(), 1));
          assert.deepEqual(uncaught, []);
          const [d] = (await listDeliveries(db.store.em(), workspaceId, { endpointId: null, status: null, limit: 10, cursor: null })).deliveries;
          assert.equal(d.status, 'pending');
          assert.equal(d.attempts, i + 1);
          assert.match(d.last_error!, new RegExp(code));
          assert.equal(new Date(d.next_attempt_at!).getTime(), clock.getTime() + waits[i] * MINUTE);
          clock = new Date(clock.getTime() + waits[i] * MINUTE);
        }
      } finally {
        await dispatcher.stop();
      }
    });
  });
}

describe('an archive host the kernel refuses at once', () => {
  for (const code of CODES) {
    for (const host of ['127.0.0.1', 'localhost']) {
      for (const scheme of ['http', 'https']) {
        test(`${scheme}://${host}, connect ${code}: the read fails as a network error and nothing reaches the process`, async () => {
          const port = await freePort();
          const client = createHttpClient({ retries: 1, retryBaseMs: 1 });
          try {
            const uncaught = await refusedDuring(port, code, async () => {
              await assert.rejects(client.get(`${scheme}://${host}:${port}/tile.tif`), (err: unknown) => err instanceof SourceError && err.code === 'network' && err.message.includes(code));
            });
            assert.deepEqual(uncaught, []);
          } finally {
            client.close();
          }
        });
      }
    }
  }
});
