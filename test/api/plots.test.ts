import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { MAX_FILE_BYTES } from '../../src/intake/limits.ts';
import { COUNT_WINDOW } from '../../src/store/register/plots.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type Reply, type TestApp } from '../support/app.ts';
import { assertDocumented } from '../support/openapi.ts';

/**
 * The answer to a raw request, read until the response ends or its connection closes (the server
 * closes a refused upload's connection, which may cut the response stream short of 'end').
 */
function answerOf(req: http.ClientRequest, onResponse = () => {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve) => {
    req.on('response', (res) => {
      onResponse();
      const parts: Buffer[] = [];
      const finish = () => {
        let body: any = null;
        try {
          body = JSON.parse(Buffer.concat(parts).toString());
        } catch {
          // cut short: the assertions on the body say so
        }
        resolve({ status: res.statusCode!, body });
      };
      res.on('data', (c: Buffer) => parts.push(c));
      res.once('end', finish);
      res.once('close', finish);
    });
  });
}

const point = (ref: string | null, lon: number, lat: number, props: Record<string, unknown> = {}) => ({
  type: 'Feature',
  properties: { ...(ref === null ? {} : { ref }), commodity: 'cocoa', ...props },
  geometry: { type: 'Point', coordinates: [lon, lat] },
});

function book(features: unknown[]): Buffer {
  return Buffer.from(JSON.stringify({ type: 'FeatureCollection', features }));
}

/** Twelve points in Ghana: refs GH-00 … GH-11, the last two with a "%" and a "_" in the ref. */
const TWELVE = Array.from({ length: 12 }, (_, i) =>
  point(i === 10 ? 'GH-10%' : i === 11 ? 'GH_11' : `GH-${String(i).padStart(2, '0')}`, -1.6 + i * 0.001, 6.7, { area_ha: 2 + i }),
);

for (const backend of BACKENDS) {
  describe(`plot register routes (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let otherKey: string;
    let memberKey: string;

    /** A multipart upload through fetch, checked against the OpenAPI document like every call. */
    async function upload(path: string, bytes: Buffer | null, opts: { key?: string; filename?: string; field?: string } = {}): Promise<Reply> {
      const form = new FormData();
      if (bytes !== null) form.append(opts.field ?? 'file', new Blob([new Uint8Array(bytes)]), opts.filename ?? 'plots.geojson');
      const res = await fetch(app.url + path, { method: 'POST', headers: { authorization: `Bearer ${opts.key ?? key}` }, body: form });
      const body = await res.json();
      assertDocumented('POST', path, res.status, body);
      return { status: res.status, body, headers: res.headers };
    }

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Cocoa Co', plan: 'trial', email: 'a@cocoa.test', password: 'cocoa pass' });
      key = created.api_key as string;
      memberKey = (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: created.workspace_id as string, role: 'member' })).api_key as string;
      const other = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Other', plan: 'trial', email: 'b@other.test', password: 'other pass' });
      otherKey = other.api_key as string;
      const imported = await upload('/api/v1/portal/plots/import?country=ghana', book(TWELVE));
      assert.equal(imported.status, 200);
    });
    after(() => app.close());

    test('import answers the report of spec 2.3 and registers the plots, country stored as alpha-2', async () => {
      const r = await upload('/api/v1/portal/plots/import?country=GHA', book([point('NEW-1', -1.5, 6.8), point('NEW-1', -1.5, 6.9), point(null, -1.5, 7)]));
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.imported, {
        created: 2, updated: 0, skipped: 0, duplicate_refs: 1, unreferenced_inserted: 1, registered: 3,
        producers_matched: 0, producers_unmatched: 0, evidence_stale: 0, evidence_in_flight: 0,
      });
      assert.equal(r.body.country, 'GH');
      const detail = await app.call('GET', `/api/v1/portal/plots/${r.body.plots[0].plot_id}`, { key });
      assert.equal(detail.status, 200);
      assert.equal(detail.body.country, 'GH');
      assert.deepEqual(detail.body.geometry, { type: 'Point', coordinates: [-1.5, 6.8] });
      assert.deepEqual(detail.body.validation_report.rejections, []);
      assert.ok(detail.body.validation_report.findings.some((f: { code: string }) => f.code === 'point_area_assumed'));
      assert.equal(detail.body.area_ha, 4);
      assert.deepEqual(detail.body.state.tone, 'record');
      assert.equal(detail.body.state.label, 'Not read yet');
    });

    test('a ref repeated in one file is rejected and stored as rejected, without the ref; a re-upload updates it rather than adding another', async () => {
      const file = book([point('REP-1', -1.55, 6.8), point('REP-1', -1.56, 6.81)]);
      const first = await upload('/api/v1/portal/plots/import?country=GH', file);
      assert.equal(first.status, 200);
      const [kept, repeat] = first.body.plots;
      assert.deepEqual([kept.outcome, repeat.outcome, repeat.validation_state], ['created', 'duplicate_ref', 'rejected']);
      assert.deepEqual(repeat.rejections.map((f: { code: string }) => f.code), ['duplicate_ref']);
      assert.equal(first.body.imported.duplicate_refs, 1);
      const stored = await app.call('GET', `/api/v1/portal/plots/${repeat.plot_id}`, { key });
      assert.equal(stored.status, 200);
      assert.deepEqual([stored.body.external_ref, stored.body.validation_state, stored.body.validation_report.repeat_of], [null, 'rejected', 'REP-1']);
      assert.deepEqual(stored.body.geometry, { type: 'Point', coordinates: [-1.56, 6.81] });
      const before = (await app.call('GET', '/api/v1/portal/plots', { key })).body.total;
      const again = await upload('/api/v1/portal/plots/import?country=GH', book([point('REP-1', -1.55, 6.8), point('REP-1', -1.57, 6.82)]));
      assert.equal(again.body.plots[1].plot_id, repeat.plot_id, 'the stored repeat is matched, not added to');
      assert.equal((await app.call('GET', '/api/v1/portal/plots', { key })).body.total, before);
      assert.deepEqual((await app.call('GET', `/api/v1/portal/plots/${repeat.plot_id}`, { key })).body.geometry, { type: 'Point', coordinates: [-1.57, 6.82] });
    });

    test('validate answers the same per-plot report and stores nothing', async () => {
      const before = (await app.call('GET', '/api/v1/portal/plots', { key })).body.total;
      const r = await upload('/api/v1/portal/plots/validate?country=GH', book([point('V-1', 6.7, -1.6)]), { key: memberKey });
      assert.equal(r.status, 200);
      assert.equal(r.body.imported, undefined);
      assert.equal(r.body.plots[0].validation_state, 'repaired');
      assert.deepEqual(r.body.plots[0].repairs.map((f: { code: string }) => f.code), ['axis_order_swapped']);
      assert.equal((await app.call('GET', '/api/v1/portal/plots', { key })).body.total, before);
    });

    test('a file sent without a country answers a report with no country key, never country: null', async () => {
      for (const path of ['/api/v1/portal/plots/validate', '/api/v1/portal/plots/import']) {
        const r = await upload(path, book([point('NC-1', -1.62, 6.71)]));
        assert.equal(r.status, 200);
        assert.equal('country' in r.body, false, path);
        assert.ok(r.body.notes.some((n: string) => /country/i.test(n)), 'the notes say the axis-order check was skipped');
      }
    });

    test('validates a KML upload through the intake threads, and refuses a truncated one with 422 bad_kml naming the line', async () => {
      const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
<Placemark id="K-1"><name>Plot K-1</name><ExtendedData><Data name="area_ha"><value>1</value></Data></ExtendedData>
<Point><coordinates>-1.600123,6.700456,0</coordinates></Point></Placemark>
</Document></kml>`;
      const r = await upload('/api/v1/portal/plots/validate?country=Viet%20Nam', Buffer.from(kml), { filename: 'plots.kml' });
      assert.equal(r.status, 200);
      assert.equal(r.body.country, 'VN');
      assert.equal(r.body.plots[0].ref, 'K-1');
      assert.deepEqual(r.body.plots[0].findings.map((f: { code: string }) => f.code), ['outside_country']);
      const cut = await upload('/api/v1/portal/plots/validate', Buffer.from(kml.slice(0, kml.indexOf('</Placemark>'))), { filename: 'plots.kml' });
      assert.equal(cut.status, 422);
      assert.equal(cut.body.error.code, 'bad_kml');
      assert.match(cut.body.error.message, /ends at line 4 with <Placemark>/);
    });

    test('refuses an empty file with 422 empty_file, a missing field with file_required, an unknown country listing the forms', async () => {
      const empty = await upload('/api/v1/portal/plots/import', Buffer.alloc(0));
      assert.equal(empty.status, 422);
      assert.equal(empty.body.error.code, 'empty_file');
      const field = await upload('/api/v1/portal/plots/import', book(TWELVE), { field: 'upload' });
      assert.equal(field.status, 422);
      assert.equal(field.body.error.code, 'file_required');
      const json = await app.call('POST', '/api/v1/portal/plots/import', { key, body: { type: 'FeatureCollection', features: [] } });
      assert.equal(json.status, 422);
      assert.equal(json.body.error.code, 'file_required');
      const country = await upload('/api/v1/portal/plots/validate?country=Atlantis', book(TWELVE));
      assert.equal(country.status, 422);
      assert.equal(country.body.error.code, 'unknown_country');
      assert.match(country.body.error.message, /alpha-2 code .*alpha-3 code .*English or French name/);
      const broken = await upload('/api/v1/portal/plots/import', Buffer.from('{"type":'));
      assert.equal(broken.status, 422);
      assert.equal(broken.body.error.code, 'bad_json');
    });

    test('a file of exactly 25 MB is read; one byte more is refused with 413 file_too_large', async () => {
      const exactly = await upload('/api/v1/portal/plots/validate', Buffer.alloc(MAX_FILE_BYTES, 0x20), { filename: 'blank.csv' });
      assert.equal(exactly.body.error.code, 'empty_file', 'read, and found to hold nothing');
      const over = await upload('/api/v1/portal/plots/validate', Buffer.alloc(MAX_FILE_BYTES + 1, 0x20), { filename: 'blank.csv' });
      assert.equal(over.status, 413);
      assert.equal(over.body.error.code, 'file_too_large');
      assert.match(over.body.error.message, /25 MB/);
    });

    test('an upload over 25 MB is refused with 413 while it streams: the answer comes before the client has sent it all', async () => {
      const boundary = 'plots-boundary-0123456789';
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.geojson"\r\n\r\n`);
      const chunk = Buffer.alloc(1 << 20, 0x20);
      const chunks = 200;
      const req = http.request(`${app.url}/api/v1/portal/plots/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
      });
      let sent = 0;
      let sentAtAnswer = -1;
      const answer = answerOf(req, () => {
        sentAtAnswer = sent;
      });
      req.on('error', () => {}); // the server closes the refused connection; writes after that fail
      const closed = new Promise((r) => req.once('close', r));
      req.write(head);
      for (let i = 0; i < chunks && sentAtAnswer < 0 && !req.destroyed; i++) {
        const more = req.write(chunk);
        sent += chunk.length;
        if (!more) await Promise.race([new Promise((r) => req.once('drain', r)), closed, answer]);
      }
      const { status, body } = await answer;
      req.destroy();
      assert.equal(status, 413);
      assert.equal(body.error.code, 'file_too_large');
      assertDocumented('POST', '/api/v1/portal/plots/import', status, body);
      assert.ok(sentAtAnswer >= 0 && sentAtAnswer < chunks * chunk.length, `answered after ${sentAtAnswer} bytes of ${chunks * chunk.length}`);
    });

    test('a declared Content-Length over the limit is refused before the body is read', async () => {
      const req = http.request(`${app.url}/api/v1/portal/plots/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(30 * 1024 * 1024) },
      });
      req.on('error', () => {});
      const answer = answerOf(req);
      req.write('--b\r\n'); // a few bytes of the promised 30 MB, then nothing
      const { status, body } = await answer;
      req.destroy();
      assert.equal(status, 413);
      assert.equal(body.error.code, 'file_too_large');
    });

    test('the countries list names every recognised country with its forms', async () => {
      const r = await app.call('GET', '/api/v1/portal/plots/countries', { key });
      assert.equal(r.status, 200);
      const ci = r.body.countries.find((c: { code: string }) => c.code === 'CI');
      assert.deepEqual(ci, { code: 'CI', alpha3: 'CIV', name_en: ci.name_en, name_fr: ci.name_fr });
      assert.ok(r.body.countries.length > 190);
      assert.match(r.body.accepted_forms, /alpha-3/);
    });

    test('the list pages in a stable upload order with the total, default 50 and at most 500', async () => {
      const all = await app.call('GET', '/api/v1/portal/plots?q=GH', { key });
      assert.equal(all.status, 200);
      assert.equal(all.body.limit, 50);
      assert.equal(all.body.offset, 0);
      assert.equal(all.body.total, 12);
      assert.deepEqual(all.body.plots.map((p: { external_ref: string }) => p.external_ref), TWELVE.map((f) => f.properties.ref));
      const pages = [];
      for (let offset = 0; offset < 12; offset += 5) {
        const page = await app.call('GET', `/api/v1/portal/plots?q=GH&limit=5&offset=${offset}`, { key });
        assert.equal(page.body.total, 12);
        pages.push(...page.body.plots.map((p: { id: string }) => p.id));
      }
      assert.deepEqual(pages, all.body.plots.map((p: { id: string }) => p.id));
      assert.equal((await app.call('GET', '/api/v1/portal/plots?limit=500', { key })).status, 200);
      for (const query of ['limit=501', 'limit=0', 'offset=-1', 'limit=ten', 'state=glowing']) {
        const r = await app.call('GET', `/api/v1/portal/plots?${query}`, { key });
        assert.equal(r.status, 422, query);
        assert.match(r.body.error.code, /^bad_(limit|offset|state)$/);
      }
    });

    test(`the whole register's total is exact; a filter counts up to ${COUNT_WINDOW} past the offset, then says total_exact false`, async () => {
      const big = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Big Book', plan: 'trial', email: 'c@big.test', password: 'big book pass' });
      const bigKey = big.api_key as string;
      const size = COUNT_WINDOW + 120;
      await app.services.store.em().execute(
        `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha, validation_state, validation_report, evidence_state, created_at, updated_at)
         select gen_random_uuid(), ?, 'B-' || lpad(i::text, 6, '0'), 'cocoa', 'GH', 5, 'valid', '{}'::jsonb, 'none', now(), now() from generate_series(1, ?) as i`,
        [big.workspace_id, size],
      );
      const list = async (query: string) => (await app.call('GET', `/api/v1/portal/plots?${query}`, { key: bigKey })).body;
      assert.deepEqual([(await list('limit=1')).total, (await list('limit=1')).total_exact], [size, true]);
      assert.deepEqual([(await list('offset=10100&limit=500')).total, (await list('offset=10100')).total_exact], [size, true]);
      // Every plot matches "B-": counted to the window past the offset, then a lower bound.
      const broad = await list('q=B-&limit=2');
      assert.deepEqual([broad.total, broad.total_exact, broad.plots.length], [COUNT_WINDOW, false, 2]);
      const further = await list('q=B-&limit=2&offset=100');
      assert.deepEqual([further.total, further.total_exact], [COUNT_WINDOW + 100, false]);
      assert.equal(further.plots[0].external_ref, 'B-000101');
      // Past the last window the count is exact again, as is a filter matching fewer.
      assert.deepEqual([(await list('q=B-&offset=200')).total, (await list('q=B-&offset=200')).total_exact], [size, true]);
      assert.deepEqual([(await list('q=B-0001&state=none')).total, (await list('q=B-0001&state=none')).total_exact], [100, true]);
      // Plots the register gains later are in the kept total at once.
      const added = await upload('/api/v1/portal/plots/import?country=GH', book([point('B-NEW', -1.5, 6.8)]), { key: bigKey });
      assert.equal(added.status, 200);
      assert.equal((await list('limit=1')).total, size + 1);
      assert.equal((await app.call('GET', '/api/v1/portal/plots?limit=1', { key })).body.total_exact, true);
    });

    test('q matches a fragment of the reference ignoring case, "%" and "_" literally', async () => {
      const refs = async (q: string) =>
        (await app.call('GET', `/api/v1/portal/plots?q=${encodeURIComponent(q)}`, { key })).body.plots.map((p: { external_ref: string }) => p.external_ref);
      assert.deepEqual(await refs('gh-0'), ['GH-00', 'GH-01', 'GH-02', 'GH-03', 'GH-04', 'GH-05', 'GH-06', 'GH-07', 'GH-08', 'GH-09']);
      assert.deepEqual(await refs('%'), ['GH-10%']);
      assert.deepEqual(await refs('_'), ['GH_11']);
    });

    test('state filters by evidence state or by tone', async () => {
      const plotsOf = async (state: string) => (await app.call('GET', `/api/v1/portal/plots?q=GH&state=${state}`, { key })).body;
      assert.equal((await plotsOf('none')).total, 12);
      assert.equal((await plotsOf('done')).total, 0);
      const store = app.services.store;
      await store.em().execute(`update plots set evidence_state = 'done', verdict = 'prior_management_evidenced' where external_ref in ('GH-05', 'GH-07')`);
      await store.em().execute(`update plots set evidence_state = 'done', evidence_facts = '{"eu_maps_forest_share": 0.9}' where external_ref = 'GH-06'`);
      const findings = await plotsOf('finding');
      assert.deepEqual(findings.plots.map((p: { external_ref: string }) => p.external_ref), ['GH-05', 'GH-07']);
      assert.equal(findings.plots[0].state.label, 'Established before the cutoff');
      assert.deepEqual((await plotsOf('forest_mapped')).plots.map((p: { external_ref: string }) => p.external_ref), ['GH-06']);
      const records = await plotsOf('record');
      assert.equal(records.total, 9);
      // GH-00 and GH-01 declare 2 and 3 ha, under the floor, but are not read yet: the floor is said once they are.
      assert.equal(records.plots[0].state.label, 'Not read yet');
      assert.equal((await plotsOf('done')).total, 3);
      const paged = await app.call('GET', '/api/v1/portal/plots?q=GH&state=record&limit=2&offset=8', { key });
      assert.deepEqual(paged.body.plots.map((p: { external_ref: string }) => p.external_ref), ['GH_11']);
    });

    test('rows carry every field of spec 2.1 and the list carries the archive review price, unpriced until set', async () => {
      const r = await app.call('GET', '/api/v1/portal/plots?q=GH-03', { key });
      const row = r.body.plots[0];
      for (const field of ['id', 'external_ref', 'commodity', 'country', 'area_ha', 'geometry_source', 'validation_state', 'planted_year', 'producer_name', 'evidence_state', 'verdict', 'reason', 'evidence_at', 'state', 'post_cutoff_loss_share']) {
        assert.ok(field in row, field);
      }
      assert.equal(row.geometry_source, 'upload');
      assert.equal(row.area_ha, 5);
      assert.equal(row.geometry, undefined, 'the list form carries no geometry');
      assert.equal(r.body.archive_review_price.priced, false);
      assert.match(r.body.archive_review_price.line, /quoted on request/);
    });

    test('shipment_id answers 404 not_found for a shipment not in the workspace', async () => {
      const r = await app.call('GET', `/api/v1/portal/plots?shipment_id=${crypto.randomUUID()}`, { key });
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'not_found');
    });

    test('a plot outside the workspace answers 404 not_found', async () => {
      const id = (await app.call('GET', '/api/v1/portal/plots?limit=1', { key })).body.plots[0].id;
      for (const [path, k] of [[`/api/v1/portal/plots/${id}`, otherKey], [`/api/v1/portal/plots/${crypto.randomUUID()}`, key], ['/api/v1/portal/plots/not-an-id', key]]) {
        const r = await app.call('GET', path, { key: k });
        assert.equal(r.status, 404, path);
        assert.equal(r.body.error.code, 'not_found');
      }
      assert.equal((await app.call('GET', '/api/v1/portal/plots?q=GH', { key: otherKey })).body.total, 0);
    });

    test('producers: name required, reference unique, country stored as alpha-2, listed with their plots', async () => {
      const made = await app.call('POST', '/api/v1/portal/plots/producers', { key, body: { name: 'Coop Ivoire', reference: 'CI-1', country: 'cote d’ivoire' } });
      assert.equal(made.status, 201);
      assert.equal(made.body.country, 'CI');
      assert.equal(made.body.reference, 'CI-1');
      const again = await app.call('POST', '/api/v1/portal/plots/producers', { key, body: { name: 'Another', reference: 'CI-1' } });
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, 'duplicate_ref');
      const elsewhere = await app.call('POST', '/api/v1/portal/plots/producers', { key: otherKey, body: { name: 'Another', reference: 'CI-1' } });
      assert.equal(elsewhere.status, 201, 'a reference is unique in its own workspace only');
      for (const body of [{}, { name: '  ' }, { reference: 'X' }]) {
        const r = await app.call('POST', '/api/v1/portal/plots/producers', { key, body });
        assert.equal(r.status, 422);
        assert.equal(r.body.error.code, 'name_required');
      }
      const country = await app.call('POST', '/api/v1/portal/plots/producers', { key, body: { name: 'Somewhere', country: 'Narnia' } });
      assert.equal(country.status, 422);
      assert.equal(country.body.error.code, 'unknown_country');
      const listed = await app.call('GET', '/api/v1/portal/plots/producers', { key });
      assert.deepEqual(listed.body.producers.map((p: { name: string }) => p.name), ['Coop Ivoire']);
    });

    test('an import matches producers by name; attaching one to a plot shows its name on the row', async () => {
      const coop = await app.call('POST', '/api/v1/portal/plots/producers', { key, body: { name: 'Kumasi Growers' } });
      const r = await upload('/api/v1/portal/plots/import?country=GH', book([point('KG-1', -1.62, 6.71, { producer: 'KUMASI   growers' })]));
      assert.equal(r.body.imported.producers_matched, 1);
      assert.equal(r.body.plots[0].producer_id, coop.body.id);
      const plotId = r.body.plots[0].plot_id;
      assert.equal((await app.call('GET', `/api/v1/portal/plots/${plotId}`, { key })).body.producer_name, 'Kumasi Growers');
      const other = await app.call('POST', '/api/v1/portal/plots/producers', { key, body: { name: 'Second Coop' } });
      const attached = await app.call('POST', `/api/v1/portal/plots/${plotId}/producer`, { key, body: { producer_id: other.body.id } });
      assert.equal(attached.status, 200);
      assert.equal(attached.body.producer_name, 'Second Coop');
      assert.equal(attached.body.producer_id, other.body.id);
      const listed = await app.call('GET', '/api/v1/portal/plots/producers', { key });
      assert.equal(listed.body.producers.find((p: { id: string }) => p.id === other.body.id).plots, 1);
      const detached = await app.call('POST', `/api/v1/portal/plots/${plotId}/producer`, { key, body: { producer_id: null } });
      assert.equal(detached.body.producer_name, null);
    });

    test('attaching refuses unknown plots and producers, and producers of another workspace, with 404', async () => {
      const plotId = (await app.call('GET', '/api/v1/portal/plots?limit=1', { key })).body.plots[0].id;
      const foreign = await app.call('POST', '/api/v1/portal/plots/producers', { key: otherKey, body: { name: 'Foreign' } });
      const cases: [string, unknown, string][] = [
        [plotId, foreign.body.id, 'producer'],
        [plotId, crypto.randomUUID(), 'producer'],
        [plotId, 'nope', 'producer'],
        [crypto.randomUUID(), foreign.body.id, 'plot'],
      ];
      for (const [id, producerId, what] of cases) {
        const r = await app.call('POST', `/api/v1/portal/plots/${id}/producer`, { key, body: { producer_id: producerId } });
        assert.equal(r.status, 404);
        assert.equal(r.body.error.code, 'not_found');
        assert.match(r.body.error.message, new RegExp(what));
      }
      const plotElsewhere = await app.call('POST', `/api/v1/portal/plots/${plotId}/producer`, { key: otherKey, body: { producer_id: foreign.body.id } });
      assert.equal(plotElsewhere.status, 404);
      const missing = await app.call('POST', `/api/v1/portal/plots/${plotId}/producer`, { key, body: {} });
      assert.equal(missing.status, 422);
      assert.equal(missing.body.error.code, 'producer_id_required');
    });
  });
}

describe('archive review price on the register list when configured', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp('pglite', { ARCHIVE_REVIEW_PRICE_USD: '45', ARCHIVE_REVIEW_DELIVERY_DAYS: '5' });
  });
  after(() => app.close());

  test('the list carries the priced review', async () => {
    const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Priced', plan: 'trial', email: 'p@priced.test', password: 'priced pass' });
    const r = await app.call('GET', '/api/v1/portal/plots', { key: created.api_key as string });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.archive_review_price, {
      priced: true,
      price_usd: 45,
      volume_price_usd: null,
      volume_from_plots: null,
      delivery_days: 5,
      line: 'Archive imagery review: USD 45.00 a plot. Delivered within 5 days.',
    });
    assert.deepEqual(r.body.plots, []);
    assert.equal(r.body.total, 0);
  });
});
