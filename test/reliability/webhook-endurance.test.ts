/**
 * Webhook endurance (issue 19, item 6): a receiver that is down for six hours of a simulated clock
 * (nothing listens on its port) gets every event afterwards, each at the attempt the retry schedule of
 * spec 8 puts first after it came back; a Python standard-library receiver verifies the signatures and
 * sees each event once; the delivery log counts every attempt and keeps the refused ones' errors.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/log.ts';
import { addressGuard } from '../../src/webhooks/address-guard.ts';
import { listDeliveries } from '../../src/webhooks/deliveries.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createEndpoint } from '../../src/webhooks/endpoints.ts';
import type { Sender } from '../../src/webhooks/send.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';
import { writeEventNow } from '../support/events.ts';
import { freePort, type PythonReceiver, startPythonReceiver } from '../support/python-receiver.ts';

const MINUTE = 60_000;
/** Spec 8: an event is tried at once, then after 1, 5, 30, 120, 360 and 720 minutes; seven attempts in all. */
const SPEC_RETRY_WAITS_MIN = [1, 5, 30, 120, 360, 720];
const DOWN_MIN = 6 * 60;
/** Events written while the receiver is down, and two after it is back (minutes from the start). */
const EMITTED_AT_MIN = [0, 1, 20, 45, 90, 150, 200, 240, 300, 330, 359, 360, 420];

/** The minutes of an event's attempts by the spec's schedule, up to the first made once the receiver is up. */
function expectedAttempts(emittedAt: number): number[] {
  const times = [emittedAt];
  for (const wait of SPEC_RETRY_WAITS_MIN) {
    if (times[times.length - 1] >= DOWN_MIN) break;
    times.push(times[times.length - 1] + wait);
  }
  return times;
}

for (const backend of BACKENDS) {
  describe(`webhook endurance: a receiver down six hours (${backend})`, () => {
    let db: TestStore;
    let python: PythonReceiver | null = null;

    before(async () => {
      db = await testStore(backend);
    });
    after(async () => {
      await python?.stop();
      await db.close();
    });

    test('every event arrives once, signed, at the first scheduled attempt after the receiver is back; the log holds every attempt', async () => {
      const start = new Date('2026-03-02T09:00:00Z').getTime();
      let minute = 0;
      const clock = () => new Date(start + minute * MINUTE);
      const workspaceId = randomUUID();
      const sender: Sender = { guard: addressGuard({ allowLoopback: true }), clock, timeoutMs: 10_000 };
      const dispatcher = startDispatcher({ store: db.store, log: createLogger('silent'), sender, concurrency: 8, background: false });
      const port = await freePort();
      const endpoint = await createEndpoint(db.store.em(), sender.guard, workspaceId, { url: `http://127.0.0.1:${port}/hooks` });

      // Each delivery's attempts as the log shows them, read after every pass of the dispatcher.
      const seen = new Map<string, { eventId: string; attempts: { minute: number; code: number | null; error: string | null }[] }>();
      const eventAt = new Map<string, number>();
      const lastMinute = Math.max(...EMITTED_AT_MIN.map((e) => expectedAttempts(e).at(-1)!)) + 60;
      try {
        for (; minute <= lastMinute; minute++) {
          if (minute === DOWN_MIN) {
            python = await startPythonReceiver(port);
            python.trust(endpoint.secret);
          }
          if (python !== null) await python.setClock(clock());
          for (const at of EMITTED_AT_MIN.filter((m) => m === minute)) {
            eventAt.set(await writeEventNow(db.store, workspaceId, 'plot.evidence.completed', { plot_id: randomUUID(), minute: at }, clock()), at);
          }
          await dispatcher.runOnce();
          const { deliveries } = await listDeliveries(db.store.em(), workspaceId, { endpointId: null, status: null, limit: 100, cursor: null });
          for (const d of deliveries) {
            const entry = seen.get(d.id) ?? { eventId: d.event_id, attempts: [] };
            seen.set(d.id, entry);
            assert.ok(d.attempts - entry.attempts.length <= 1, `delivery of the event of minute ${eventAt.get(d.event_id)} made two attempts in one minute`);
            if (d.attempts > entry.attempts.length) entry.attempts.push({ minute, code: d.last_status_code, error: d.last_error });
          }
        }
      } finally {
        await dispatcher.stop();
      }

      assert.equal(seen.size, EMITTED_AT_MIN.length, 'one delivery per event');
      for (const { eventId, attempts } of seen.values()) {
        const emitted = eventAt.get(eventId)!;
        const expected = expectedAttempts(emitted);
        assert.deepEqual(attempts.map((a) => a.minute), expected, `the attempts of the event written at minute ${emitted}`);
        for (const a of attempts.slice(0, -1)) {
          assert.equal(a.code, null);
          assert.match(a.error!, /ECONNREFUSED/, 'a refused attempt is logged with why');
        }
        assert.deepEqual(attempts.at(-1), { minute: expected.at(-1), code: 200, error: null });
      }
      const { deliveries } = await listDeliveries(db.store.em(), workspaceId, { endpointId: null, status: null, limit: 100, cursor: null });
      for (const d of deliveries) {
        const expected = expectedAttempts(eventAt.get(d.event_id)!);
        assert.equal(d.status, 'delivered');
        assert.equal(d.attempts, expected.length, 'the log counts every attempt');
        assert.equal(d.delivered_at, new Date(start + expected.at(-1)! * MINUTE).toISOString());
        assert.equal(d.next_attempt_at, null);
      }

      const verdicts = await python!.waitForVerdicts(EMITTED_AT_MIN.length);
      assert.equal(python!.verdicts.length, EMITTED_AT_MIN.length, 'nothing reached the receiver twice');
      for (const v of verdicts) assert.deepEqual({ ...v, event_id: undefined }, { signed: true, fresh: true, event_id: undefined, duplicate: false, header_matches: true });
      assert.deepEqual(new Set(verdicts.map((v) => v.event_id)), new Set(eventAt.keys()));
    });
  });
}
