/**
 * Archive review readings (spec 2.7 `archive_review`, 2.14, 6.2) on both backends: filing one on a
 * withheld plot, what it does to the plot's state, its event, its own signature beside the
 * evidence's untouched one, who may file and withdraw, and the record a withdrawal leaves.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { runAdminCommand } from '../../src/admin/commands.ts';
import type { EvidenceObject } from '../../src/engine/evidence-object.ts';
import { canonicalJson } from '../../src/engine/integrity.ts';
import { nextStep } from '../../src/engine/next-step.ts';
import type { EvidenceFacts } from '../../src/engine/plot-state.ts';
import { verifyDigest } from '../../src/engine/signing.ts';
import { pdfText } from '../documents/pdf-text.ts';
import { insertSitePlot, plotRow, seedWorkspace } from '../engine/evidence-helpers.ts';
import { fixtureEvidence, storeFixtureRead } from '../fixtures/evidence-wrapper.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { BACKENDS } from '../support/db.ts';
import { assertEventDocumented } from '../support/openapi.ts';

const SITE = 'th-surat-thani-rubber';
const plotPath = (id: string) => `/api/v1/portal/plots/${id}`;
const readingsPath = (id: string) => `${plotPath(id)}/archive-readings`;

/** A reading a reviewer files: a whole-plot scene of 2019 showing the plot cultivated, unless edited. */
const reading = (edit: Record<string, unknown> = {}) => ({
  scene_id: '104001004F2B9E00',
  provider: 'Maxar archive',
  acquired_on: '2019-02-14',
  observed: 'cultivated',
  plot_share: 1,
  reviewer: 'N. Sukhum, imagery analyst',
  statement: 'Regular rows of tapped rubber trees cover the plot; the canopy is thinned for wintering.',
  ...edit,
});

/** Withheld by a structural reading; the maps and the record read no forest. */
const withheld = (seed?: number): EvidenceObject =>
  fixtureEvidence({
    seed,
    edit: (e) => {
      e.verdict = 'prior_management_weak';
      e.reason = 'structural_reading_says_forest';
      e.reasons = ['structural_reading_says_forest'];
      e.next_step = nextStep({ evidence_state: 'done', verdict: e.verdict, reasons: e.reasons, area_ha: e.plot_area_km2 * 100 });
    },
  });
const FACTS: EvidenceFacts = { eu_maps_forest_share: 0.02, landsat_2020: 'cleared_before_2021', seasons_measured: 4 };

for (const backend of BACKENDS) {
  describe(`archive review readings (${backend})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(backend);
    });
    after(() => app.close());

    /** Stores a finished read of the plot through the register's transitions, as a job leaves it. */
    async function finishRead(workspaceId: string, plotId: string, evidence: EvidenceObject): Promise<void> {
      await storeFixtureRead(app.services.store.em(), app.services.signingKey, { workspaceId, plotId, evidence, facts: FACTS });
    }

    /** A workspace with a portal key, a reviewer key and a workspace-member key, and one read, withheld plot. */
    async function withheldPlot(evidence = withheld()) {
      const { workspaceId, key: portal } = await seedWorkspace(app.services.store);
      const mint = async (role: string) => (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role })).api_key as string;
      const plotId = await insertSitePlot(app.services.store.em(), workspaceId, SITE, { ref: `P-${randomUUID().slice(0, 8)}` });
      await finishRead(workspaceId, plotId, evidence);
      return { workspaceId, plotId, portal, reviewer: await mint('reviewer'), member: await mint('member') };
    }

    async function filedEvents(workspaceId: string) {
      const rows = await app.services.store.em().execute<{ data: Record<string, any> }[]>(
        `select data from outbox where workspace_id = ? and type = 'archive.reading.filed' order by created_at`, [workspaceId]);
      for (const r of rows) assertEventDocumented('archive.reading.filed', r.data);
      return rows;
    }

    test('filing a reading on a withheld plot turns its state to "Cultivated on the archive scene date" (finding) and emits the event once', async () => {
      const { workspaceId, plotId, reviewer, portal } = await withheldPlot();
      const before_ = (await app.call('GET', plotPath(plotId), { key: portal })).body;
      assert.deepEqual([before_.state.tone, before_.state.label, before_.archive_review], ['record', 'Record only', null]);
      assert.equal((await app.call('GET', `${plotPath(plotId)}/evidence`, { key: portal })).body.evidence.next_step.code, 'archive_imagery_review');

      const filed = await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading() });
      assert.equal(filed.status, 201);
      assert.equal(filed.body.reading.supports_pre_cutoff_cultivation, true);
      assert.equal(filed.body.reading.plot_id, plotId);

      const detail = (await app.call('GET', plotPath(plotId), { key: portal })).body;
      assert.deepEqual([detail.state.tone, detail.state.label, detail.verdict], ['finding', 'Cultivated on the archive scene date', 'prior_management_weak']);
      assert.deepEqual(detail.archive_review, filed.body);
      const listed = (await app.call('GET', '/api/v1/portal/plots?state=finding', { key: portal })).body;
      assert.deepEqual(listed.plots.map((p: { id: string }) => p.id), [plotId]);
      const wrapper = (await app.call('GET', `${plotPath(plotId)}/evidence`, { key: portal })).body;
      assert.deepEqual(wrapper.archive_review, filed.body);
      // Beside the signed object, not in it: the evidence and its signature are those issued.
      assert.equal('archive_review' in wrapper.evidence, false);
      assert.equal(filed.body.reading.evidence_digest, wrapper.integrity.digest);

      const events = await filedEvents(workspaceId);
      assert.equal(events.length, 1);
      assert.deepEqual(events[0].data.reading, filed.body);
      assert.equal(events[0].data.plot_id, plotId);
      assert.equal(events[0].data.ref, detail.external_ref);
      assert.equal(events[0].data.evidence_url, `${app.services.config.baseUrl}/portal/plots/${plotId}/evidence`);
      assert.equal(events[0].data.document_url, `${app.services.config.baseUrl}/portal/plots/${plotId}/evidence.pdf`);

      // One reading is served at a time: a second is refused, and emits nothing.
      const second = await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading({ scene_id: 'another' }) });
      assert.deepEqual([second.status, second.body.error.code], [409, 'reading_on_record']);
      assert.ok(second.body.error.message.includes(filed.body.reading.id));
      assert.equal((await filedEvents(workspaceId)).length, 1);
    });

    test('a reading dated after the cutoff, covering part of the plot, or not seen cultivated does not support pre-cutoff cultivation', async () => {
      for (const edit of [{ acquired_on: '2021-01-01' }, { plot_share: 0.8 }, { observed: 'unclear' }, { observed: 'forest' }]) {
        const { plotId, reviewer, portal } = await withheldPlot();
        const filed = await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading(edit) });
        assert.equal(filed.status, 201, JSON.stringify(filed.body));
        assert.equal(filed.body.reading.supports_pre_cutoff_cultivation, false, JSON.stringify(edit));
        const detail = (await app.call('GET', plotPath(plotId), { key: portal })).body;
        assert.deepEqual([detail.state.tone, detail.state.label], ['record', 'Record only'], JSON.stringify(edit));
        assert.deepEqual(detail.archive_review, filed.body, 'served all the same');
      }
    });

    test('the evidence and its signature are unchanged by a reading, and the reading\'s own signature verifies under the same key', async () => {
      const { plotId, reviewer, portal } = await withheldPlot();
      const before_ = (await app.call('GET', `${plotPath(plotId)}/evidence`, { key: portal })).body;
      const filed = (await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading() })).body;
      const after_ = (await app.call('GET', `${plotPath(plotId)}/evidence`, { key: portal })).body;
      assert.deepEqual(after_.evidence, before_.evidence);
      assert.deepEqual(after_.integrity, before_.integrity);

      const { public_key_pem: pem, key_id: keyId } = (await app.call('GET', '/api/v1/evidence/public-key')).body;
      const sha = (value: unknown) => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
      assert.equal(sha(after_.evidence), after_.integrity.digest);
      assert.ok(verifyDigest(pem, after_.integrity.digest, after_.integrity.signature), 'the evidence signature verifies');
      const review = after_.archive_review;
      assert.deepEqual(review, filed);
      assert.equal(sha(review.reading), review.integrity.digest);
      assert.equal(review.integrity.key_id, keyId);
      assert.ok(verifyDigest(pem, review.integrity.digest, review.integrity.signature), 'the reading signature verifies');
      assert.equal(review.reading.evidence_digest, after_.integrity.digest, 'the reading names the evidence it was filed with');
      assert.ok(!verifyDigest(pem, sha({ ...review.reading, plot_share: 0.5 }), review.integrity.signature));
    });

    test('a portal key, and a workspace member without the reviewer role, cannot file a reading; nothing is written', async () => {
      const { workspaceId, plotId, portal, member } = await withheldPlot();
      for (const key of [portal, member]) {
        const r = await app.call('POST', readingsPath(plotId), { key, body: reading() });
        assert.deepEqual([r.status, r.body.error.code], [403, 'forbidden']);
        assert.match(r.body.error.message, /reviewer seat/);
      }
      assert.deepEqual((await app.call('GET', readingsPath(plotId), { key: portal })).body, { readings: [] });
      assert.equal((await filedEvents(workspaceId)).length, 0);
      assert.equal((await app.call('GET', plotPath(plotId), { key: portal })).body.state.tone, 'record');
    });

    test('a reviewer seat signed in mints a reviewer key from the studio route, and that key files', async () => {
      const email = `${randomUUID()}@review.test`;
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Reviewers', plan: 'trial', email, password: 'correct horse', role: 'reviewer' });
      const workspaceId = created.workspace_id as string;
      const plotId = await insertSitePlot(app.services.store.em(), workspaceId, SITE);
      await finishRead(workspaceId, plotId, withheld());
      const signIn = await fetch(`${app.url}/api/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse' }) });
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
      const minted = await app.call('POST', '/api/v1/api-keys', { cookie, workspace: workspaceId, headers: { origin: new URL(app.url).origin } });
      assert.deepEqual([minted.status, minted.body.role], [201, 'reviewer']);
      const filed = await app.call('POST', readingsPath(plotId), { key: minted.body.key, body: reading() });
      assert.equal(filed.status, 201);
    });

    test('a reading is withdrawn only by whoever filed it; the record stays and the plot no longer shows what it supported', async () => {
      const { workspaceId, plotId, reviewer, portal } = await withheldPlot();
      const other = (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'reviewer' })).api_key as string;
      const filed = (await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading() })).body;
      const withdraw = `${readingsPath(plotId)}/${filed.reading.id}/withdraw`;

      const refused = await app.call('POST', withdraw, { key: other, body: { reason: 'not mine' } });
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'forbidden']);
      assert.equal((await app.call('POST', withdraw, { key: portal })).status, 403);

      const done = await app.call('POST', withdraw, { key: reviewer, body: { reason: 'The scene was of the neighbouring plot.' } });
      assert.equal(done.status, 200);
      assert.deepEqual([done.body.served, done.body.withdrawn.reason, done.body.reading], [false, 'The scene was of the neighbouring plot.', filed.reading]);
      assert.deepEqual([(await app.call('POST', withdraw, { key: reviewer })).body.error.code], ['already_withdrawn']);

      const detail = (await app.call('GET', plotPath(plotId), { key: portal })).body;
      assert.deepEqual([detail.state.tone, detail.state.label, detail.archive_review], ['record', 'Record only', null]);
      assert.equal((await app.call('GET', `${plotPath(plotId)}/evidence`, { key: portal })).body.archive_review, null);
      assert.equal((await plotRow(app.services.store.em(), plotId)).evidence_facts !== null, true);

      // Another may now be filed; the record keeps both, newest first, with their signatures.
      const again = (await app.call('POST', readingsPath(plotId), { key: other, body: reading({ scene_id: 'S2', acquired_on: '2020-11-30' }) })).body;
      const record = (await app.call('GET', readingsPath(plotId), { key: portal })).body.readings;
      assert.deepEqual(record.map((r: { reading: { id: string }; served: boolean }) => [r.reading.id, r.served]), [[again.reading.id, true], [filed.reading.id, false]]);
      assert.deepEqual(record[1].integrity, filed.integrity);
      assert.equal(record[1].withdrawn.by, record[1].filed_by);
      assert.equal((await filedEvents(workspaceId)).length, 2);
    });

    test('a plot read again is served without the reading filed with its earlier evidence, which stays on the record', async () => {
      const { workspaceId, plotId, reviewer, portal } = await withheldPlot();
      const filed = (await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading() })).body;
      await finishRead(workspaceId, plotId, withheld(8));
      const detail = (await app.call('GET', plotPath(plotId), { key: portal })).body;
      assert.deepEqual([detail.state.tone, detail.archive_review], ['record', null]);
      assert.equal((await app.call('GET', `${plotPath(plotId)}/evidence`, { key: portal })).body.archive_review, null);
      const [record] = (await app.call('GET', readingsPath(plotId), { key: portal })).body.readings;
      assert.deepEqual([record.reading.id, record.served, record.withdrawn], [filed.reading.id, false, null]);
      const again = await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading() });
      assert.equal(again.status, 201, 'filed against the new evidence');
      assert.notEqual(again.body.reading.evidence_digest, filed.reading.evidence_digest);
    });

    test('refusals: no evidence yet, a positive finding, a plot outside the workspace, a malformed or future reading', async () => {
      const { workspaceId, plotId, reviewer } = await withheldPlot();
      const unread = await insertSitePlot(app.services.store.em(), workspaceId, SITE, { ref: 'UNREAD' });
      const r = await app.call('POST', readingsPath(unread), { key: reviewer, body: reading() });
      assert.deepEqual([r.status, r.body.error.code], [409, 'no_evidence']);
      assert.match(r.body.error.message, /evidence state is none/);

      const positive = await withheldPlot(fixtureEvidence());
      const p = await app.call('POST', readingsPath(positive.plotId), { key: positive.reviewer, body: reading() });
      assert.deepEqual([p.status, p.body.error.code], [409, 'finding_issued']);

      const elsewhere = await app.call('POST', readingsPath(positive.plotId), { key: reviewer, body: reading() });
      assert.deepEqual([elsewhere.status, elsewhere.body.error.code], [404, 'not_found']);

      const cases: Array<[Record<string, unknown>, string]> = [
        [{ scene_id: '' }, 'bad_scene_id'],
        [{ provider: undefined }, 'bad_provider'],
        [{ acquired_on: '14/02/2019' }, 'bad_acquired_on'],
        [{ acquired_on: '2999-01-01' }, 'bad_acquired_on'],
        [{ observed: 'palm' }, 'bad_observed'],
        [{ plot_share: 0 }, 'bad_plot_share'],
        [{ plot_share: 1.2 }, 'bad_plot_share'],
        [{ reviewer: ' ' }, 'bad_reviewer'],
        [{ statement: 'x'.repeat(2001) }, 'bad_statement'],
      ];
      for (const [edit, code] of cases) {
        const bad = await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading(edit) });
        assert.deepEqual([bad.status, bad.body.error.code], [422, code], JSON.stringify(edit));
      }
      assert.equal((await filedEvents(workspaceId)).length, 0);
    });

    test('the operator files and withdraws a reading with the admin command', async () => {
      const { workspaceId, plotId, portal } = await withheldPlot();
      const signing = { key: app.services.signingKey, links: { baseUrl: app.services.config.baseUrl } };
      const flags = { workspace: workspaceId, plot: plotId, ...reading(), plot_share: '1' } as Record<string, string>;
      const filed = await runAdminCommand(app.services.store, ['reading', 'file'], flags, signing);
      assert.equal((await app.call('GET', plotPath(plotId), { key: portal })).body.state.label, 'Cultivated on the archive scene date');
      await assert.rejects(runAdminCommand(app.services.store, ['reading', 'file'], { ...flags, plot_share: 'all' }, signing), { code: 'bad_plot_share' });
      const id = (filed.reading as { id: string }).id;
      const withdrawn = await runAdminCommand(app.services.store, ['reading', 'withdraw'], { workspace: workspaceId, plot: plotId, reading: id, reason: 'filed by mistake' });
      assert.deepEqual(withdrawn.withdrawn, { at: (withdrawn.withdrawn as { at: string }).at, by: 'operator', reason: 'filed by mistake' });
      const listed = await runAdminCommand(app.services.store, ['reading', 'list'], { workspace: workspaceId, plot: plotId });
      assert.equal((listed.readings as unknown[]).length, 1);
    });

    test('the evidence document carries the reading on a page of its own, with its digest and signature', async () => {
      const { plotId, reviewer, portal } = await withheldPlot();
      const pdfOf = async () => {
        const res = await fetch(`${app.url}${plotPath(plotId)}/evidence.pdf`, { headers: { authorization: `Bearer ${portal}` } });
        assert.equal(res.status, 200);
        return pdfText(Buffer.from(await res.arrayBuffer()));
      };
      const without = await pdfOf();
      assert.ok(!without.text.includes('Archive review'));
      const filed = (await app.call('POST', readingsPath(plotId), { key: reviewer, body: reading() })).body;
      const withReading = await pdfOf();
      assert.equal(withReading.pages.length, without.pages.length + 1);
      const page = withReading.pages.at(-1)!.replace(/\s+/g, ' ');
      assert.ok(page.includes('Archive review: a dated reading of a sub-metre scene'));
      for (const said of [filed.reading.scene_id, 'Maxar archive', '2019-02-14', 'N. Sukhum, imagery analyst', filed.integrity.digest, 'The reading supports cultivation before the cutoff']) {
        assert.ok(page.includes(said), `the page names ${said}`);
      }
      assert.ok(!withReading.pages.slice(0, -1).some((p) => p.includes('Archive review:')), 'on its own page');
    });
  });
}
