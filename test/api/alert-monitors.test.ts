/**
 * Monitors and the alert queue (spec 6.2 `alert.opened`) on both backends: creating and listing
 * monitors and their refusals, the scheduled run opening exactly one case per new alert cluster
 * across runs with its event in the outbox, a shipment's monitor following the shipment's plots,
 * the pg-boss schedule, and working the queue.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runMonitors, startAlertMonitor, holdsCluster, MONITOR_SCHEDULE, type MonitorRunDeps } from '../../src/alerts/monitor-run.ts';
import { ALERT_PRODUCTS, type AlertConfidence } from '../../src/engine/sources/products/gfw-alerts/codes.ts';
import type { AlertsAdapter } from '../../src/engine/sources/products/gfw-alerts/reader.ts';
import { createLogger } from '../../src/log.ts';
import { QUEUES } from '../../src/store/queue.ts';
import { BACKENDS } from '../support/db.ts';
import { assertDocumented, assertEventDocumented } from '../support/openapi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { insertSitePlot, seedWorkspace } from '../engine/evidence-helpers.ts';

const MONITORS = '/api/v1/eudr/alerts/monitors';
const CASES = '/api/v1/eudr/alerts/cases';
const SHIPMENTS = '/api/v1/portal/statements/shipments';

type Pixel = { longitude: number; latitude: number; date: string; confidence: AlertConfidence };

/** A block of `w` × `h` alert pixels of the 0.0001° grid from a corner cell. */
function block(col: number, row: number, w: number, h: number, date: string, confidence: AlertConfidence = 'high'): Pixel[] {
  const out: Pixel[] = [];
  for (let i = 0; i < w; i++) for (let j = 0; j < h; j++) out.push({ longitude: (col + i + 0.5) * 1e-4, latitude: (row + j + 0.5) * 1e-4, date, confidence });
  return out;
}

/** A provider whose published pixels are whatever the test has set so far. */
function publishing(pixels: () => Pixel[]): AlertsAdapter {
  return {
    async read(product, _geometry, start, end) {
      const p = ALERT_PRODUCTS[product];
      return {
        product, dataset: p.dataset, version: 'v20990101', publisher: 'stub', publishedAccuracy: p.publishedAccuracy,
        pixels: pixels().filter((x) => x.date >= start && x.date <= end),
        provenance: { dataset: p.dataset, version: 'v20990101', tile: null, licence: p.licence, attribution: p.attribution, citation: p.citation, synthetic: true },
      };
    },
    async catalogue(product) {
      return { dataset: ALERT_PRODUCTS[product].dataset, version: 'v20990101' };
    },
  };
}

for (const backend of BACKENDS) {
  describe(`alert monitors (${backend})`, () => {
    let app: TestApp;
    let published: Pixel[] = [];
    let deps: MonitorRunDeps;
    before(async () => {
      app = await startTestApp(backend);
      deps = { store: app.services.store, source: publishing(() => published), clusters: app.services.pools.alerts.clusters, baseUrl: app.services.config.baseUrl, log: createLogger('silent') };
    });
    after(() => app.close());

    async function opened(workspaceId: string) {
      const rows = await app.services.store.em().execute<{ data: Record<string, unknown> }[]>(`select data from outbox where workspace_id = ? and type = 'alert.opened' order by created_at`, [workspaceId]);
      for (const r of rows) assertEventDocumented('alert.opened', r.data);
      return rows;
    }

    test('a monitor is created over a list or all plots, and listed; what it cannot watch is refused', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const plot = await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber');
      const listed = await app.call('POST', MONITORS, { key, body: { plot_ids: [plot], since: '2022-01-01', product: 'radd', min_area_ha: 0.5, label: 'Kalbar' } });
      assert.equal(listed.status, 201);
      assert.deepEqual([listed.body.scope, listed.body.plot_ids, listed.body.product, listed.body.min_area_ha, listed.body.since, listed.body.open_cases], ['plots', [plot], 'radd', 0.5, '2022-01-01', 0]);
      const all = await app.call('POST', MONITORS, { key, body: { all: true } });
      assert.deepEqual([all.status, all.body.scope, all.body.product, all.body.since], [201, 'all', 'integrated', new Date().toISOString().slice(0, 10)]);
      const list = (await app.call('GET', MONITORS, { key })).body.monitors;
      assert.deepEqual(list.map((m: { id: string }) => m.id), [listed.body.id, all.body.id]);

      const cases: Array<[object, number, string]> = [
        [{}, 422, 'no_plots'],
        [{ plot_ids: [] }, 422, 'no_plots'],
        [{ all: true, plot_ids: [plot] }, 422, 'bad_body'],
        [{ all: true, product: 'glad' }, 422, 'bad_product'],
        [{ all: true, since: '2020-06-01' }, 422, 'alert_before_cutoff'],
        [{ all: true, since: 'soon' }, 422, 'bad_window'],
        [{ all: true, min_area_ha: -1 }, 422, 'bad_min_area_ha'],
        [{ plot_ids: [randomUUID()] }, 404, 'not_found'],
        [{ plot_ids: ['not-a-plot'] }, 404, 'not_found'],
        [{ shipment_id: randomUUID() }, 404, 'not_found'],
      ];
      for (const [body, status, code] of cases) {
        const r = await app.call('POST', MONITORS, { key, body });
        assert.deepEqual([r.status, r.body.error?.code], [status, code], JSON.stringify(body));
      }
      const other = await seedWorkspace(app.services.store);
      assert.equal((await app.call('POST', MONITORS, { key: other.key, body: { plot_ids: [plot] } })).body.error.code, 'not_found');
      assert.deepEqual((await app.call('GET', MONITORS, { key: other.key })).body.monitors, []);
    });

    test('a monitor says which of its plots its product cannot watch, when made and after each run', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const vosges = { type: 'Polygon', coordinates: [[[7, 48], [7.003, 48], [7.003, 48.002], [7, 48.002], [7, 48]]] };
      const inEurope = async (ref: string) => {
        const id = await insertSitePlot(em, workspaceId, 'id-kalbar-rubber', { ref });
        await em.execute('update plots set geometry = ?::jsonb where id = ?', [JSON.stringify(vosges), id]);
        return id;
      };
      await insertSitePlot(em, workspaceId, 'id-kalbar-rubber', { ref: 'KB-TROPICS' });
      const first = await inEurope('EU-1');
      const monitor = await app.call('POST', MONITORS, { key, body: { all: true } });
      assert.equal(monitor.status, 201);
      assert.equal(monitor.body.unwatchable.count, 1);
      assert.deepEqual(monitor.body.unwatchable.plots.map((p: { plot_id: string; ref: string }) => [p.plot_id, p.ref]), [[first, 'EU-1']]);
      assert.match(monitor.body.unwatchable.plots[0].why, /published from 30°S to 30°N only, and this plot lies at 48\.00°/);
      const second = await inEurope('EU-2');
      await runMonitors(deps, new Date());
      const listed = (await app.call('GET', MONITORS, { key })).body.monitors.find((m: { id: string }) => m.id === monitor.body.id);
      assert.equal(listed.unwatchable.count, 2);
      assert.deepEqual(listed.unwatchable.plots.map((p: { plot_id: string }) => p.plot_id).sort(), [first, second].sort());
    });

    test('two scheduled runs open exactly one case per new cluster, each with its alert.opened event', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const plot = await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber', { ref: 'KB-9' });
      const monitor = (await app.call('POST', MONITORS, { key, body: { plot_ids: [plot], since: '2022-01-01' } })).body;
      // Before the run, and an alert before `since`: nothing is opened for it.
      published = [...block(1_000_000, 10_000, 3, 3, '2023-01-10'), ...block(1_000_100, 10_000, 2, 2, '2021-06-01')];
      let run = await runMonitors(deps, new Date('2023-02-01T00:00:00Z'));
      assert.equal(run.opened, 1);
      let cases = (await app.call('GET', CASES, { key })).body.cases;
      assert.equal(cases.length, 1);
      const [first] = cases;
      assert.deepEqual([first.monitor_id, first.plot_id, first.ref, first.first_date, first.pixels, first.status, first.severity], [monitor.id, plot, 'KB-9', '2023-01-10', 9, 'open', 'medium']);
      assert.ok(Math.abs(first.flagged_area_km2 - first.area_ha / 100) < 1e-6);

      // The cluster grows a column; a new one appears apart from it; and one more run finds nothing new.
      published = [...published, ...block(1_000_003, 10_000, 1, 3, '2023-02-20'), ...block(1_000_050, 10_050, 4, 4, '2023-03-01', 'highest')];
      run = await runMonitors(deps, new Date('2023-03-15T00:00:00Z'));
      assert.equal(run.opened, 1);
      assert.equal((await runMonitors(deps, new Date('2023-03-16T00:00:00Z'))).opened, 0);
      cases = (await app.call('GET', CASES, { key })).body.cases;
      assert.equal(cases.length, 2);
      const grown = cases.find((c: { alert_id: string }) => c.alert_id === first.alert_id);
      assert.deepEqual([grown.pixels, grown.last_date, grown.opened_at], [12, '2023-02-20', first.opened_at]);
      const added = cases.find((c: { alert_id: string }) => c.alert_id !== first.alert_id);
      assert.deepEqual([added.first_date, added.confidence, added.severity], ['2023-03-01', 'highest', 'high']);

      const events = (await opened(workspaceId)).map((e) => e.data);
      assert.equal(events.length, 2);
      assert.deepEqual(events.map((e) => e.alert_id), [first.alert_id, added.alert_id]);
      const [event] = events;
      assert.deepEqual(
        [event.plot_id, event.ref, event.monitor_id, event.severity, event.flagged_area_km2, event.alert_url],
        [plot, 'KB-9', monitor.id, 'medium', first.flagged_area_km2, `${app.services.config.baseUrl}/eudr/alerts/cases/${first.alert_id}`],
      );
      assert.ok(!Number.isNaN(Date.parse(String(event.opened_at))));
      const fetched = await app.call('GET', `${CASES}/${first.alert_id}`, { key });
      assert.equal(fetched.body.alert_id, first.alert_id);
      assertDocumented('GET', `${CASES}/${first.alert_id}`, 200, fetched.body);
      assert.equal((await app.call('GET', MONITORS, { key })).body.monitors[0].open_cases, 2);
      published = [];
    });

    test('a shipment monitor watches the shipment\'s plots as they stand at each run: one case per new cluster, none off the shipment', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const inside = await insertSitePlot(em, workspaceId, 'id-kalbar-rubber', { ref: 'SH-IN' });
      const outside = await insertSitePlot(em, workspaceId, 'id-kalbar-rubber', { ref: 'SH-OUT' });
      const late = await insertSitePlot(em, workspaceId, 'id-kalbar-rubber', { ref: 'SH-LATE' });
      const shipment = (await app.call('POST', SHIPMENTS, { key, body: { reference: 'KB-BATCH', plot_ids: [inside] } })).body;
      const created = await app.call('POST', MONITORS, { key, body: { shipment_id: shipment.id.toUpperCase(), since: '2022-01-01' } });
      assert.equal(created.status, 201);
      const monitor = created.body;
      assert.deepEqual([monitor.scope, monitor.shipment_id, monitor.plot_ids, monitor.active], ['shipment', shipment.id, null, true]);
      const onPlot = async (plot: string) => (await app.call('GET', `${CASES}?plot_id=${plot}`, { key })).body.cases as Array<{ alert_id: string; first_date: string; monitor_id: string }>;

      // The provider publishes the same pixels over every plot, so a plot off the shipment would find them too if it were watched.
      // Monitors of other tests' workspaces run too: what this workspace's opened is counted by its events.
      published = block(1_000_000, 10_000, 3, 3, '2023-01-10');
      await runMonitors(deps, new Date('2023-02-01T00:00:00Z'));
      assert.equal((await opened(workspaceId)).length, 1);
      const [first] = await onPlot(inside);
      assert.deepEqual([first.first_date, first.monitor_id], ['2023-01-10', monitor.id]);

      // A plot put on the shipment after the monitor was made is watched from the next run, from `since`.
      assert.equal((await app.call('POST', `${SHIPMENTS}/${shipment.id}/plots`, { key, body: { plot_ids: [late] } })).status, 200);
      published = [...published, ...block(1_000_003, 10_000, 1, 3, '2023-02-20'), ...block(1_000_050, 10_050, 4, 4, '2023-03-01', 'highest')];
      await runMonitors(deps, new Date('2023-03-15T00:00:00Z'));
      assert.equal((await opened(workspaceId)).length, 4, 'the new cluster on the first plot, both clusters on the plot added');
      await runMonitors(deps, new Date('2023-03-16T00:00:00Z'));
      const onInside = await onPlot(inside);
      assert.deepEqual(onInside.map((c) => c.first_date).sort(), ['2023-01-10', '2023-03-01']);
      assert.ok(onInside.some((c) => c.alert_id === first.alert_id), 'the grown cluster keeps its case');
      assert.deepEqual((await onPlot(late)).map((c) => c.first_date).sort(), ['2023-01-10', '2023-03-01']);
      assert.deepEqual(await onPlot(outside), []);
      const events = (await opened(workspaceId)).map((e) => e.data);
      assert.equal(events.length, 4);
      assert.ok(events.every((e) => e.monitor_id === monitor.id && e.plot_id !== outside));
      assert.equal((await app.call('GET', MONITORS, { key })).body.monitors[0].open_cases, 4);
      published = [];
    });

    test('a monitor is refused another workspace\'s shipment as one that names nothing', async () => {
      const own = await seedWorkspace(app.services.store);
      const other = await seedWorkspace(app.services.store);
      const plot = await insertSitePlot(app.services.store.em(), other.workspaceId, 'id-kalbar-rubber');
      const theirs = (await app.call('POST', SHIPMENTS, { key: other.key, body: { reference: 'THEIRS', plot_ids: [plot] } })).body;
      for (const shipmentId of [theirs.id, randomUUID(), 'not-a-shipment']) {
        const r = await app.call('POST', MONITORS, { key: own.key, body: { shipment_id: shipmentId } });
        assert.deepEqual([r.status, r.body.error?.code], [404, 'not_found'], shipmentId);
        assert.ok(!r.body.error.message.includes('THEIRS'));
      }
      assert.deepEqual((await app.call('GET', MONITORS, { key: own.key })).body.monitors, []);
      assert.deepEqual((await app.call('GET', MONITORS, { key: other.key })).body.monitors, []);
    });

    test('deleting a shipment stops its monitors, which keep their cases', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const plot = await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber');
      const shipment = (await app.call('POST', SHIPMENTS, { key, body: { reference: 'GONE', plot_ids: [plot] } })).body;
      const monitor = (await app.call('POST', MONITORS, { key, body: { shipment_id: shipment.id, since: '2022-01-01' } })).body;
      const everyPlot = (await app.call('POST', MONITORS, { key, body: { all: true, since: '2022-01-01' } })).body;
      published = block(1_400_000, 7_000, 2, 2, '2023-06-01');
      await runMonitors(deps, new Date('2023-07-01T00:00:00Z'));
      assert.equal((await app.call('DELETE', `${SHIPMENTS}/${shipment.id}`, { key })).status, 204);
      const [stopped, running] = (await app.call('GET', MONITORS, { key })).body.monitors;
      assert.deepEqual([stopped.id, stopped.active, stopped.shipment_id, stopped.open_cases], [monitor.id, false, shipment.id, 1]);
      assert.deepEqual([running.id, running.active], [everyPlot.id, true]);
      published = [...published, ...block(1_400_100, 7_100, 2, 2, '2023-07-10')];
      await runMonitors(deps, new Date('2023-08-01T00:00:00Z'));
      const by = (await opened(workspaceId)).map((e) => e.data.monitor_id);
      assert.deepEqual([by.filter((id) => id === monitor.id).length, by.filter((id) => id === everyPlot.id).length], [1, 2], 'the monitor of every plot alone opens the new cluster');
      assert.equal((await app.call('GET', `${CASES}?monitor_id=${monitor.id}`, { key })).body.cases.length, 1);
      published = [];
    });

    test('the queue filtered by a monitor another workspace holds, or none, is not_found', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber');
      const monitor = (await app.call('POST', MONITORS, { key, body: { all: true } })).body;
      assert.deepEqual((await app.call('GET', `${CASES}?monitor_id=${monitor.id}`, { key })).body, { cases: [] });
      const other = await seedWorkspace(app.services.store);
      for (const [caller, monitorId] of [[key, randomUUID()], [other.key, monitor.id], [key, 'not-a-monitor']]) {
        const r = await app.call('GET', `${CASES}?monitor_id=${monitorId}`, { key: caller });
        assert.deepEqual([r.status, Object.keys(r.body), r.body.error.code], [404, ['error'], 'not_found'], monitorId);
        assert.equal(typeof r.body.error.message, 'string');
      }
    });

    test('a case is closed with a note, once; the queue lists open cases unless told', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const plot = await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber');
      await app.call('POST', MONITORS, { key, body: { all: true, since: '2022-01-01' } });
      published = block(1_200_000, 5_000, 2, 2, '2023-04-01', 'nominal');
      await runMonitors(deps, new Date('2023-05-01T00:00:00Z'));
      published = [];
      const [c] = (await app.call('GET', `${CASES}?plot_id=${plot}`, { key })).body.cases;
      assert.equal(c.severity, 'low');
      let r = await app.call('POST', `${CASES}/${c.alert_id}/close`, { key, body: { note: ' ' } });
      assert.deepEqual([r.status, r.body.error.code], [422, 'note_required']);
      r = await app.call('POST', `${CASES}/${c.alert_id}/close`, { key, body: {} });
      assert.deepEqual([r.status, r.body.error.code], [422, 'note_required']);
      r = await app.call('POST', `${CASES}/${c.alert_id}/close`, { key, body: { note: 'Field visit: replanting of an old rubber block.' } });
      assert.equal(r.status, 200);
      assert.deepEqual([r.body.status, r.body.note], ['closed', 'Field visit: replanting of an old rubber block.']);
      assert.ok(r.body.closed_at);
      r = await app.call('POST', `${CASES}/${c.alert_id}/close`, { key, body: { note: 'again' } });
      assert.deepEqual([r.status, r.body.error.code], [409, 'case_closed']);
      assert.deepEqual((await app.call('GET', CASES, { key })).body.cases, []);
      assert.equal((await app.call('GET', `${CASES}?status=closed`, { key })).body.cases.length, 1);
      assert.equal((await app.call('GET', `${CASES}?status=all`, { key })).body.cases.length, 1);
      assert.equal((await app.call('GET', `${CASES}?status=shut`, { key })).body.error.code, 'bad_state');
      const other = await seedWorkspace(app.services.store);
      for (const [method, path] of [['GET', `${CASES}/${c.alert_id}`], ['POST', `${CASES}/${c.alert_id}/close`]] as const) {
        const refused = await app.call(method, path, { key: other.key, body: method === 'POST' ? { note: 'x' } : undefined });
        assert.deepEqual([refused.status, refused.body.error.code], [404, 'not_found']);
      }
    });

    test('the run is scheduled on pg-boss and a scheduled job runs the monitors', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber');
      await app.call('POST', MONITORS, { key, body: { all: true, since: '2021-01-01' } });
      const queue = app.services.queue!;
      await startAlertMonitor(queue, deps);
      const schedules = await queue.boss.getSchedules();
      assert.ok(schedules.some((s) => s.name === QUEUES.monitor.name && s.cron === MONITOR_SCHEDULE), JSON.stringify(schedules));
      published = block(1_300_000, 6_000, 3, 2, '2024-02-02');
      await queue.send(QUEUES.monitor, {});
      const deadline = Date.now() + 60_000;
      while ((await opened(workspaceId)).length === 0) {
        assert.ok(Date.now() < deadline, 'the scheduled job opened no case');
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal((await app.call('GET', CASES, { key })).body.cases.length, 1);
      published = [];
    });

    test('a case holds a cluster of its product first detected within 90 days whose bounds overlap', () => {
      const c = { product: 'integrated', firstDate: '2023-01-01', bbox: [100, 1, 100.001, 1.001] };
      const found = (over: object) => ({ product: 'integrated', firstDate: '2023-02-01', lastDate: '2023-02-01', confidence: 'high', pixels: 1, areaHa: 1, flaggedAreaKm2: 0.01, severity: 'medium' as const, centroid: null, bbox: [100.0005, 1.0005, 100.002, 1.002], source: {}, ...over });
      assert.equal(holdsCluster(c, found({})), true);
      assert.equal(holdsCluster(c, found({ product: 'radd' })), false);
      assert.equal(holdsCluster(c, found({ firstDate: '2023-04-02' })), false, '91 days later is another event');
      assert.equal(holdsCluster(c, found({ bbox: [100.01, 1.01, 100.02, 1.02] })), false);
      assert.equal(holdsCluster({ ...c, bbox: null }, found({ bbox: null, firstDate: '2023-01-01' })), true, 'without a place, the same first date');
    });
  });
}
