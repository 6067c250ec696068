/**
 * Delivers the outbox (spec 6): a loop in each worker process fans new events out to their
 * endpoints, claims due deliveries and attempts them concurrently, and prunes the log. Everything
 * it knows is in the database, so deliveries survive a restart of every process, and any number of
 * workers share the work (claims skip rows another worker holds).
 *
 * Fairness: one endpoint never holds more than `perEndpoint` of this worker's attempts, so a receiver
 * that answers slowly (each attempt may take the full 10 s) leaves the other slots to other endpoints.
 */
import type { Logger } from '../log.ts';
import type { Store } from '../store/orm.ts';
import { pruneEvents } from '../store/outbox.ts';
import { claimDue, type ClaimedDelivery, fanOut, type Outcome, pruneDeliveries, recordAttempts } from './deliveries.ts';
import { attemptDelivery, LEASE_MS, type Sender } from './send.ts';

/** Spec 6.4: the log keeps every delivery for 30 days. */
export const RETENTION_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
/** How long a freed slot waits for others before the loop claims again. */
const REFILL_MS = 5;
/** Events fanned out per transaction. */
const FAN_OUT_BATCH = 500;

export interface DispatcherOptions {
  store: Store;
  log: Logger;
  sender: Sender;
  /** Attempts this process makes at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  perEndpoint?: number;
  /** How long the loop sleeps when nothing is due. */
  pollMs?: number;
  /** How long a claim holds a delivery (default LEASE_MS). */
  leaseMs?: number;
  /** false: no loop runs; the caller drives `runOnce` (tests that move the clock). */
  background?: boolean;
}

export interface Dispatcher {
  /** One pass: fan out, claim what is due and attempt it, waiting for those attempts; answers how many were made. */
  runOnce(): Promise<number>;
  /** Cuts the loop's sleep short: something may be due. */
  wake(): void;
  /** Stops claiming and waits for the attempts in hand (each ends within the time-out). */
  stop(): Promise<void>;
}

export function startDispatcher(o: DispatcherOptions): Dispatcher {
  const perEndpoint = o.perEndpoint ?? 4;
  const pollMs = o.pollMs ?? 250;
  const leaseMs = o.leaseMs ?? LEASE_MS;
  const log = o.log.child({ concern: 'webhooks' });
  const inFlight = new Map<string, number>();
  const attempts = new Set<Promise<void>>();
  let lastPrune = -Infinity;
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  const wake = () => {
    wakeUp?.();
    wakeUp = null;
  };
  // Attempts that finish close together are refilled by one claim rather than one claim each: a
  // claim is a round trip to the database, and one per attempt would cap deliveries at the claim rate.
  let refill: NodeJS.Timeout | null = null;
  const wakeSoon = () => {
    refill ??= setTimeout(() => {
      refill = null;
      wake();
    }, REFILL_MS);
  };
  const now = () => o.sender.clock();

  // Outcomes wait here while a write is under way, and the next write takes them all at once.
  let outcomes: { outcome: Outcome; written: (recorded: boolean) => void; failed: (err: unknown) => void }[] = [];
  let writing = false;
  async function writeOutcomes(): Promise<void> {
    writing = true;
    while (outcomes.length > 0) {
      const batch = outcomes;
      outcomes = [];
      try {
        const recorded = await recordAttempts(o.store.em(), batch.map((b) => b.outcome));
        for (const b of batch) b.written(recorded.has(b.outcome.claimed.deliveryId));
      } catch (err) {
        for (const b of batch) b.failed(err);
      }
    }
    writing = false;
  }
  const record = (outcome: Outcome) =>
    new Promise<boolean>((written, failed) => {
      outcomes.push({ outcome, written, failed });
      if (!writing) void writeOutcomes();
    });

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    try {
      const result = await attemptDelivery(o.sender, claimed);
      const recorded = await record({ claimed, result, at: now() });
      if (!recorded) log.warn({ delivery: claimed.deliveryId }, 'an attempt outlived its lease; its outcome was not recorded');
    } catch (err) {
      // The lease runs out and the delivery is tried again.
      log.error({ err, delivery: claimed.deliveryId }, 'webhook attempt could not be recorded');
    } finally {
      const left = (inFlight.get(claimed.endpointId) ?? 1) - 1;
      if (left > 0) inFlight.set(claimed.endpointId, left);
      else inFlight.delete(claimed.endpointId);
    }
  }

  /** Claims as many due deliveries as there are free slots and starts them; answers the started attempts. */
  async function claimAndStart(): Promise<Promise<void>[]> {
    const free = o.concurrency - attempts.size;
    if (free <= 0) return [];
    const claimed = await claimDue(o.store.em(), now(), { limit: free, perEndpoint, inFlight, leaseMs });
    return claimed.map((c) => {
      inFlight.set(c.endpointId, (inFlight.get(c.endpointId) ?? 0) + 1);
      const p = attempt(c).finally(() => {
        attempts.delete(p);
        wakeSoon();
      });
      attempts.add(p);
      return p;
    });
  }

  async function prune(): Promise<void> {
    const at = now().getTime();
    if (at - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = at;
    const before = new Date(at - RETENTION_MS);
    const deliveries = await pruneDeliveries(o.store.em(), before);
    const events = await pruneEvents(o.store.em(), before);
    if (deliveries + events > 0) log.info({ deliveries, events }, 'webhook log pruned');
  }

  async function fanOutAll(): Promise<number> {
    let total = 0;
    for (let n = FAN_OUT_BATCH; n === FAN_OUT_BATCH; total += n) n = await fanOut(o.store.em(), now(), FAN_OUT_BATCH);
    return total;
  }

  async function runOnce(): Promise<number> {
    await prune();
    await fanOutAll();
    const started = await claimAndStart();
    await Promise.all(started);
    return started.length;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      let idle = true;
      try {
        await prune();
        const fanned = await fanOutAll();
        const started = await claimAndStart();
        idle = fanned === 0 && started.length === 0;
      } catch (err) {
        log.error({ err }, 'webhook dispatch pass failed');
      }
      if (stopped) break;
      // Sleep while nothing was due, or while every slot is taken (a finished attempt wakes the loop).
      if (idle || attempts.size >= o.concurrency) {
        await new Promise<void>((resolve) => {
          wakeUp = resolve;
          if (idle) setTimeout(wake, pollMs).unref();
        });
      }
    }
  }

  const running = o.background === false ? Promise.resolve() : loop();
  return {
    runOnce,
    wake,
    async stop() {
      stopped = true;
      wake();
      await running;
      await Promise.all(attempts);
    },
  };
}
