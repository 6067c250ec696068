// `npm run bench -- documents [plots] [report]`: evidence documents per second for a four-season rubber plot,
import { verifiedKeys } from '../src/accounts/verified-keys.ts';
// the book summary over a large book (default 100,000 plots) in a scratch PostgreSQL database, and
// the shipment report of a batch of the whole book.
//
// Documents: the fixture wrapper and map rendered one after another, after a warm-up. Reference in
// the same run: what the JSON route does with the same object (canonical digest check and
// JSON.stringify of the wrapper), and pdfmake's floor (a one-page document with one line), so
// `ratio_to_json` and `ratio_to_floor` say where the time goes.
//
// Book summary: the plots inserted with one multi-row INSERT … SELECT over generate_series (60%
// read, each read with a stored evidence object of the fixture's size), then the CSV fetched over
// HTTP from the API on that database: time to the first byte, total time and bytes, and the
// process's peak RSS. Reference: the same keyset pages read straight through pg with nothing done
// to them (`ratio_to_raw_scan`), the same without the evidence join, and the JSON form's time
// over the same book. RSS is sampled every 20 ms while the CSV streams, against before it.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createApp } from '../src/api/app.ts';
import type { Services } from '../src/api/context.ts';
import { openRequestPools } from '../src/api/pools.ts';
import { loadConfig } from '../src/config.ts';
import { evidencePdf } from '../src/documents/evidence-pdf.ts';
import { renderPdf } from '../src/documents/pdf.ts';
import { canonicalJson, sealEvidence } from '../src/engine/integrity.ts';
import { loadSigningKey } from '../src/engine/signing.ts';
import { createLogger } from '../src/log.ts';
import { runAdminCommand } from '../src/admin/commands.ts';
import { openStore } from '../src/store/orm.ts';
import { configuredMapTiles, openEngine } from '../src/reading-service/map-tiles.ts';
import { openConfiguredAlerts } from '../src/service.ts';
import { scratchDatabase } from '../test/support/db.ts';
import { fixtureEvidence, fixtureMap, fixtureWrapper } from '../test/fixtures/evidence-wrapper.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

/**
 * The process's peak RSS (the document threads included) and the API thread's own peak heap, told
 * apart from the threads' share, sampled every 20 ms until stopped.
 */
function memoryPeaks() {
  const peak = { rss: 0, apiHeap: 0 };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.apiHeap = Math.max(peak.apiHeap, m.heapTotal);
  }, 20);
  return { peak, stop: () => clearInterval(sampler) };
}

async function timeEach(n: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return ms;
}

async function documents() {
  const wrapper = fixtureWrapper();
  const map = await fixtureMap();
  const input = { wrapper, register: { commodity: 'rubber' }, map };
  const options = { baseUrl: 'https://evidence.example.org/api/v1' };
  await timeEach(5, () => evidencePdf(input, options));
  const t0 = performance.now();
  const ms = await timeEach(30, () => evidencePdf(input, options));
  const seconds = (performance.now() - t0) / 1000;
  const pdf = await evidencePdf(input, options);
  const key = loadSigningKey(null, fs.mkdtempSync(path.join(os.tmpdir(), 'bench-docs-')));
  const jsonMs = await timeEach(200, () => {
    sealEvidence(JSON.parse(canonicalJson(wrapper.evidence)), key);
    return JSON.stringify(wrapper);
  });
  const floorMs = await timeEach(30, () => renderPdf({ content: ['One line.'], defaultStyle: { font: 'Roboto' } }));
  const result = {
    documents_per_s: round(30 / seconds, 2),
    ms_per_document_median: round(median(ms)),
    ms_per_document_max: round(Math.max(...ms)),
    pdf_kb: round(pdf.length / 1024),
    scenes: wrapper.evidence.scenes.length,
    skipped: wrapper.evidence.skipped.length,
    json_route_ms_median: round(median(jsonMs), 2),
    ratio_to_json: round(median(ms) / median(jsonMs)),
    one_line_pdf_ms_median: round(median(floorMs)),
    ratio_to_floor: round(median(ms) / median(floorMs)),
  };
  console.log(`documents: ${result.documents_per_s}/s, ${result.ms_per_document_median} ms each (max ${result.ms_per_document_max}), ${result.pdf_kb} KB; ` +
    `JSON route ${result.json_route_ms_median} ms (×${result.ratio_to_json}); a one-line PDF ${result.one_line_pdf_ms_median} ms (×${result.ratio_to_floor})`);
  return result;
}

const REASONS = [
  ['cycle_and_structure_agree'],
  ['structural_reading_says_forest'],
  ['cycle_and_structure_agree', 'plot_below_evidence_floor'],
  ['no_canopy_cycle'],
  ['record_too_thin'],
];
const VERDICTS = ['prior_management_evidenced', 'prior_management_weak', 'prior_management_weak', 'no_prior_management_evidenced', 'insufficient_record'];

async function seed(url: string, plots: number): Promise<{ workspaceId: string; key: string; seedMs: number }> {
  const store = await openStore({ databaseUrl: url, pgliteDir: 'memory://' });
  await store.migrate();
  const created = await runAdminCommand(store, ['workspace', 'create'], { name: 'Bench', plan: 'enterprise', email: 'bench@docs.test', password: 'bench pass' });
  await store.close();
  const workspaceId = created.workspace_id as string;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const object = fixtureEvidence();
  const t = performance.now();
  // Every fifth plot is unread and every tenth queued or failed; the rest are read, in five kinds.
  await client.query(
    `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha, validation_state, validation_report, evidence_state,
       verdict, reason, evidence_at, evidence_facts, created_at, updated_at)
     select gen_random_uuid(), $1, 'P-' || lpad(i::text, 6, '0'), 'rubber', 'TH', case when i % 5 = 2 then 2.4 else 9.2 end, 'valid', '{}'::jsonb,
       case when i % 5 = 0 then 'none' when i % 10 = 1 then 'queued' when i % 10 = 3 then 'failed' else 'done' end,
       case when i % 5 = 0 or i % 10 in (1, 3) then null else ($2::text[])[1 + i % 5] end,
       case when i % 5 = 0 or i % 10 in (1, 3) then null else ($3::text[])[1 + i % 5] end,
       case when i % 5 = 0 or i % 10 in (1, 3) then null else now() end,
       case when i % 5 = 0 or i % 10 in (1, 3) then null else jsonb_build_object('eu_maps_forest_share', (i % 7) / 10.0, 'landsat_2020', 'cleared_before_2021', 'seasons_measured', 4) end,
       now(), now()
     from generate_series(1, $4) as i`,
    [workspaceId, VERDICTS, REASONS.map((r) => r[0]), plots],
  );
  await client.query(
    `insert into evidence (id, workspace_id, plot_id, issued, object, integrity, current, map)
     select gen_random_uuid(), p.workspace_id, p.id, now(),
       jsonb_set($2::jsonb, '{reasons}', ($3::jsonb) -> (p.seq % 5)::int), '{}'::jsonb, true, '{}'::jsonb
     from plots p where p.workspace_id = $1 and p.evidence_state = 'done'`,
    [workspaceId, JSON.stringify(object), JSON.stringify(REASONS)],
  );
  await client.query('analyze plots; analyze evidence');
  await client.end();
  return { workspaceId, key: created.api_key as string, seedMs: performance.now() - t };
}

/** The API on a scratch database in this process, its document threads included, on an ephemeral port. */
async function benchApi(databaseUrl: string, dataDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const store = await openStore({ databaseUrl, pgliteDir: 'memory://' });
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', DATABASE_URL: databaseUrl });
  // No tile is drawn and no coverage asked here: the archive is never opened.
  const engine = openEngine(config, false);
  const archive = () => Promise.reject(new Error('the documents bench reads no archive'));
  const mapTiles = configuredMapTiles(config, archive, engine);
  const services: Services = { config, store, queue: null, log: createLogger('silent'), signingKey: loadSigningKey(null, dataDir), keys: verifiedKeys(config.keyCacheMs), pools: openRequestPools(config), archive, mapTiles, alerts: openConfiguredAlerts(config) };
  const server = createApp(services).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.close();
      await services.pools.close();
      await engine.pool.close();
      await store.close();
    },
  };
}

async function bookSummary(plots: number) {
  const db = await scratchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-docs-'));
  try {
    const { workspaceId, key, seedMs } = await seed(db.url, plots);
    const api = await benchApi(db.url, dataDir);
    const base = `${api.url}/api/v1/portal/plots/summary`;
    const headers = { authorization: `Bearer ${key}` };

    // The raw scan: the route's keyset pages through pg, rows dropped.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const rawScan = async (withReasons: boolean) => {
      const t = performance.now();
      let first = 0;
      let after = 0;
      for (let size = 250; ; size = 5000) {
        const { rows } = await client.query(
          `select p.seq, p.id, p.external_ref, p.commodity, p.country, p.area_ha, p.evidence_state, p.verdict, p.reason, p.evidence_at, p.evidence_facts
             ${withReasons ? `, e.object -> 'reasons' as reasons` : ''}
           from plots p ${withReasons ? 'left join evidence e on e.plot_id = p.id and e.workspace_id = p.workspace_id and e.current' : ''}
           where p.workspace_id = $1 and p.seq > $2 order by p.seq limit $3`,
          [workspaceId, after, size],
        );
        if (first === 0) first = performance.now() - t;
        if (rows.length < size) break;
        after = Number(rows[rows.length - 1].seq);
      }
      return { firstMs: first, totalMs: performance.now() - t };
    };
    await rawScan(true);
    const raw = await rawScan(true);
    const rawPlotsOnly = await rawScan(false);
    await client.end();

    const memory = memoryPeaks();
    const csv = async () => {
      const t = performance.now();
      const res = await fetch(`${base}?format=csv`, { headers });
      const reader = res.body!.getReader();
      let ttfb = 0;
      let bytes = 0;
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (ttfb === 0) ttfb = performance.now() - t;
        bytes += value.length;
        for (const b of value) if (b === 10) lines++;
      }
      return { ttfbMs: ttfb, totalMs: performance.now() - t, bytes, rows: lines - 1 };
    };
    await csv();
    const rssBefore = process.memoryUsage().rss;
    memory.peak.rss = rssBefore;
    const runs = [await csv(), await csv(), await csv()];
    memory.stop();
    const best = runs.reduce((a, b) => (a.totalMs < b.totalMs ? a : b));
    const t = performance.now();
    const json = (await (await fetch(`${base}?format=json`, { headers })).json()) as { plots: number };
    const jsonMs = performance.now() - t;
    await api.close();
    const result = {
      plots,
      rows: best.rows,
      seed_s: round(seedMs / 1000),
      csv_ttfb_ms: round(median(runs.map((r) => r.ttfbMs))),
      csv_total_s: round(best.totalMs / 1000, 2),
      csv_mb: round(best.bytes / 1e6),
      csv_rows_per_s: Math.round(best.rows / (best.totalMs / 1000)),
      raw_scan_first_page_ms: round(raw.firstMs),
      raw_scan_total_s: round(raw.totalMs / 1000, 2),
      ratio_to_raw_scan: round(best.totalMs / raw.totalMs, 2),
      raw_scan_without_evidence_join_s: round(rawPlotsOnly.totalMs / 1000, 2),
      rss_before_csv_mb: round(rssBefore / 1e6),
      rss_peak_during_csv_mb: round(memory.peak.rss / 1e6),
      json_total_s: round(jsonMs / 1000, 2),
      json_plots: json.plots,
    };
    console.log(`book summary over ${plots.toLocaleString('en')} plots: CSV first byte ${result.csv_ttfb_ms} ms, all ${result.csv_total_s} s ` +
      `(${result.csv_mb} MB, ${result.csv_rows_per_s.toLocaleString('en')} rows/s); raw keyset scan ${result.raw_scan_total_s} s (×${result.ratio_to_raw_scan}); ` +
      `without the evidence join ${result.raw_scan_without_evidence_join_s} s; JSON ${result.json_total_s} s; RSS ${result.rss_before_csv_mb} MB before the CSV, ${result.rss_peak_during_csv_mb} MB at most while it streams`);
    return result;
  } finally {
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The shipment report of a batch holding the whole book, every plot with a small square boundary:
 * the render's time, the worst /health answer while it renders (asked every 50 ms), and the
 * process's peak RSS (the document threads included) against before it.
 */
async function shipmentReport(plots: number) {
  const db = await scratchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-docs-'));
  try {
    const { workspaceId, key } = await seed(db.url, plots);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(
      `update plots set geometry = jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(jsonb_build_array(
         jsonb_build_array(x, y), jsonb_build_array(x + 0.005, y), jsonb_build_array(x + 0.005, y + 0.005), jsonb_build_array(x, y + 0.005), jsonb_build_array(x, y))))
       from (select seq as s, 100 + (seq % 1000) * 0.01 as x, 10 + (seq / 1000) * 0.01 as y from plots where workspace_id = $1) g
       where plots.seq = g.s`,
      [workspaceId],
    );
    const api = await benchApi(db.url, dataDir);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${api.url}/api/v1/portal/statements/shipments`, {
      method: 'POST', headers, body: JSON.stringify({ reference: 'BENCH-1', commodity: 'rubber', refs: ['P-000001'] }),
    });
    const shipmentId = ((await created.json()) as { id: string }).id;
    await client.query(
      `insert into shipment_plots (shipment_id, plot_id, workspace_id)
       select $1, p.id, p.workspace_id from plots p where p.workspace_id = $2 and p.external_ref <> 'P-000001' order by p.seq`,
      [shipmentId, workspaceId],
    );
    await client.query('analyze shipment_plots; analyze plots');
    await client.end();

    const rssBefore = process.memoryUsage().rss;
    const memory = memoryPeaks();
    memory.peak.rss = rssBefore;
    const health: number[] = [];
    let rendering = true;
    const prober = (async () => {
      while (rendering) {
        const t = performance.now();
        await (await fetch(`${api.url}/api/v1/health`)).arrayBuffer();
        health.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const t = performance.now();
    const res = await fetch(`${api.url}/api/v1/portal/statements/shipments/${shipmentId}/report.pdf`, { headers });
    if (res.status !== 200) console.error(`report.pdf answered ${res.status}: ${await res.text()}`);
    // Read as it streams, counted and dropped, so the bench holds none of it.
    let bytes = 0;
    let firstByteMs = 0;
    for await (const chunk of res.body ?? []) {
      if (bytes === 0) firstByteMs = performance.now() - t;
      bytes += chunk.length;
    }
    const renderMs = performance.now() - t;
    rendering = false;
    await prober;
    memory.stop();
    await api.close();
    const result = {
      plots,
      status: res.status,
      render_s: round(renderMs / 1000, 1),
      first_byte_s: round(firstByteMs / 1000, 1),
      pdf_mb: round(bytes / 1e6),
      health_max_ms: round(Math.max(...health)),
      health_probes: health.length,
      rss_before_mb: round(rssBefore / 1e6),
      rss_peak_mb: round(memory.peak.rss / 1e6),
      api_heap_peak_mb: round(memory.peak.apiHeap / 1e6),
    };
    console.log(`shipment report over ${plots.toLocaleString('en')} plots: ${res.status} in ${result.render_s} s, the first bytes at ${result.first_byte_s} s (${result.pdf_mb} MB); /health at worst ${result.health_max_ms} ms over ${result.health_probes} probes; ` +
      `RSS ${result.rss_before_mb} MB before, ${result.rss_peak_mb} MB at most while it renders`);
    return result;
  } finally {
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function run(args: string[]) {
  const plots = args[0] ? Number(args[0]) : 100_000;
  // `documents 100000 report`: the shipment report alone.
  if (args[1] === 'report') {
    console.log(JSON.stringify({ bench: 'documents', shipment_report: await shipmentReport(plots), cores: os.availableParallelism(), node: process.version }));
    return;
  }
  const docs = await documents();
  const book = await bookSummary(plots);
  const report = await shipmentReport(plots);
  console.log(JSON.stringify({ bench: 'documents', documents: docs, book_summary: book, shipment_report: report, cores: os.availableParallelism(), node: process.version, cpu: os.cpus()[0]?.model ?? 'unknown' }));
}
