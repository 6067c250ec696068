/**
 * The shipment report PDF (spec 4.9), on both backends: its text carries every plot, the batch's
 * counts, the open alert cases on its plots, and a last page with the statement's fields in V3 order
 * naming what is still missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { storeEvidence } from '../../src/reading-service/evidence-store.ts';
import { NEXT_STEP_NOTES, NO_ARCHIVE_COVERS } from '../../src/engine/next-step.ts';
import { sealEvidence } from '../../src/engine/integrity.ts';
import type { Severity } from '../../src/store/entities/index.ts';
import { closeCase, openCase } from '../../src/store/register/alert-queue.ts';
import { insertPlots, type PlotColumns } from '../../src/store/register/imports.ts';
import { FULL_TABLE_ROWS, type ReportList, type ReportPage, type ReportPlot } from '../../src/documents/shipment-report.ts';
import { REPORT_PAGE_ROWS, reportPage, shipmentReportInput } from '../../src/statements/report.ts';
import { queue } from '../../src/store/register/transitions.ts';
import { fixtureEvidence, fixtureKey, fixtureMap } from '../fixtures/evidence-wrapper.ts';
import { BACKENDS } from '../support/db.ts';
import { loopDelayDuring } from '../support/event-loop.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { square } from '../statements/facts.ts';
import { pdfText } from './pdf-text.ts';

function plot(ref: string, i: number, over: Partial<PlotColumns> = {}): PlotColumns {
  return {
    id: randomUUID(), external_ref: ref, commodity: 'wood', country: 'HR', area_ha: 14, declared_area_ha: null, geometry: square(15.9 + i * 0.02, 45.8),
    validation_state: 'valid', validation_report: { findings: [], repairs: [], rejections: [] }, planted_year: null, producer_id: null, ...over,
  };
}

for (const backend of BACKENDS) {
  describe(`shipment report (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let workspaceId: string;

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Wood Co', plan: 'trial', email: 'w@wood.test', password: 'wood pass' });
      key = created.api_key as string;
      workspaceId = created.workspace_id as string;
    });
    after(() => app.close());

    /** A list of a shipment's report, a page at a time, as the documents thread asks for it while it writes. */
    const listPages = async <T>(shipmentId: string, list: ReportList): Promise<T[][]> => {
      const pages: T[][] = [];
      for (let after: number | null = 0; after !== null;) {
        const page: ReportPage = await reportPage(app.services.store.em(), workspaceId, shipmentId, { list, after });
        pages.push(JSON.parse(page.rows) as T[]);
        after = page.next;
      }
      return pages;
    };

    test('carries every plot with its state and next step, the counts, and the statement page naming what is missing', async () => {
      const plots = [plot('HR-READ', 0), plot('HR-NEW', 1), plot('HR-REJECTED', 2, { validation_state: 'rejected', geometry: null })];
      const em = () => app.services.store.em();
      await em().transactional((tx) => insertPlots(tx, workspaceId, plots));
      const jobId = randomUUID();
      await em().transactional((tx) => queue(tx, jobId, [plots[0].id]));
      const evidence = fixtureEvidence();
      await storeEvidence(em(), {
        readId: randomUUID(), workspaceId, plotId: plots[0].id, jobId, evidence, integrity: sealEvidence(evidence, fixtureKey()), map: await fixtureMap(false),
        facts: { seasons_measured: 4, landsat_2020: 'outside_moist_forest' },
      }, { baseUrl: app.services.config.baseUrl });

      const s = await app.call('POST', '/api/v1/portal/statements/shipments', {
        key, body: { reference: 'OAK-7', commodity: 'wood', quantity: 30, unit: 't', shipped_on: '2026-04-01', refs: plots.map((p) => p.external_ref) },
      });
      assert.equal(s.status, 201);
      const res = await fetch(`${app.url}/api/v1/portal/statements/shipments/${s.body.id}/report.pdf`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      const read = await pdfText(Buffer.from(await res.arrayBuffer()));
      // Table cells wrap: words are compared with the lines joined.
      const text = read.text.replace(/\s+/g, ' ');
      const last = read.pages[read.pages.length - 1].replace(/\s+/g, ' ');
      for (const p of plots) assert.ok(text.includes(p.external_ref!), p.external_ref!);
      for (const words of ['Established before the cutoff', 'Not read yet', 'run_evidence', 'correct_and_upload_again', 'With a finding', 'Not yet read', 'Open alert cases', 'No alert case is open', 'Sources', 'Limitations']) {
        assert.ok(text.includes(words), words);
      }
      const order = ['operatorRole', 'internalReferenceNumber', 'activityType', 'countryOfActivity', 'descriptionOfGoods', 'netWeight', 'hsHeading', 'speciesInfo', 'producers', 'geoLocationConfidential'];
      const at = order.map((field) => last.indexOf(field));
      assert.ok(at.every((i) => i >= 0), `${order.filter((_, i) => at[i] < 0)} missing from the statement page`);
      assert.deepEqual([...at].sort((a, b) => a - b), at, 'the fields in V3 order');
      assert.ok(last.includes('country of harvest'));
      // What the batch does not give, named.
      for (const missing of ['destination_country', 'description_of_goods', 'hs_code', 'species', 'rejected at upload']) assert.ok(last.includes(missing), missing);
    });

    test('lists the open alert cases on the batch\'s plots, and none closed or off the batch', async () => {
      const plots = [plot('AL-ONE', 3), plot('AL-TWO', 4), plot('AL-OFF', 5)];
      const em = () => app.services.store.em();
      await em().transactional((tx) => insertPlots(tx, workspaceId, plots));
      const monitorId = randomUUID();
      const at = new Date('2024-05-02T00:00:00Z');
      const opening = (plotId: string, firstDate: string, severity: Severity, areaHa: number) => em().transactional(async (tx) => openCase(tx, at, {
        workspaceId, monitorId, plotId, product: 'radd', firstDate, lastDate: '2024-04-30', confidence: 'high', pixels: areaHa * 100, areaHa,
        flaggedAreaKm2: areaHa / 100, severity, centroid: null, bbox: null, source: {},
      }).id);
      const later = await opening(plots[1].id, '2024-03-15', 'high', 6.5);
      const earlier = await opening(plots[0].id, '2024-02-01', 'medium', 1.25);
      const closed = await opening(plots[0].id, '2024-01-05', 'low', 0.5);
      const off = await opening(plots[2].id, '2024-02-10', 'high', 9);
      assert.ok(await closeCase(em(), workspaceId, closed, 'Replanting of an old block.', at));

      const s = await app.call('POST', '/api/v1/portal/statements/shipments', { key, body: { reference: 'ALERTED-1', commodity: 'wood', plot_ids: [plots[0].id, plots[1].id] } });
      assert.equal(s.status, 201);
      const input = await shipmentReportInput(em(), workspaceId, s.body.id, app.services.config.baseUrl);
      assert.deepEqual(input.openCases.map((c) => [c.alert_id, c.ref, c.first_date, c.last_date, c.severity, c.flagged_area_km2, c.product]), [
        [earlier, 'AL-ONE', '2024-02-01', '2024-04-30', 'medium', 0.0125, 'radd'],
        [later, 'AL-TWO', '2024-03-15', '2024-04-30', 'high', 0.065, 'radd'],
      ]);

      const res = await fetch(`${app.url}/api/v1/portal/statements/shipments/${s.body.id}/report.pdf`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      const text = (await pdfText(Buffer.from(await res.arrayBuffer()))).text.replace(/\s+/g, ' ');
      const section = text.slice(text.indexOf('Open alert cases'), text.indexOf('Sources'));
      assert.ok(section.includes('2 cases on the alert queue'), section);
      // The rows in order: by plot in register order.
      assert.ok(section.includes(`AL-ONE ${earlier} 2024-02-01 2024-04-30 medium 0.0125 radd AL-TWO ${later} 2024-03-15 2024-04-30 high 0.065 radd`), section);
      for (const absent of [closed, off, 'AL-OFF', 'No alert case is open']) assert.ok(!text.includes(absent), absent);
    });

    test('a plot no archive covers goes on to check_location, as the evidence route says, and another failed read to run_again', async () => {
      const plots = [plot('SEA-1', 6), plot('BROKE-1', 7)];
      const em = () => app.services.store.em();
      await em().transactional((tx) => insertPlots(tx, workspaceId, plots));
      const failing = (id: string, error: string) => em().execute(`update plots set evidence_state = 'failed', evidence_error = ? where id = ?`, [error, id]);
      await failing(plots[0].id, `The read could not be completed: ${NO_ARCHIVE_COVERS}: nothing was read`);
      await failing(plots[1].id, 'The read could not be completed: a scene could not be fetched');
      const s = await app.call('POST', '/api/v1/portal/statements/shipments', { key, body: { reference: 'SEA-BATCH', commodity: 'wood', plot_ids: plots.map((p) => p.id) } });
      assert.equal(s.status, 201);
      const rows = (await listPages<ReportPlot>(s.body.id, 'plots')).flat();
      assert.deepEqual(rows.map((r) => [r.external_ref, r.next_step?.code]), [['SEA-1', 'check_location'], ['BROKE-1', 'run_again']]);
      const detail = await app.call('GET', `/api/v1/portal/plots/${plots[0].id}/evidence`, { key });
      assert.ok(detail.body.error.message.includes(NEXT_STEP_NOTES.check_location), 'the evidence route says the same step');
      const res = await fetch(`${app.url}/api/v1/portal/statements/shipments/${s.body.id}/report.pdf`, { headers: { authorization: `Bearer ${key}` } });
      const text = (await pdfText(Buffer.from(await res.arrayBuffer()))).text.replace(/\s+/g, ' ');
      assert.ok(text.includes('check_location'), 'the table names the plot\'s own next step');
      assert.ok(text.includes(NEXT_STEP_NOTES.check_location.slice(0, 40)), 'and its note');
    });

    test('404 for a shipment not in the workspace', async () => {
      const r = await app.call('GET', `/api/v1/portal/statements/shipments/${randomUUID()}/report.pdf`, { key });
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'not_found');
    });

    // Last: reading its long PDF holds this thread past the server's keep-alive timeout, and the next
    // request would be sent on a connection the server has just closed.
    test('a large batch: read in pages, the first plots in the full table and the rest a line each, the API\'s loop never held long', async () => {
      // Past the full table, and a last page part full.
      const size = FULL_TABLE_ROWS + REPORT_PAGE_ROWS + 250;
      const pageLengths = Array.from({ length: Math.ceil(size / REPORT_PAGE_ROWS) }, (_, i) => Math.min(REPORT_PAGE_ROWS, size - i * REPORT_PAGE_ROWS));
      const ref = (i: number) => `BIG-${String(i).padStart(5, '0')}`;
      const em = () => app.services.store.em();
      await em().execute(
        `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha, declared_area_ha, geometry, validation_state, validation_report, evidence_state, created_at, updated_at)
         select gen_random_uuid(), ?, 'BIG-' || lpad(i::text, 5, '0'), 'wood', 'HR', 1, 1,
           jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(15.9 + i * 0.0001, 45.8)), 'valid', '{}'::jsonb, 'none', now(), now()
         from generate_series(1, ?) as i`,
        [workspaceId, size],
      );
      const s = await app.call('POST', '/api/v1/portal/statements/shipments', { key, body: { reference: 'BIG-1', commodity: 'wood', refs: [ref(1)] } });
      assert.equal(s.status, 201);
      await em().execute(
        `insert into shipment_plots (shipment_id, plot_id, workspace_id)
         select ?, p.id, p.workspace_id from plots p where p.workspace_id = ? and p.external_ref like 'BIG-%' and p.external_ref <> ? order by p.seq`,
        [s.body.id, workspaceId, ref(1)],
      );

      for (const list of ['plots', 'filing', 'warnings'] as const) {
        const pages = await listPages<{ external_ref: string }>(s.body.id, list);
        assert.deepEqual(pages.map((p) => p.length), pageLengths, list);
        assert.deepEqual(pages.flat().map((p) => p.external_ref), Array.from({ length: size }, (_, i) => ref(i + 1)), list);
      }

      const { result: pdf, delay } = await loopDelayDuring(async () => {
        const res = await fetch(`${app.url}/api/v1/portal/statements/shipments/${s.body.id}/report.pdf`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
        // Sent as it is written: no length known up front.
        assert.equal(res.headers.get('transfer-encoding'), 'chunked');
        assert.equal(res.headers.get('content-length'), null);
        return Buffer.from(await res.arrayBuffer());
      });
      // CPU time of this thread between two turns, which other processes on a busy machine do not add
      // to: each page the documents thread asks for is read in one turn and built in the next. On PGlite the database
      // runs on this thread, and its worst turn (a page's query and its rows) measured at most 36 ms
      // with two busy loops beside it on two cores (PostgreSQL: 10 ms): the bound is seven times that.
      assert.ok(delay.max_busy_ms < 250, `the loop was held ${delay.max_busy_ms} ms`);
      const text = (await pdfText(pdf)).text.replace(/\s+/g, ' ');
      assert.ok(text.includes(`the first ${FULL_TABLE_ROWS} plots in the full table; the other ${size - FULL_TABLE_ROWS} a line each`), 'page 1 says how the table is laid out');
      assert.ok(text.includes(`The other ${size - FULL_TABLE_ROWS} plots`), 'the compact list is headed');
      assert.ok(text.includes(`The other ${size - FULL_TABLE_ROWS} warnings`), 'the evidence warnings past the cap listed a line each');
      assert.ok(text.includes(`${ref(size)} · not_read`), 'a compact warning line: plot, code');
      for (const i of [1, FULL_TABLE_ROWS, FULL_TABLE_ROWS + 1, size]) assert.ok(text.includes(ref(i)), ref(i));
      assert.ok(text.includes(`${ref(size)} · Not read yet · not read yet`), 'a compact line: plot, state, finding');
      assert.ok(text.includes(`${size} plots`), 'the statement page counts every plot');
    });
  });
}
