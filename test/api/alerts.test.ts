/**
 * The alert adjudication routes (spec 4.4, 2.11, 7.4) on both backends: every refusal of 7.4 from a
 * crafted request, a batch refused whole (one bad alert among 500 writes nothing), the read window,
 * the plots registered from alerts, and the alert answer's outcome and `ahead`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { QUEUES } from '../../src/store/queue.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, whileQueueRefuses, type TestApp } from '../support/app.ts';
import { insertSitePlot, seedWorkspace } from '../engine/evidence-helpers.ts';

const ADJUDICATE = '/api/v1/eudr/alerts/adjudicate';

/** A square of `sideM` metres centred near Kapuas Hulu, West Kalimantan (Indonesia). */
function square(sideM: number, at: [number, number] = [112.05, 0.85]) {
  const d = sideM / 2 / 111_320;
  const [x, y] = at;
  return { type: 'Polygon', coordinates: [[[x - d, y - d], [x + d, y - d], [x + d, y + d], [x - d, y + d], [x - d, y - d]]] };
}

const point = (x = 112.05, y = 0.85) => ({ type: 'Point', coordinates: [x, y] });

function alert(ref: string, extra: Record<string, unknown> = {}) {
  return { ref, geometry: point(), alert_date: '2023-05-02', country: 'ID', commodity: 'rubber', ...extra };
}

async function count(app: TestApp, workspaceId: string): Promise<number> {
  const [{ n }] = await app.services.store.em().execute<{ n: string }[]>('select count(*) as n from plots where workspace_id = ?', [workspaceId]);
  return Number(n);
}

for (const backend of BACKENDS) {
  describe(`alert adjudication (${backend})`, () => {
    let app: TestApp;
    const jobs: string[] = [];
    before(async () => {
      app = await startTestApp(backend);
    });
    after(async () => {
      for (const id of jobs) await app.services.queue!.boss.cancel(QUEUES.evidence.name, id).catch(() => {});
      await app.close();
    });

    async function adjudicate(key: string, body: unknown) {
      const r = await app.call('POST', ADJUDICATE, { key, body });
      if (r.status === 202) jobs.push(r.body[0].job_id);
      return r;
    }

    async function refused(key: string, body: unknown, status: number, code: string, message?: RegExp) {
      const r = await adjudicate(key, body);
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.error.code, code);
      if (message) assert.match(r.body.error.message, message);
    }

    test('registers a point over a constructed 4 ha square and a 6 ha polygon as sent, one job for the batch', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const r = await adjudicate(key, [alert('A-1'), alert('A-2', { geometry: square(245) }), alert('A-3', { geometry: square(100) })]);
      assert.equal(r.status, 202);
      assert.deepEqual(r.body.map((a: { ref: string }) => a.ref), ['A-1', 'A-2', 'A-3']);
      assert.equal(new Set(r.body.map((a: { job_id: string }) => a.job_id)).size, 1);
      const [pt, big, small] = r.body;
      assert.equal(pt.read_window.constructed, true);
      assert.ok(Math.abs(pt.read_window.area_ha - 4) < 0.01, `window ${pt.read_window.area_ha} ha`);
      assert.equal(big.read_window.constructed, false);
      assert.ok(Math.abs(big.read_window.area_ha - 6) < 0.1, `window ${big.read_window.area_ha} ha`);
      assert.equal(small.read_window.constructed, true);

      const detail = (await app.call('GET', `/api/v1/portal/plots/${small.plot_id}`, { key })).body;
      assert.deepEqual([detail.geometry_source, detail.external_ref, detail.evidence_state, detail.validation_state], ['alert', 'A-3', 'queued', 'valid']);
      assert.equal(detail.geometry.type, 'Polygon', 'the constructed square is the plot\'s boundary');
      const entry = detail.validation_report.alert;
      assert.equal(entry.alert_date, '2023-05-02');
      assert.ok(Math.abs(entry.footprint_area_ha - 1) < 0.02, `footprint ${entry.footprint_area_ha} ha`);
      assert.equal(entry.window_area_ha, small.read_window.area_ha);
      assert.equal(entry.window_constructed, true);
      assert.equal(await count(app, workspaceId), 3);

      const answer = (await app.call('GET', `/api/v1/eudr/alerts/${pt.plot_id}`, { key })).body;
      assert.deepEqual([answer.plot_id, answer.ref, answer.state, answer.issued, answer.evidence, answer.ahead], [pt.plot_id, 'A-1', 'queued', null, null, 0]);
      assert.equal(answer.adjudication.outcome, 'pending');
      assert.equal(answer.alert.window_constructed, true);
      assert.equal(answer.alert.footprint_area_ha, 0);
    });

    test('portal keys and workspace-member keys alike reach the alert routes', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const memberKey = (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'member' })).api_key as string;
      const [viaPortal] = (await adjudicate(key, [alert('K-1')])).body;
      const viaMember = await adjudicate(memberKey, [alert('K-2')]);
      assert.equal(viaMember.status, 202);
      for (const k of [key, memberKey]) {
        for (const id of [viaPortal.plot_id, viaMember.body[0].plot_id]) assert.equal((await app.call('GET', `/api/v1/eudr/alerts/${id}`, { key: k })).status, 200);
      }
    });

    test('an empty list is no_alerts, 501 alerts too_many_alerts, a body that is no array bad_body', async () => {
      const { key } = await seedWorkspace(app.services.store);
      await refused(key, [], 422, 'no_alerts');
      await refused(key, Array.from({ length: 501 }, (_, i) => alert(`M-${i}`)), 422, 'too_many_alerts', /at most 500/);
      await refused(key, { alerts: [] }, 422, 'bad_body');
    });

    test('each rule of 7.4 refuses the batch with its code and names the alert', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
        ['a line', { geometry: { type: 'LineString', coordinates: [[112, 0.8], [112.1, 0.9]] } }, 'bad_geometry', /Point, Polygon or MultiPolygon/],
        ['no coordinates', { geometry: { type: 'Polygon', coordinates: 'here' } }, 'bad_geometry', /"BAD"/],
        ['no geometry', { geometry: undefined }, 'bad_geometry', /"BAD"/],
        ['off the Earth', { geometry: point(112, 95), country: null }, 'coordinates_out_of_range', /not on the Earth/],
        ['latitude first in Côte d\'Ivoire', { geometry: point(7.5, -5.5), country: 'CI' }, 'axis_order_swapped', /exchanged/],
        ['latitude first in Indonesia', { geometry: point(0.85, 112.05) }, 'axis_order_swapped', /exchanged/],
        ['a footprint of 6 km2', { geometry: square(2450) }, 'footprint_too_large', /5 km2/],
        ['a date before 2021', { alert_date: '2020-12-31' }, 'alert_before_cutoff', /2021-01-01/],
        ['a date that is none', { alert_date: '2023-02-30' }, 'bad_alert', /YYYY-MM-DD/],
        ['a blank ref', { ref: ' ' }, 'bad_alert', /ref must be/],
        ['an unknown country', { country: 'Atlantis' }, 'unknown_country', /"BAD"/],
      ];
      for (const [what, extra, code, message] of cases) {
        const r = await adjudicate(key, [alert('GOOD'), alert('BAD', extra)]);
        assert.equal(r.status, 422, `${what}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error.code, code, what);
        assert.match(r.body.error.message, message, what);
      }
      await refused(key, [alert('TWICE'), alert('ONCE'), alert('TWICE')], 422, 'ref_in_use', /"TWICE"/);
      assert.equal(await count(app, workspaceId), 0);
    });

    test('the producer\'s country decides the axis order when the alert names none; an unknown producer is not_found', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const producer = await app.call('POST', '/api/v1/portal/plots/producers', { key, body: { name: 'Cavally Cocoa', country: 'CIV' } });
      assert.equal(producer.status, 201);
      const swapped = { geometry: point(7.5, -5.5), country: undefined, producer_id: producer.body.id };
      await refused(key, [alert('P-1', swapped)], 422, 'axis_order_swapped', /"P-1"/);
      const r = await adjudicate(key, [alert('P-1', { ...swapped, geometry: point(-5.5, 7.5) })]);
      assert.equal(r.status, 202);
      const detail = (await app.call('GET', `/api/v1/portal/plots/${r.body[0].plot_id}`, { key })).body;
      assert.equal(detail.producer_id, producer.body.id);
      for (const id of [randomUUID(), 'not-a-producer']) await refused(key, [alert('P-2', { producer_id: id })], 404, 'not_found', /no producer/);
      assert.equal(await count(app, workspaceId), 1);
    });

    test('a reference already in the register is ref_in_use, naming up to ten of them', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber', { ref: 'HELD' });
      await refused(key, [alert('NEW'), alert('HELD')], 422, 'ref_in_use', /"HELD".*already in the register/);
      const batch = Array.from({ length: 12 }, (_, i) => alert(`R-${i}`));
      assert.equal((await adjudicate(key, batch)).status, 202);
      const again = await adjudicate(key, batch);
      assert.equal(again.body.error.code, 'ref_in_use');
      assert.match(again.body.error.message, /"R-0".*"R-9" and 2 more/);
      assert.doesNotMatch(again.body.error.message, /"R-10"/);
    });

    test('one bad alert among 500 writes nothing', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store, 'professional');
      const batch = Array.from({ length: 500 }, (_, i) => alert(`B-${i}`, { geometry: square(150, [112 + (i % 25) * 0.01, 0.8 + Math.floor(i / 25) * 0.01]) }));
      batch[317] = alert('B-317', { alert_date: '2019-06-01' });
      await refused(key, batch, 422, 'alert_before_cutoff', /"B-317"/);
      assert.equal(await count(app, workspaceId), 0);
      batch[317] = alert('B-317');
      const r = await adjudicate(key, batch);
      assert.equal(r.status, 202);
      assert.equal(r.body.length, 500);
      assert.equal(await count(app, workspaceId), 500);
    });

    test('the plan gate and the allowance count one alert as one plot', async () => {
      const standard = await seedWorkspace(app.services.store, 'standard');
      await refused(standard.key, [alert('S-1')], 403, 'plan_tier_required', /Professional/);
      assert.equal(await count(app, standard.workspaceId), 0);
      const trial = await seedWorkspace(app.services.store, 'trial');
      const em = app.services.store.em();
      for (let i = 0; i < 199; i++) {
        await em.execute('insert into evidence_units (id, workspace_id, plot_id, read_id, used_at) values (?, ?, ?, ?, now())', [randomUUID(), trial.workspaceId, randomUUID(), randomUUID()]);
      }
      await refused(trial.key, [alert('T-1'), alert('T-2')], 403, 'evidence_cap', /199 used .* 1 remaining; this call asks for 2/);
      assert.equal(await count(app, trial.workspaceId), 0);
      assert.equal((await adjudicate(trial.key, [alert('T-1')])).status, 202);
    });

    test('a queue that cannot take the job answers 503 queue_unavailable: nothing registered, no reference taken', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      await whileQueueRefuses(app, () => refused(key, [alert('Q-1')], 503, 'queue_unavailable'));
      assert.equal(await count(app, workspaceId), 0);
      const queue = app.services.queue;
      app.services.queue = null;
      try {
        await refused(key, [alert('Q-1')], 503, 'queue_unavailable');
      } finally {
        app.services.queue = queue;
      }
      assert.equal((await adjudicate(key, [alert('Q-1')])).status, 202, 'the reference was not taken');
    });

    test('two concurrent batches cannot take the same reference', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const answers = await Promise.all([adjudicate(key, [alert('RACE')]), adjudicate(key, [alert('RACE')])]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [202, 422]);
      assert.equal(await count(app, workspaceId), 1);
    });

    test('an alert answer counts the jobs ahead; a plot that is not an alert, or another workspace\'s, is not_found', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const first = (await adjudicate(key, [alert('F-1')])).body[0];
      const second = (await adjudicate(key, [alert('F-2'), alert('F-3')])).body[1];
      const third = (await adjudicate(key, [alert('F-4')])).body[0];
      const ahead = async (id: string) => (await app.call('GET', `/api/v1/eudr/alerts/${id}`, { key })).body.ahead;
      assert.deepEqual([await ahead(first.plot_id), await ahead(second.plot_id), await ahead(third.plot_id)], [0, 1, 2]);
      await app.services.queue!.boss.cancel(QUEUES.evidence.name, first.job_id);
      await app.services.store.em().execute(`update plots set evidence_state = 'failed' where evidence_job_id = ?`, [first.job_id]);
      assert.equal(await ahead(third.plot_id), 1, 'a job that no longer holds plots is not ahead');

      const plot = await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber', { ref: 'UPLOADED' });
      for (const id of [plot, randomUUID()]) {
        const r = await app.call('GET', `/api/v1/eudr/alerts/${id}`, { key });
        assert.equal(r.status, 404);
        assert.equal(r.body.error.code, 'not_found');
      }
      const other = await seedWorkspace(app.services.store);
      assert.equal((await app.call('GET', `/api/v1/eudr/alerts/${first.plot_id}`, { key: other.key })).status, 404);
    });

    test('the outcome follows the alert\'s state: a failed read and a never-queued alert are unresolved', async () => {
      const { key } = await seedWorkspace(app.services.store);
      const [a] = (await adjudicate(key, [alert('O-1')])).body;
      const em = app.services.store.em();
      const outcome = async () => (await app.call('GET', `/api/v1/eudr/alerts/${a.plot_id}`, { key })).body.adjudication;
      await em.execute(`update plots set evidence_state = 'failed', evidence_error = 'no archive covers the plot' where id = ?`, [a.plot_id]);
      assert.deepEqual(await outcome(), { outcome: 'unresolved', statement: 'Prior management could not be established; the alert is passed for review with its seasons, instruments and scene identifiers.' });
      await em.execute(`update plots set evidence_state = 'none' where id = ?`, [a.plot_id]);
      const never = await outcome();
      assert.equal(never.outcome, 'unresolved');
      assert.match(never.statement, /not read; submit the alert again/);
    });
  });
}
