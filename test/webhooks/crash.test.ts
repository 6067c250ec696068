/**
 * A worker process killed in the middle of an attempt: its claim runs out, the next worker process
 * sends the same delivery again (same delivery id, same event id), and the log records it
 * delivered once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS, scratchDatabase } from '../support/db.ts';
import { runFixture } from '../support/processes.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/webhook-worker-process.ts');

for (const backend of BACKENDS) {
  describe(`a webhook worker process killed mid-delivery (${backend})`, () => {
    let env: Record<string, string>;
    let receiver: Receiver;
    let cleanup: () => Promise<void>;
    before(async () => {
      // The first attempt hangs (the worker is killed while waiting); later ones are answered.
      receiver = await startReceiver((_req, res, n) => void (n > 1 && res.writeHead(200).end()));
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-webhook-crash-'));
      env = { DATA_DIR: dataDir, WEBHOOK_ALLOW_LOOPBACK: 'on', RECEIVER_URL: `${receiver.origin}/in`, LEASE_MS: '2000', DATABASE_URL: '' };
      let drop = async () => {};
      if (backend === 'postgresql') {
        const db = await scratchDatabase();
        env.DATABASE_URL = db.url;
        drop = db.drop;
      }
      cleanup = async () => {
        await receiver.close();
        await drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      };
    });
    after(() => cleanup());

    test('is resumed by the next worker without a second delivered', async () => {
      const [seeded] = await runFixture(FIXTURE, 'seed', env).done;
      const ids = { ...env, WORKSPACE_ID: seeded.workspace_id as string };
      // Killed before it prints anything: its exit is the end the test waits for.
      const first = runFixture(FIXTURE, 'work', ids, () => false);
      // A process starting on a busy machine (PGlite, migrations) can take a while to make its first attempt.
      await receiver.waitFor(1, 180_000);
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      const [{ deliveries: midway }] = await runFixture(FIXTURE, 'state', ids).done;
      assert.deepEqual((midway as { status: string }[]).map((d) => d.status), ['sending'], 'the killed attempt left its claim');

      assert.deepEqual(await runFixture(FIXTURE, 'work', ids).done, [{ finished: true }]);
      const [{ deliveries }] = (await runFixture(FIXTURE, 'state', ids).done) as [{ deliveries: { id: string; status: string; attempts: number; last_error: string | null }[] }];
      assert.equal(deliveries.length, 1);
      assert.equal(deliveries[0].status, 'delivered');
      assert.equal(deliveries[0].attempts, 2, 'the killed attempt counts');
      assert.equal(receiver.received.length, 2, 'sent again once');
      const [killed, resumed] = receiver.received;
      assert.equal(resumed.headers['x-service-delivery'], deliveries[0].id);
      assert.equal(killed.headers['x-service-delivery'], resumed.headers['x-service-delivery']);
      assert.equal(killed.headers['x-service-event-id'], seeded.event_id);
      assert.equal(resumed.headers['x-service-event-id'], seeded.event_id);
    });
  });
}
