import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { openApiDocument } from '../../src/api/openapi/index.ts';
import { CSV_COLUMNS } from '../../src/documents/book-summary.ts';
import { sealEvidence } from '../../src/engine/integrity.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { assertDocumented } from '../support/openapi.ts';
import { fixtureEvidence, fixtureMap, storeFixtureRead } from '../fixtures/evidence-wrapper.ts';
import { insertEvidence, insertPlot, type PlotSpec } from './book.ts';
import { pdfText } from './pdf-text.ts';

type CsvRow = Record<(typeof CSV_COLUMNS)[number], string>;

const positive = fixtureEvidence({ seed: 1 });
const underFloor = fixtureEvidence({
  seed: 2,
  edit: (e) => {
    e.aoi_name = 'SMALL-1';
    e.plot_area_km2 = 0.024;
    e.verdict = 'prior_management_weak';
    e.reasons = ['cycle_and_structure_agree', 'plot_below_evidence_floor'];
    e.next_step = { code: 'below_evidence_floor', note: 'Under the floor.' };
  },
});
const mapsForest = fixtureEvidence({
  seed: 3,
  edit: (e) => {
    e.verdict = 'prior_management_weak';
    e.reason = 'eu_forest_maps_read_forest';
    e.reasons = ['eu_forest_maps_read_forest', 'cycle_and_structure_agree'];
  },
});
const thin = fixtureEvidence({
  seed: 4,
  seasons: 2,
  edit: (e) => {
    e.verdict = 'insufficient_record';
    e.reason = 'record_too_thin';
    e.reasons = ['record_too_thin'];
  },
});

/** A book of eight plots in every state, in register order. */
const BOOK: PlotSpec[] = [
  { ref: 'SRT-0412', area_ha: 9.2, state: 'done', evidence: positive, facts: { eu_maps_forest_share: 0.04, landsat_2020: 'cleared_before_2021', seasons_measured: 4 } },
  { ref: 'SMALL-1', area_ha: 2.4, state: 'done', evidence: underFloor, facts: { eu_maps_forest_share: 0.02, landsat_2020: 'outside_moist_forest', seasons_measured: 4 } },
  { ref: 'MAPS-1', area_ha: 10.6, state: 'done', evidence: mapsForest, facts: { eu_maps_forest_share: 0.7, landsat_2020: 'degraded_forest', seasons_measured: 4 } },
  { ref: 'THIN-1', area_ha: 9, state: 'done', evidence: thin, facts: { eu_maps_forest_share: 0.1, landsat_2020: 'mixed_cover', seasons_measured: 1 } },
  { ref: 'NEW-1', area_ha: 8, state: 'none' },
  { ref: 'Q-1', area_ha: 8, state: 'queued' },
  { ref: 'F-1', area_ha: 8, state: 'failed' },
  { ref: '=HYPERLINK("http://x.test","a, b")', area_ha: 5, state: 'none' },
];

async function csvOf(app: TestApp, key: string, query = 'format=csv'): Promise<{ res: Response; rows: CsvRow[]; raw: string }> {
  const res = await fetch(`${app.url}/api/v1/portal/plots/summary?${query}`, { headers: { authorization: `Bearer ${key}` } });
  const raw = await res.text();
  return { res, raw, rows: parse(raw, { columns: true, skip_empty_lines: true }) as CsvRow[] };
}

function tally(rows: CsvRow[], column: keyof CsvRow, split = false): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) {
    for (const value of split ? row[column].split(';').filter(Boolean) : [row[column]]) {
      if (value !== '') counts[value] = (counts[value] ?? 0) + 1;
    }
  }
  return counts;
}

const nonZero = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));

for (const backend of BACKENDS) {
  describe(`documents routes (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let otherKey: string;
    let workspaceId: string;
    const ids: string[] = [];
    let otherPlot: string;

    before(async () => {
      app = await startTestApp(backend, { BASE_URL: 'https://evidence.example.org/api/v1', ARCHIVE_REVIEW_PRICE_USD: '45' });
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Rubber Co', plan: 'trial', email: 'a@rubber.test', password: 'rubber pass' });
      key = created.api_key as string;
      workspaceId = created.workspace_id as string;
      const other = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Other', plan: 'trial', email: 'b@other.test', password: 'other pass' });
      otherKey = other.api_key as string;
      const em = app.services.store.em();
      const map = await fixtureMap();
      for (const spec of BOOK) ids.push(await insertPlot(em, workspaceId, spec, app.services.signingKey, map));
      // A superseded read of the first plot stays stored and counts for nothing.
      const old = fixtureEvidence({ seed: 9, edit: (e) => { e.verdict = 'prior_management_weak'; e.reason = 'cycle_not_consistent'; e.reasons = ['cycle_not_consistent']; } });
      await insertEvidence(em, workspaceId, ids[0], old, sealEvidence(old, app.services.signingKey), map, false);
      otherPlot = await insertPlot(em, other.workspace_id as string, { ref: 'OTHER', area_ha: 9, state: 'done', evidence: positive }, app.services.signingKey, map);
    });
    after(() => app.close());

    test('the JSON summary counts the workspace\'s plots by tone, label, state, verdict and reason, with the review price', async () => {
      const r = await app.call('GET', '/api/v1/portal/plots/summary?format=json', { key });
      assert.equal(r.status, 200);
      const s = r.body;
      assert.equal(s.plots, 8);
      assert.deepEqual(s.evidence_states, { none: 2, queued: 1, running: 0, done: 4, failed: 1 });
      assert.deepEqual(s.state_tones, { finding: 1, record: 6, forest_mapped: 1 });
      assert.deepEqual(nonZero(s.state_labels), {
        'Established before the cutoff': 1,
        'Record only, under the evidence floor': 1,
        'Forest on the 2020 maps': 1,
        'Record only': 1,
        'Not read yet': 2,
        Queued: 1,
        'Could not be read': 1,
      });
      assert.equal(s.state_labels.Reading, 0);
      assert.deepEqual(s.verdicts, { prior_management_evidenced: 1, prior_management_weak: 2, no_prior_management_evidenced: 0, insufficient_record: 1 });
      assert.deepEqual(nonZero(s.reasons), { cycle_and_structure_agree: 3, plot_below_evidence_floor: 1, eu_forest_maps_read_forest: 1, record_too_thin: 1 });
      assert.equal(s.archive_review_price.priced, true);
      assert.equal(s.archive_review_price.price_usd, 45);
      assert.deepEqual((await app.call('GET', '/api/v1/portal/plots/summary', { key })).body, s, 'json is the default');
    });

    test('the CSV round-trips through a CSV parser with one row per plot and the counts of the JSON form', async () => {
      const json = (await app.call('GET', '/api/v1/portal/plots/summary?format=json', { key })).body;
      const { res, rows, raw } = await csvOf(app, key);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="plots-summary.csv"/);
      assert.deepEqual(raw.split('\r\n')[0].split(','), [...CSV_COLUMNS]);
      assert.ok(openApiDocument('').paths['/portal/plots/summary'].get.responses['200'].content['text/csv'], 'the CSV form is documented');
      assert.equal(rows.length, json.plots);
      assert.deepEqual(rows.map((r) => r.plot_id), ids, 'register order');
      assert.deepEqual(tally(rows, 'state_tone'), nonZero(json.state_tones));
      assert.deepEqual(tally(rows, 'state'), nonZero(json.state_labels));
      assert.deepEqual(tally(rows, 'evidence_state'), nonZero(json.evidence_states));
      assert.deepEqual(tally(rows, 'verdict'), nonZero(json.verdicts));
      assert.deepEqual(tally(rows, 'reasons', true), nonZero(json.reasons));
    });

    test('each CSV row carries the plot\'s state, record, reasons, next step, evidence time and, once read, its document link', async () => {
      const { rows, raw } = await csvOf(app, key);
      const [read, small, , , unread, queued, failed, formula] = rows;
      assert.ok(raw.includes(',"cycle_and_structure_agree;plot_below_evidence_floor",'), 'a field holding a semicolon is quoted');
      assert.equal(read.external_ref, 'SRT-0412');
      assert.equal(read.state, 'Established before the cutoff');
      assert.match(read.record, /^2020 maps: not forest\. Landsat record: cleared before 2021\. 4 dry seasons could be read\.$/);
      assert.equal(read.reasons, 'cycle_and_structure_agree');
      assert.equal(read.evidence_at, positive.issued);
      assert.equal(read.next_step, '');
      assert.equal(read.document_url, `https://evidence.example.org/api/v1/portal/plots/${ids[0]}/evidence.pdf`);
      assert.equal(read.area_ha, '9.2');
      assert.equal(small.reasons, 'cycle_and_structure_agree;plot_below_evidence_floor');
      assert.equal(small.next_step, 'below_evidence_floor');
      assert.equal(unread.document_url, '');
      assert.equal(unread.verdict, '');
      assert.equal(unread.next_step, 'run_evidence');
      assert.match(unread.record, /^Not read yet\./);
      assert.equal(queued.next_step, 'await_read');
      assert.equal(failed.next_step, 'run_again');
      assert.equal(formula.external_ref, '\'=HYPERLINK("http://x.test","a, b")', 'a formula is written as text');
    });

    test('a book larger than one page streams every plot once, in order', async () => {
      const big = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Big', plan: 'trial', email: 'c@big.test', password: 'big pass!' });
      await app.services.store.em().execute(
        `insert into plots (id, workspace_id, external_ref, validation_state, validation_report, area_ha, created_at, updated_at)
         select gen_random_uuid(), ?, 'B-' || lpad(i::text, 5, '0'), 'valid', '{}'::jsonb, 5, now(), now() from generate_series(1, 5400) as i`,
        [big.workspace_id],
        'run',
      );
      const { rows } = await csvOf(app, big.api_key as string);
      assert.equal(rows.length, 5400);
      const refs = rows.map((r) => r.external_ref);
      assert.deepEqual(refs, [...refs].sort());
      assert.equal(new Set(refs).size, 5400);
      const json = (await app.call('GET', '/api/v1/portal/plots/summary', { key: big.api_key as string })).body;
      assert.equal(json.plots, 5400);
      assert.equal(json.state_labels['Not read yet'], 5400);
    });

    /** A workspace of its own, so the book above keeps its counts. */
    async function ownBook(name: string): Promise<{ workspaceId: string; key: string }> {
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name, plan: 'trial', email: `${randomUUID()}@book.test`, password: 'book pass!' });
      return { workspaceId: created.workspace_id as string, key: created.api_key as string };
    }

    async function importBook(bookKey: string, features: unknown[]): Promise<{ imported: Record<string, number> }> {
      const form = new FormData();
      form.append('file', new Blob([JSON.stringify({ type: 'FeatureCollection', features })]), 'plots.geojson');
      const res = await fetch(`${app.url}/api/v1/portal/plots/import?country=TH`, { method: 'POST', headers: { authorization: `Bearer ${bookKey}` }, body: form });
      assert.equal(res.status, 200);
      return res.json() as Promise<{ imported: Record<string, number> }>;
    }

    const squareFeature = (ref: string, lon: number) => ({
      type: 'Feature',
      properties: { ref, commodity: 'rubber' },
      geometry: { type: 'Polygon', coordinates: [[[lon, 8.8], [lon + 0.003, 8.8], [lon + 0.003, 8.803], [lon, 8.803], [lon, 8.8]]] },
    });

    test('evidence withdrawn by a moved boundary counts no reasons in the summary, JSON or CSV', async () => {
      const book = await ownBook('Moved');
      await importBook(book.key, [squareFeature('MOVE-1', 99.1)]);
      const em = app.services.store.em();
      const [{ id }] = await em.execute<{ id: string }[]>('select id from plots where workspace_id = ?', [book.workspaceId]);
      await storeFixtureRead(em, app.services.signingKey, { workspaceId: book.workspaceId, plotId: id, evidence: mapsForest, facts: { eu_maps_forest_share: 0.7 } });
      const read = (await app.call('GET', '/api/v1/portal/plots/summary', { key: book.key })).body;
      assert.deepEqual(nonZero(read.reasons), { eu_forest_maps_read_forest: 1, cycle_and_structure_agree: 1 }, 'counted while served');

      const moved = await importBook(book.key, [squareFeature('MOVE-1', 99.2)]);
      assert.equal(moved.imported.evidence_stale, 1);
      const s = (await app.call('GET', '/api/v1/portal/plots/summary', { key: book.key })).body;
      assert.deepEqual(nonZero(s.reasons), {});
      assert.deepEqual(nonZero(s.verdicts), {});
      assert.deepEqual(nonZero(s.state_labels), { 'Not read yet': 1 });
      const [row] = (await csvOf(app, book.key)).rows;
      assert.deepEqual([row.evidence_state, row.verdict, row.reason, row.reasons, row.next_step], ['none', '', '', '', 'run_evidence']);
    });

    test('a rejected plot\'s next step in the CSV is to correct it and upload it again, never run_evidence', async () => {
      const book = await ownBook('Rejected');
      const map = await fixtureMap();
      await insertPlot(app.services.store.em(), book.workspaceId, { ref: 'BAD-1', area_ha: 9, state: 'none', validation: 'rejected' }, app.services.signingKey, map);
      await insertPlot(app.services.store.em(), book.workspaceId, { ref: 'GOOD-1', area_ha: 9, state: 'none' }, app.services.signingKey, map);
      const rows = (await csvOf(app, book.key)).rows;
      assert.deepEqual(rows.map((r) => [r.external_ref, r.next_step]), [['BAD-1', 'correct_and_upload_again'], ['GOOD-1', 'run_evidence']]);
    });

    test('a plot under the floor reads "Not read yet" and is counted so until read; then its floor is shown', async () => {
      const book = await ownBook('Small');
      const em = app.services.store.em();
      const map = await fixtureMap();
      await insertPlot(em, book.workspaceId, { ref: 'TINY-1', area_ha: 1.2, state: 'none' }, app.services.signingKey, map);
      await insertPlot(em, book.workspaceId, { ref: 'SMALL-2', area_ha: 2.4, state: 'done', evidence: underFloor, facts: { seasons_measured: 4 } }, app.services.signingKey, map);
      const s = (await app.call('GET', '/api/v1/portal/plots/summary', { key: book.key })).body;
      assert.deepEqual(nonZero(s.state_labels), { 'Not read yet': 1, 'Record only, under the evidence floor': 1 });
      const rows = (await csvOf(app, book.key)).rows;
      assert.deepEqual(rows.map((r) => [r.external_ref, r.state]), [['TINY-1', 'Not read yet'], ['SMALL-2', 'Record only, under the evidence floor']]);
      assert.match(rows[0].record, /^Not read yet\./);
    });

    test('a plot registered without a reference says "no reference given" in its document, never its id', async () => {
      const book = await ownBook('Unreferenced');
      const unnamed = fixtureEvidence({ seed: 5, edit: (e) => { e.aoi_name = ''; } });
      const id = await insertPlot(app.services.store.em(), book.workspaceId, { ref: null, area_ha: 9.2, state: 'done', evidence: unnamed }, app.services.signingKey, await fixtureMap());
      const res = await fetch(`${app.url}/api/v1/portal/plots/${id}/evidence.pdf`, { headers: { authorization: `Bearer ${book.key}` } });
      assert.equal(res.status, 200);
      const { text, pages } = await pdfText(Buffer.from(await res.arrayBuffer()));
      assert.match(text, /Reference\s+no reference given/);
      for (const page of pages) assert.ok(page.includes('Evidence of land use before the EUDR cutoff · no reference given'));
      const wrapper = (await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key: book.key })).body;
      assert.deepEqual([wrapper.external_ref, wrapper.evidence.aoi_name], [null, '']);
    });

    test('refuses an unknown format with 422 bad_format', async () => {
      const r = await app.call('GET', '/api/v1/portal/plots/summary?format=xml', { key });
      assert.equal(r.status, 422);
      assert.equal(r.body.error.code, 'bad_format');
    });

    test('the evidence PDF is rendered from the stored object: its digest, verdict, scenes and the registered commodity', async () => {
      const res = await fetch(`${app.url}/api/v1/portal/plots/${ids[0]}/evidence.pdf`, { headers: { authorization: `Bearer ${key}` } });
      assertDocumented('GET', `/api/v1/portal/plots/${ids[0]}/evidence.pdf`, res.status, null);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      assert.match(res.headers.get('content-disposition') ?? '', /filename="evidence-SRT-0412\.pdf"/);
      const pdf = Buffer.from(await res.arrayBuffer());
      const { text, pages } = await pdfText(pdf);
      const [{ integrity }] = await app.services.store.em().execute<{ integrity: { digest: string } }[]>(
        'select integrity from evidence where plot_id = ? and current', [ids[0]],
      );
      assert.ok(text.includes(integrity.digest));
      assert.ok(text.includes('prior_management_evidenced'));
      for (const scene of positive.scenes) assert.ok(text.includes(scene));
      assert.ok(text.includes('https://evidence.example.org/api/v1/evidence/public-key'));
      assert.match(text, /Commodity \(as registered\)\s+rubber/);
      for (const page of pages) assert.ok(page.includes('SYNTHETIC DEMO DATA'));
    });

    test('changing the stored object changes the document', async () => {
      const get = async () => Buffer.from(await (await fetch(`${app.url}/api/v1/portal/plots/${ids[1]}/evidence.pdf`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
      const before = await get();
      assert.ok(before.equals(await get()), 'the same object gives the same bytes');
      const changed = structuredClone(underFloor);
      changed.finding = 'A finding re-read on a later day.';
      const integrity = sealEvidence(changed, app.services.signingKey);
      await insertEvidence(app.services.store.em(), workspaceId, ids[1], changed, integrity, await fixtureMap(false), true);
      const after = await get();
      assert.ok(!after.equals(before));
      const text = (await pdfText(after)).text;
      assert.ok(text.includes(integrity.digest));
      assert.ok(text.includes('A finding re-read on a later day.'));
      assert.ok(text.includes('No true-colour chip was stored with this evidence'));
    });

    test('answers 409 no_evidence naming the state while unread, queued or failed, and 404 outside the workspace', async () => {
      for (const [i, state] of [[4, 'none'], [5, 'queued'], [6, 'failed']] as const) {
        const r = await app.call('GET', `/api/v1/portal/plots/${ids[i]}/evidence.pdf`, { key });
        assert.equal(r.status, 409);
        assert.equal(r.body.error.code, 'no_evidence');
        assert.match(r.body.error.message, new RegExp(`evidence state is ${state}`));
      }
      const foreign = await app.call('GET', `/api/v1/portal/plots/${otherPlot}/evidence.pdf`, { key });
      assert.equal(foreign.status, 404);
      const mine = await fetch(`${app.url}/api/v1/portal/plots/${otherPlot}/evidence.pdf`, { headers: { authorization: `Bearer ${otherKey}` } });
      assert.equal(mine.status, 200);
      const bogus = await app.call('GET', '/api/v1/portal/plots/not-a-plot/evidence.pdf', { key });
      assert.equal(bogus.status, 404);
    });

    test('a signed-in session opens the document and the CSV from a link naming the workspace with ?workspace=', async () => {
      const signIn = await fetch(`${app.url}/api/v1/auth/sign-in`, {
        method: 'POST',
        // The service's base URL is https, so its session cookie is secure: the request comes through a TLS proxy.
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        body: JSON.stringify({ email: 'a@rubber.test', password: 'rubber pass' }),
      });
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
      assert.match(cookie, /^pce_session=/);
      const pdf = await fetch(`${app.url}/api/v1/portal/plots/${ids[0]}/evidence.pdf?workspace=${workspaceId}`, { headers: { cookie } });
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      const csv = await fetch(`${app.url}/api/v1/portal/plots/summary?format=csv&workspace=${workspaceId}`, { headers: { cookie } });
      assert.equal(csv.status, 200);
      assert.equal((parse(await csv.text(), { columns: true }) as CsvRow[]).length, BOOK.length);
      const none = await fetch(`${app.url}/api/v1/portal/plots/${ids[0]}/evidence.pdf`, { headers: { cookie } });
      assert.equal(none.status, 400);
    });
  });
}
