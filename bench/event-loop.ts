// `npm run bench -- event-loop`: the longest stall of the API's event loop while it does the work
// that costs CPU, measured with perf_hooks.monitorEventLoopDelay at 1 ms resolution (each figure
// includes that millisecond) from just before the work starts until it is done. The API runs in
// this process on an ephemeral port (as the tests start it); its HTTP client runs on a thread of its
// own, so the loop measured is the API's alone. Beside each figure, `max_busy_ms`: the most CPU time
// the API's thread spent between two turns of its loop. On a machine shared with other work the
// wall-clock delay also counts the waits for a core; the thread's own CPU time does not.
//
// 1. 20 evidence PDFs requested at once through GET /portal/plots/{id}/evidence.pdf, twenty plots
//    of the fixture's size: first with the documents pool's threads not yet started, then again.
//    Reference: the same 20 documents rendered at once on the main thread (evidencePdf()).
// 2. A 25 MB GeoJSON of 20,000 polygons of 50 vertices imported through POST /portal/plots/import,
//    into PostgreSQL and into the embedded PGlite. Reference: importPlots() with the file judged on
//    the main thread (judgePlotFile()), into a fresh workspace of the same database.
// 3. The demo world generated as on first start, by the function the worker role calls.
// 4. A 24 MB GeoJSON of 12 M non-feature items (test/support/hostile-files.ts) validated through
//    POST /portal/plots/validate on PostgreSQL: the file goes to the intake thread and 100 row
//    errors come back. `npm run bench -- event-loop upload` measures this alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { runAdminCommand } from '../src/admin/commands.ts';
import { evidencePdf } from '../src/documents/evidence-pdf.ts';
import { ensureDemoArchive } from '../src/demo/archive.ts';
import { importPlots } from '../src/intake/import-plots.ts';
import { judgePlotFile } from '../src/intake/plot-file.ts';
import type { Backend } from '../src/store/orm.ts';
import { insertPlot } from '../test/documents/book.ts';
import { fixtureEvidence, fixtureMap, fixtureWrapper } from '../test/fixtures/evidence-wrapper.ts';
import { startTestApp, type TestApp } from '../test/support/app.ts';
import { loopDelayDuring, type LoopDelay } from '../test/support/event-loop.ts';
import { nonFeatureGeoJson } from '../test/support/hostile-files.ts';
import { polygonPlotsGeoJson } from './fixtures.ts';

const PDFS = 20;
const TARGET_MS = 20;

interface Figure extends LoopDelay {
  seconds: number;
}

async function measured(work: () => Promise<unknown>): Promise<Figure> {
  const t = performance.now();
  const { delay } = await loopDelayDuring(work);
  return { ...delay, seconds: Math.round(performance.now() - t) / 1000 };
}

interface ClientRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Sent as the form's `file` field. */
  file?: { bytes: Uint8Array; name: string };
}

interface ClientAnswer {
  status: number;
  bytes: number;
  /** `imported.created` of an import's answer. */
  created: number | null;
}

const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const init = workerData.map((r) => {
  const form = r.file ? new FormData() : null;
  if (form) form.set('file', new Blob([r.file.bytes]), r.file.name);
  return { method: r.method, headers: r.headers, body: form ?? undefined };
});
parentPort.once('message', async () => {
  const answers = await Promise.all(workerData.map(async (r, i) => {
    const res = await fetch(r.url, init[i]);
    const body = Buffer.from(await res.arrayBuffer());
    const created = r.file && res.status === 200 ? JSON.parse(body.toString()).imported?.created ?? null : null;
    return { status: res.status, bytes: body.length, created };
  }));
  parentPort.postMessage(answers);
});
parentPort.postMessage('ready');
`;

/** The requests sent at once from a thread of their own, started when `send` is called; the thread is ready (bodies built) when this settles. */
async function clientThread(requests: ClientRequest[]): Promise<{ send(): Promise<ClientAnswer[]> }> {
  const worker = new Worker(CLIENT, { eval: true, workerData: requests });
  await new Promise((resolve) => worker.once('message', resolve));
  return {
    send: () =>
      new Promise<ClientAnswer[]>((resolve, reject) => {
        worker.once('message', (answers: ClientAnswer[]) => {
          void worker.terminate();
          const failed = answers.find((a) => a.status !== 200);
          if (failed) reject(new Error(`a request answered ${failed.status}`));
          else resolve(answers);
        });
        worker.once('error', reject);
        worker.postMessage('go');
      }),
  };
}

async function workspace(app: TestApp, name: string): Promise<{ key: string; workspaceId: string }> {
  const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name, plan: 'enterprise', email: `${name.toLowerCase()}@loop.test`, password: 'bench pass' });
  return { key: created.api_key as string, workspaceId: created.workspace_id as string };
}

async function pdfs(): Promise<Record<string, Figure>> {
  const app = await startTestApp('postgresql');
  try {
    const { key, workspaceId } = await workspace(app, 'Documents');
    const map = await fixtureMap();
    const ids: string[] = [];
    for (let i = 0; i < PDFS; i++) {
      const spec = { ref: `LOOP-${i}`, area_ha: 9.2, state: 'done' as const, evidence: fixtureEvidence({ seed: i + 1 }) };
      ids.push(await insertPlot(app.services.store.em(), workspaceId, spec, app.services.signingKey, map));
    }
    const requests = ids.map((id): ClientRequest => ({ url: `${app.url}/api/v1/portal/plots/${id}/evidence.pdf`, method: 'GET', headers: { authorization: `Bearer ${key}` } }));
    const cold = await measured((await clientThread(requests)).send);
    const warm = await measured((await clientThread(requests)).send);
    const input = { wrapper: fixtureWrapper(), register: { commodity: 'rubber' }, map };
    const inline = await measured(() => Promise.all(ids.map(() => evidencePdf(input, { baseUrl: app.services.config.baseUrl }))));
    return { pdf_route_cold: cold, pdf_route_warm: warm, pdf_main_thread: inline };
  } finally {
    await app.close();
  }
}

async function upload(backend: Backend, bytes: Buffer): Promise<Record<string, Figure & { plots: number }>> {
  const app = await startTestApp(backend);
  try {
    const { key } = await workspace(app, 'Routed');
    const client = await clientThread([
      { url: `${app.url}/api/v1/portal/plots/import?country=GH`, method: 'POST', headers: { authorization: `Bearer ${key}` }, file: { bytes, name: 'polygons.geojson' } },
    ]);
    let routed = 0;
    const route = await measured(async () => {
      routed = (await client.send())[0].created ?? 0;
    });
    const { workspaceId } = await workspace(app, 'Inline');
    let created = 0;
    const inline = await measured(async () => {
      created = (await importPlots(app.services.store.em(), judgePlotFile, { workspaceId, bytes, filename: 'polygons.geojson', country: 'GH' })).imported.created;
    });
    return {
      [`import_route_${backend}`]: { ...route, plots: routed },
      [`import_main_thread_${backend}`]: { ...inline, plots: created },
    };
  } finally {
    await app.close();
  }
}

/** The hostile 24 MB file, validated three times in a row: the first start of the intake thread, then two warm. */
async function hostileUpload(): Promise<Record<string, Figure>> {
  const app = await startTestApp('postgresql');
  try {
    const { key } = await workspace(app, 'Hostile');
    const { bytes, filename } = nonFeatureGeoJson();
    const figures: Record<string, Figure> = {};
    for (const round of [1, 2, 3]) {
      const client = await clientThread([{ url: `${app.url}/api/v1/portal/plots/validate?country=GH`, method: 'POST', headers: { authorization: `Bearer ${key}` }, file: { bytes, name: filename } }]);
      figures[`validate_route_24mb_non_features_${round}`] = await measured(client.send);
    }
    return figures;
  } finally {
    await app.close();
  }
}

async function demoWorld(): Promise<Figure> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-loop-demo-'));
  try {
    return await measured(() => ensureDemoArchive(dataDir));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function eventLoopBench(args: string[]): Promise<void> {
  const figures: Record<string, Figure> = {};
  // The imports' file, in MB; none when only the hostile upload is measured.
  let fileMb: number | undefined;
  if (!args.includes('upload')) {
    // The demo world first: measured after the imports it would also count the collection of their garbage.
    Object.assign(figures, { demo_world_first_start: await demoWorld() }, await pdfs());
    const bytes = polygonPlotsGeoJson(20_000, 50);
    fileMb = +(bytes.length / 1e6).toFixed(1);
    for (const backend of ['postgresql', 'pglite'] as const) Object.assign(figures, await upload(backend, bytes));
  }
  Object.assign(figures, await hostileUpload());
  for (const [name, f] of Object.entries(figures)) {
    console.log(`${name}: longest delay ${f.max_ms} ms, p99 ${f.p99_ms} ms, held by its own work at most ${f.max_busy_ms} ms${f.max_busy_ms < TARGET_MS ? '' : ` (over ${TARGET_MS} ms)`}, over ${f.seconds} s`);
  }
  console.log(
    JSON.stringify({
      bench: 'event-loop',
      file_mb: fileMb,
      ...figures,
      load_average: os.loadavg().map((x) => +x.toFixed(1)),
      cores: os.availableParallelism(),
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
    }),
  );
}
