/**
 * The evidence routes (spec 4.2, 4.3, 7.3) on both backends: what the run call queues and refuses,
 * nothing half-written when the queue cannot take a job, failed reads and reruns against the
 * allowance, reading evidence, and the summary resolving plots a dead job left in flight.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { INTERRUPTED } from '../../src/reading-service/evidence-runs.ts';
import { type EvidenceWorker, startEvidenceWorker } from '../../src/reading-service/job-runner.ts';
import { openArchive } from '../../src/engine/archive.ts';
import { DEMO_GFW_API_KEY } from '../../src/demo/api-transport.ts';
import { palsarTile1 } from '../../src/engine/sources/products/palsar/codes.ts';
import { type ArchiveServer, serveDemoArchive } from '../support/archive-server.ts';
import { QUEUES } from '../../src/store/queue.ts';
import { BACKENDS } from '../support/db.ts';
import { assertEventDocumented } from '../support/openapi.ts';
import { startTestApp, whileQueueRefuses, type TestApp } from '../support/app.ts';
import { demoWorld } from '../support/demo-world.ts';
import { insertSitePlot, plotRow, seedWorkspace, site, waitUntilRead } from '../engine/evidence-helpers.ts';
import { buildSiteModel } from '../../src/demo/site-model.ts';
import { DEMO_SEED } from '../../src/demo/world.ts';
import { pdfText } from '../documents/pdf-text.ts';
import type { EvidenceObject } from '../../src/engine/evidence-object.ts';
import type { EvidenceFacts } from '../../src/engine/plot-state.ts';
import { queue } from '../../src/store/register/transitions.ts';
import { fixtureEvidence, storeFixtureRead } from '../fixtures/evidence-wrapper.ts';

const RUN = '/api/v1/portal/plots/evidence';
const A = 'id-kalbar-rubber';
const B = 'th-surat-thani-rubber';

async function units(app: TestApp, workspaceId: string): Promise<number> {
  const [{ n }] = await app.services.store.em().execute<{ n: string }[]>('select count(*) as n from evidence_units where workspace_id = ?', [workspaceId]);
  return Number(n);
}

async function events(app: TestApp, workspaceId: string, type: string) {
  const rows = await app.services.store.em().execute<{ data: Record<string, unknown> }[]>('select data from outbox where workspace_id = ? and type = ? order by created_at', [workspaceId, type]);
  for (const r of rows) assertEventDocumented(type, r.data);
  return rows;
}

for (const backend of BACKENDS) {
  describe(`evidence routes (${backend})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(backend, { POOL_SIZE: '2' });
    });
    after(() => app.close());

    test('a run naming no plots is refused with no_plots; a plot outside the workspace with not_found', async () => {
      const { key } = await seedWorkspace(app.services.store);
      for (const body of [{}, { all: false }, { plot_ids: [] }]) {
        const r = await app.call('POST', RUN, { key, body });
        assert.equal(r.status, 422);
        assert.equal(r.body.error.code, 'no_plots');
      }
      const other = await seedWorkspace(app.services.store);
      const theirs = await insertSitePlot(app.services.store.em(), other.workspaceId, A);
      for (const id of [theirs, 'not-a-plot-id']) {
        const r = await app.call('POST', RUN, { key, body: { plot_ids: [id] } });
        assert.equal(r.status, 404);
        assert.equal(r.body.error.code, 'not_found');
      }
      assert.equal((await app.call('POST', RUN, { key, body: { plot_ids: [theirs], rerun: 'yes' } })).body.error.code, 'bad_rerun');
    });

    test('the Standard plan is refused with plan_tier_required; a trial at its cap with evidence_cap stating used and remaining', async () => {
      const standard = await seedWorkspace(app.services.store, 'standard');
      const r = await app.call('POST', RUN, { key: standard.key, body: { all: true } });
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'plan_tier_required');
      assert.match(r.body.error.message, /Professional/);

      const trial = await seedWorkspace(app.services.store, 'trial');
      const em = app.services.store.em();
      await insertSitePlot(em, trial.workspaceId, A);
      for (let i = 0; i < 200; i++) {
        await em.execute('insert into evidence_units (id, workspace_id, plot_id, read_id, used_at) values (?, ?, ?, ?, now())', [randomUUID(), trial.workspaceId, randomUUID(), randomUUID()]);
      }
      const capped = await app.call('POST', RUN, { key: trial.key, body: { all: true } });
      assert.equal(capped.status, 403);
      assert.equal(capped.body.error.code, 'evidence_cap');
      assert.match(capped.body.error.message, /200 used .* 0 remaining/);
      assert.equal((await plotRow(em, (await em.execute<{ id: string }[]>('select id from plots where workspace_id = ?', [trial.workspaceId]))[0].id)).evidence_state, 'none');
    });

    test('nothing to read answers job_id null, queued 0 and a note', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      await insertSitePlot(app.services.store.em(), workspaceId, A, { validation: 'rejected' });
      const r = await app.call('POST', RUN, { key, body: { all: true } });
      assert.equal(r.status, 200);
      assert.deepEqual([r.body.job_id, r.body.queued, r.body.cap, r.body.used_after], [null, 0, 200, 0]);
      assert.match(r.body.note, /nothing was queued/);
    });

    test('a queue that cannot take the job answers 503 queue_unavailable and leaves nothing written', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const id = await insertSitePlot(em, workspaceId, A);
      const boss = app.services.queue!.boss;
      const before_ = (await boss.findJobs(QUEUES.evidence.name)).length;
      // The queue fails at the very send, after the plots were marked queued in the transaction.
      const r = await whileQueueRefuses(app, () => app.call('POST', RUN, { key, body: { plot_ids: [id] } }));
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, 'queue_unavailable');
      const row = await plotRow(em, id);
      assert.equal(row.evidence_state, 'none');
      assert.equal((await boss.findJobs(QUEUES.evidence.name)).length, before_);
      const queue = app.services.queue;
      app.services.queue = null;
      try {
        const r = await app.call('POST', RUN, { key, body: { all: true } });
        assert.equal(r.status, 503);
        assert.equal(r.body.error.code, 'queue_unavailable');
      } finally {
        app.services.queue = queue;
      }
      assert.equal((await plotRow(em, id)).evidence_state, 'none');
    });

    test('evidence not yet read answers 409 no_evidence naming the state; another workspace\'s plot 404', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const id = await insertSitePlot(app.services.store.em(), workspaceId, A);
      let r = await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key });
      assert.equal(r.status, 409);
      assert.equal(r.body.error.code, 'no_evidence');
      assert.match(r.body.error.message, /evidence state is none/);
      const run = await app.call('POST', RUN, { key, body: { plot_ids: [id] } });
      assert.equal(run.status, 202);
      r = await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key });
      assert.match(r.body.error.message, /evidence state is queued/);
      const other = await seedWorkspace(app.services.store);
      r = await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key: other.key });
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'not_found');
      await app.services.queue!.boss.cancel(QUEUES.evidence.name, run.body.job_id);
    });

    /** Stores a finished read of the plot through the register's transitions, as a job leaves it. */
    async function finishRead(workspaceId: string, plotId: string, evidence: EvidenceObject, facts: EvidenceFacts = {}): Promise<void> {
      await storeFixtureRead(app.services.store.em(), app.services.signingKey, { workspaceId, plotId, evidence, facts });
    }

    test('the evidence and its document carry an ETag and answer 304 to If-None-Match naming it; a new read changes both', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const id = await insertSitePlot(app.services.store.em(), workspaceId, B);
      const paths = [`/api/v1/portal/plots/${id}/evidence`, `/api/v1/portal/plots/${id}/evidence.pdf`];
      const tags = async () => {
        const held: string[] = [];
        for (const path of paths) {
          const r = await app.call('GET', path, { key });
          assert.equal(r.status, 200);
          const tag = r.headers.get('etag');
          assert.match(String(tag), /^"[A-Za-z0-9_-]{32}"$/);
          held.push(tag!);
        }
        return held;
      };
      await finishRead(workspaceId, id, fixtureEvidence({ seed: 7 }), { seasons_measured: 4 });
      const first = await tags();
      assert.notEqual(first[0], first[1]);
      for (const [i, path] of paths.entries()) {
        for (const held of [first[i], `W/${first[i]}`, `"other", ${first[i]}`, '*']) {
          const r = await app.call('GET', path, { key, headers: { 'if-none-match': held } });
          assert.equal(r.status, 304, `${path} with If-None-Match ${held}`);
          assert.equal(r.body, '');
          assert.equal(r.headers.get('etag'), first[i]);
        }
        assert.equal((await app.call('GET', path, { key, headers: { 'if-none-match': '"other"' } })).status, 200);
      }
      assert.deepEqual(await tags(), first, 'the same stored evidence keeps its tags');
      await finishRead(workspaceId, id, fixtureEvidence({ seed: 8 }), { seasons_measured: 4 });
      const second = await tags();
      assert.notEqual(second[0], first[0]);
      assert.notEqual(second[1], first[1]);
      for (const [i, path] of paths.entries()) assert.equal((await app.call('GET', path, { key, headers: { 'if-none-match': first[i] } })).status, 200);
    });

    test('while a rerun is queued the register row shows the read in flight, not the finding both evidence routes refuse', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const id = await insertSitePlot(app.services.store.em(), workspaceId, B);
      await finishRead(workspaceId, id, fixtureEvidence(), { eu_maps_forest_share: 0.02, seasons_measured: 4 });
      const before_ = (await app.call('GET', `/api/v1/portal/plots/${id}`, { key })).body;
      assert.deepEqual([before_.evidence_state, before_.verdict, before_.state.label], ['done', 'prior_management_evidenced', 'Established before the cutoff']);

      const run = await app.call('POST', RUN, { key, body: { plot_ids: [id], rerun: true } });
      assert.equal(run.status, 202);
      for (const row of [(await app.call('GET', `/api/v1/portal/plots/${id}`, { key })).body, (await app.call('GET', '/api/v1/portal/plots', { key })).body.plots[0]]) {
        assert.deepEqual([row.evidence_state, row.verdict, row.reason, row.evidence_at, row.state.label], ['queued', null, null, null, 'Queued']);
        assert.match(row.state.summary, /^Queued for reading\. 2020 maps: not read\./);
      }
      for (const path of [`/api/v1/portal/plots/${id}/evidence`, `/api/v1/portal/plots/${id}/evidence.pdf`]) {
        const r = await app.call('GET', path, { key });
        assert.equal(r.status, 409);
        assert.match(r.body.error.message, /evidence state is queued/);
      }
      await app.services.queue!.boss.cancel(QUEUES.evidence.name, run.body.job_id);
    });

    test('the summary counts finished plots by reason in the bucket of what decided them', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const answer = (seed: number, verdict: EvidenceObject['verdict'], reasons: EvidenceObject['reasons']) =>
        fixtureEvidence({ seed, edit: (e) => { e.verdict = verdict; e.reason = reasons[0]; e.reasons = reasons; } });
      const read: Array<[string, EvidenceObject]> = [
        [A, answer(1, 'prior_management_evidenced', ['cycle_and_structure_agree'])],
        [B, answer(2, 'prior_management_weak', ['cycle_and_structure_agree', 'plot_below_evidence_floor'])],
        [A, answer(3, 'prior_management_weak', ['eu_forest_maps_read_forest', 'cycle_and_structure_agree'])],
        [B, answer(4, 'prior_management_weak', ['structural_reading_says_forest'])],
        [A, answer(5, 'no_prior_management_evidenced', ['no_canopy_cycle'])],
        [B, answer(6, 'insufficient_record', ['record_too_thin'])],
      ];
      for (const [name, evidence] of read) await finishRead(workspaceId, await insertSitePlot(em, workspaceId, name, { ref: randomUUID() }), evidence);
      const summary = (await app.call('GET', '/api/v1/portal/plots/evidence/summary', { key })).body;
      assert.deepEqual(summary.reasons, {
        under_evidence_floor: { cycle_and_structure_agree: 1 },
        withheld_by_context: { eu_forest_maps_read_forest: 1 },
        finding_issued: { cycle_and_structure_agree: 1 },
        withheld_by_instruments: { structural_reading_says_forest: 1 },
        no_prior_management: { no_canopy_cycle: 1 },
        refused: { record_too_thin: 1 },
      });
    });

    test('reading the summary resolves plots a stopped job left in flight, counts them recovered, and they cost nothing', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const ids = [await insertSitePlot(em, workspaceId, A), await insertSitePlot(em, workspaceId, B)];
      const run = await app.call('POST', RUN, { key, body: { all: true } });
      assert.equal(run.body.queued, 2);
      let summary = (await app.call('GET', '/api/v1/portal/plots/evidence/summary', { key })).body;
      assert.equal(summary.recovered, 0);
      assert.equal(summary.states.queued, 2);
      await app.services.queue!.boss.cancel(QUEUES.evidence.name, run.body.job_id);
      summary = (await app.call('GET', '/api/v1/portal/plots/evidence/summary', { key })).body;
      assert.equal(summary.recovered, 2);
      assert.deepEqual(summary.states, { none: 0, queued: 0, running: 0, done: 0, failed: 2 });
      assert.equal(summary.used, 0);
      for (const id of ids) assert.equal((await plotRow(em, id)).evidence_error, INTERRUPTED);
      assert.equal((await events(app, workspaceId, 'plot.evidence.failed')).length, 2);
      assert.equal((await app.call('GET', '/api/v1/portal/plots/evidence/summary', { key })).body.recovered, 0);
    });

    describe('with a worker reading through the local archive server', () => {
      let server: ArchiveServer;
      let worker: EvidenceWorker;
      before(async () => {
        const { root } = await demoWorld();
        server = await serveDemoArchive(root);
        const archive = await openArchive({ kind: 'demo', dataDir: app.services.config.dataDir, root: server.url, gfwApiKey: DEMO_GFW_API_KEY });
        worker = await startEvidenceWorker({ ...app.services, queue: app.services.queue! }, { archive });
      });
      after(async () => {
        worker.stopTaking();
        await worker.close();
        await server.close();
      });

      test('a plot in the open ocean, which no archive covers, fails with a plain reason and costs nothing', async () => {
        const { workspaceId, key } = await seedWorkspace(app.services.store);
        const em = app.services.store.em();
        const ocean = await insertSitePlot(em, workspaceId, A, { ref: 'OCEAN' });
        const square = { type: 'Polygon', coordinates: [[[-30, 0], [-29.99, 0], [-29.99, 0.01], [-30, 0.01], [-30, 0]]] };
        await em.execute('update plots set geometry = ?::jsonb, area_ha = 123, country = null where id = ?', [JSON.stringify(square), ocean]);
        const run = await app.call('POST', RUN, { key, body: { plot_ids: [ocean] } });
        assert.deepEqual([run.status, run.body.queued], [202, 1]);
        await waitUntilRead(em, workspaceId);
        const row = await plotRow(em, ocean);
        assert.equal(row.evidence_state, 'failed');
        assert.match(row.evidence_error!, /^The read could not be completed: no archive covers the plot: .*open ocean, or a pole/);
        assert.equal(row.verdict, null, 'not charged as insufficient_record');
        assert.equal(await units(app, workspaceId), 0);
        const [failed] = await events(app, workspaceId, 'plot.evidence.failed');
        assert.equal((failed.data.next_step as { code: string }).code, 'check_location', 'not run_again: the same archives cover nothing there');
        const refused = await app.call('GET', `/api/v1/portal/plots/${ocean}/evidence`, { key });
        assert.equal(refused.status, 409);
        assert.match(refused.body.error.message, /no archive covers the plot.*Check its coordinates/);
        assert.doesNotMatch(refused.body.error.message, /run evidence for it again/);
      });

      test('a plot in two parts on two continents is read part by part, served with its parts, and its document shows them', async () => {
        const { workspaceId, key } = await seedWorkspace(app.services.store);
        const em = app.services.store.em();
        const id = await insertSitePlot(em, workspaceId, A, { ref: 'TWO-PARTS' });
        // Not B: its radar tiles, once decoded, would be served past the faults of the next test.
        const forest = 'ci-tai-cleared-2022';
        const geometry = { type: 'MultiPolygon', coordinates: [[buildSiteModel(site(A), DEMO_SEED).lonLatRing], [buildSiteModel(site(forest), DEMO_SEED).lonLatRing]] };
        await em.execute('update plots set geometry = ?::jsonb, area_ha = ? where id = ?', [JSON.stringify(geometry), site(A).plot.areaHa + site(forest).plot.areaHa, id]);
        await app.call('POST', RUN, { key, body: { plot_ids: [id] } });
        await waitUntilRead(em, workspaceId);
        const r = await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key });
        assert.equal(r.status, 200);
        const e = r.body.evidence;
        assert.deepEqual(e.parts.map((p: { verdict: string; reason: string }) => [p.verdict, p.reason]), [
          [site(A).truth.verdict, site(A).truth.reason],
          [site(forest).truth.verdict, site(forest).truth.reason],
        ]);
        for (const p of e.parts) assert.ok(p.pixels > 0 && p.tiles.radar !== null);
        assert.notEqual(e.parts[0].tiles.radar, e.parts[1].tiles.radar);
        assert.deepEqual([e.verdict, e.reason], [site(forest).truth.verdict, site(forest).truth.reason]);
        const row = await plotRow(em, id);
        assert.deepEqual([row.evidence_state, row.verdict, row.reason], ['done', e.verdict, e.reason]);
        const pdf = await fetch(`${app.url}/api/v1/portal/plots/${id}/evidence.pdf`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(pdf.status, 200);
        const text = (await pdfText(Buffer.from(await pdf.arrayBuffer()))).text.replace(/\s+/g, ' ');
        assert.ok(text.includes('The plot was uploaded in 2 parts.'));
      });

      test('a plot registered without a reference is read with an empty aoi_name, never its id', async () => {
        const { workspaceId, key } = await seedWorkspace(app.services.store);
        const em = app.services.store.em();
        const id = await insertSitePlot(em, workspaceId, A);
        await em.execute('update plots set external_ref = null where id = ?', [id]);
        assert.equal((await app.call('POST', RUN, { key, body: { plot_ids: [id] } })).status, 202);
        await waitUntilRead(em, workspaceId);
        const wrapper = (await app.call('GET', `/api/v1/portal/plots/${id}/evidence`, { key })).body;
        assert.deepEqual([wrapper.external_ref, wrapper.evidence.aoi_name], [null, '']);
      });

      test('a failed read records a plain reason, costs nothing, and the job goes on; reading again costs one each', async () => {
        const { workspaceId, key } = await seedWorkspace(app.services.store);
        const em = app.services.store.em();
        const failing = await insertSitePlot(em, workspaceId, B);
        const reading = await insertSitePlot(em, workspaceId, A);
        // Every radar mosaic over B answers 500: both years, on the only mirror that covers Asia.
        const [lon, lat] = site(B).centre;
        server.setFaults({ status: { match: new RegExp(`${palsarTile1(lon, lat)}_(19|20)_sl_`), status: 500 } });
        try {
          const run = await app.call('POST', RUN, { key, body: { plot_ids: [failing, reading] } });
          assert.deepEqual([run.status, run.body.queued, run.body.used_after], [202, 2, 2]);
          await waitUntilRead(em, workspaceId);
        } finally {
          server.setFaults({});
        }
        const failed = await plotRow(em, failing);
        assert.equal(failed.evidence_state, 'failed');
        assert.match(failed.evidence_error!, /radar mosaics could not be read/);
        assert.equal((await plotRow(em, reading)).evidence_state, 'done');
        assert.equal(await units(app, workspaceId), 1);
        const [event] = await events(app, workspaceId, 'plot.evidence.failed');
        assert.equal(event.data.plot_id, failing);
        assert.equal((event.data.next_step as { code: string }).code, 'run_again');
        assert.equal((await app.call('GET', '/api/v1/portal/plots/evidence/summary', { key })).body.used, 1);

        // The failed plot is read again by an unconditional run; the done one only with rerun.
        const again = await app.call('POST', RUN, { key, body: { all: true } });
        assert.deepEqual([again.body.queued, again.body.used_after], [1, 2]);
        await waitUntilRead(em, workspaceId);
        assert.equal((await plotRow(em, failing)).evidence_state, 'done');
        assert.equal(await units(app, workspaceId), 2);

        const first = (await app.call('GET', `/api/v1/portal/plots/${reading}/evidence`, { key })).body;
        const notAgain = await app.call('POST', RUN, { key, body: { plot_ids: [reading] } });
        assert.equal(notAgain.body.queued, 0);
        const rerun = await app.call('POST', RUN, { key, body: { plot_ids: [reading], rerun: true } });
        assert.deepEqual([rerun.body.queued, rerun.body.used_after], [1, 3]);
        await waitUntilRead(em, workspaceId);
        assert.equal(await units(app, workspaceId), 3);
        const second = (await app.call('GET', `/api/v1/portal/plots/${reading}/evidence`, { key })).body;
        assert.notEqual(second.integrity.digest, first.integrity.digest);
        const rows = await em.execute<{ current: boolean }[]>('select current from evidence where plot_id = ? order by issued', [reading]);
        assert.deepEqual(rows.map((r) => r.current), [false, true]);
        assert.equal((await events(app, workspaceId, 'plot.evidence.completed')).length, 3);
      });
    });
  });
}
