// `npm run bench -- webhooks [--backend postgresql|pglite] [--events 1000] [--endpoints 5] [--latency-events 200]`
//
// Throughput: `events` events queued in the outbox of a workspace with `endpoints` endpoints (every
// event to every endpoint), then one dispatcher (WEBHOOK_CONCURRENCY's default, four at a time per
// endpoint) delivers them to receivers on loopback in another process. Reference in the same run: the
// same number of signed POSTs sent straight to the same receivers, as many at once, with no database.
//
// Latency: events written one at a time, each in its own transaction (as the evidence commit writes
// its event), the clock read when the commit returns; latency is the receiver's first arrival minus
// that, per delivery. It includes the dispatcher's sleep between polls when nothing is due.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import got from 'got';
import { createLogger } from '../src/log.ts';
import { openStore, type Backend } from '../src/store/orm.ts';
import { writeEvent } from '../src/store/outbox.ts';
import { addressGuard } from '../src/webhooks/address-guard.ts';
import { startDispatcher } from '../src/webhooks/dispatcher.ts';
import { createEndpoint } from '../src/webhooks/endpoints.ts';
import { ATTEMPT_TIMEOUT_MS, eventBody, type Sender } from '../src/webhooks/send.ts';
import { signatureHeader } from '../src/webhooks/signature.ts';
import { scratchDatabase } from '../test/support/db.ts';
import { writeEventNow } from '../test/support/events.ts';
import http from 'node:http';

const arg = (args: string[], name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const CONCURRENCY = 32;
const PER_ENDPOINT = 4;
const POLL_MS = 250;

type Report = { arrivals: [number, string, number][]; requests: number };

function receivers(count: number) {
  const child = fork(fileURLToPath(new URL('./webhook-receivers-process.ts', import.meta.url)), [], { env: { ...process.env, RECEIVERS: String(count) } });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  return {
    ports: next<{ ports: number[] }>().then((m) => m.ports),
    async report(): Promise<Report> {
      const answer = next<Report>();
      child.send({ report: true });
      return answer;
    },
    async reset() {
      const answer = next<unknown>();
      child.send({ reset: true });
      await answer;
    },
    close: () => child.kill(),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export default async function (args: string[]) {
  const backend = arg(args, 'backend', 'postgresql') as Backend;
  const events = Number(arg(args, 'events', '1000'));
  const endpointCount = Number(arg(args, 'endpoints', '5'));
  const latencyEvents = Number(arg(args, 'latency-events', '200'));
  const db = backend === 'postgresql' ? await scratchDatabase() : null;
  const store = await openStore({ databaseUrl: db?.url ?? null, pgliteDir: 'memory://' });
  const rx = receivers(endpointCount);
  try {
    await store.migrate();
    const ports = await rx.ports;
    const sender: Sender = { guard: addressGuard({ allowLoopback: true }), clock: () => new Date(), timeoutMs: ATTEMPT_TIMEOUT_MS };
    const workspaceId = randomUUID();
    const endpoints: { secret: string }[] = [];
    for (const port of ports) endpoints.push(await createEndpoint(store.em(), sender.guard, workspaceId, { url: `http://127.0.0.1:${port}/in` }));
    const data = (i: number) => ({ plot_id: randomUUID(), ref: `BENCH-${i}`, commodity: 'cocoa', area_ha: 12.5, result: 'prior_management_evidenced', finding: true });
    const delivered = async () => {
      const [{ n }] = await store.em().execute<{ n: string }[]>(`select count(*) as n from webhook_deliveries where status = 'delivered'`);
      return Number(n);
    };
    const until = async (n: number) => {
      // Counted every 100 ms: a tighter poll would take the embedded database's one connection from the dispatcher.
      while ((await delivered()) < n) await new Promise((r) => setTimeout(r, 100));
    };

    // Throughput.
    for (let i = 0; i < events; i++) await writeEventNow(store, workspaceId, 'plot.evidence.completed', data(i));
    const log = createLogger('silent');
    let started = performance.now();
    const dispatcher = startDispatcher({ store, log, sender, concurrency: CONCURRENCY, perEndpoint: PER_ENDPOINT, pollMs: POLL_MS });
    await until(events * ports.length);
    const dispatchS = (performance.now() - started) / 1000;
    const received = await rx.report();
    if (received.requests !== events * ports.length) throw new Error(`receivers got ${received.requests} requests for ${events * ports.length} deliveries`);

    // Reference: the same signed POSTs, as many at once, straight to the receivers.
    const agent = { http: new http.Agent({ keepAlive: true, maxSockets: PER_ENDPOINT }) };
    const bodies = Array.from({ length: events }, (_, i) =>
      eventBody({ id: `evt_${randomUUID()}`, type: 'plot.evidence.completed', workspace_id: workspaceId, created_at: new Date(), data: data(i) }));
    const jobs = bodies.flatMap((body) => ports.map((port, e) => ({ body, port, secret: endpoints[e].secret })));
    started = performance.now();
    let nextJob = 0;
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, PER_ENDPOINT * ports.length) }, async () => {
      for (let j = nextJob++; j < jobs.length; j = nextJob++) {
        const { body, port, secret } = jobs[j];
        const ts = Math.floor(Date.now() / 1000);
        await got.post(`http://127.0.0.1:${port}/in`, { body, agent, headers: { 'content-type': 'application/json', 'x-service-timestamp': String(ts), 'x-service-signature': signatureHeader(secret, ts, body) } });
      }
    }));
    const referenceS = (performance.now() - started) / 1000;

    // Latency from the commit that writes the event to the receiver.
    await rx.reset();
    const before = await delivered();
    const committed = new Map<string, number>();
    for (let i = 0; i < latencyEvents; i++) {
      const id = await store.em().transactional(async (tx) => writeEvent(tx, workspaceId, 'plot.evidence.completed', data(i), new Date()));
      committed.set(id, Date.now());
      await new Promise((r) => setTimeout(r, 20));
    }
    await until(before + latencyEvents * ports.length);
    await dispatcher.stop();
    const latencies = (await rx.report()).arrivals.map(([, id, at]) => at - committed.get(id)!).sort((a, b) => a - b);

    const result = {
      bench: 'webhooks',
      backend,
      events,
      endpoints: ports.length,
      deliveries: events * ports.length,
      concurrency: CONCURRENCY,
      per_endpoint: PER_ENDPOINT,
      poll_ms: POLL_MS,
      seconds: Number(dispatchS.toFixed(2)),
      events_per_s: Math.round(events / dispatchS),
      deliveries_per_s: Math.round((events * ports.length) / dispatchS),
      reference_deliveries_per_s: Math.round(jobs.length / referenceS),
      ratio_to_reference: Number((referenceS / dispatchS).toFixed(2)),
      latency_deliveries: latencies.length,
      latency_p50_ms: percentile(latencies, 50),
      latency_p99_ms: percentile(latencies, 99),
      latency_max_ms: latencies.at(-1),
      cores: os.availableParallelism(),
      node: process.version,
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    };
    console.log(`${events} events to ${ports.length} endpoints (${result.deliveries} deliveries) on ${backend}: ${result.seconds} s, ${result.events_per_s} events/s, ${result.deliveries_per_s} deliveries/s; plain signed POSTs as many at once: ${result.reference_deliveries_per_s}/s (ratio ${result.ratio_to_reference})`);
    console.log(`latency from the event's commit to the receiver, ${latencies.length} deliveries: p50 ${result.latency_p50_ms} ms, p99 ${result.latency_p99_ms} ms, max ${result.latency_max_ms} ms (polling every ${POLL_MS} ms when idle)`);
    console.log(JSON.stringify(result));
  } finally {
    rx.close();
    await store.close();
    await db?.drop();
  }
}
