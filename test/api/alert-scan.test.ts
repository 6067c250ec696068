/**
 * Scanning published alerts and scan-and-adjudicate (spec 4.5, 2.12, 7.5) on both backends, over
 * the demo world's alert tables: alerts over the demo sites, the window and product, a refusal
 * string against `alerts: []`, read-only, every refusal of 7.5, and scan-and-adjudicate's
 * references, bbox or centroid, repeat and rollback.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Geometry } from 'geojson';
import { openDemoAlerts } from '../../src/demo/open-archive.ts';
import { ALERT_PRODUCTS } from '../../src/engine/sources/products/gfw-alerts/codes.ts';
import type { AlertsAdapter } from '../../src/engine/sources/products/gfw-alerts/reader.ts';
import { QUEUES } from '../../src/store/queue.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, whileQueueRefuses, type TestApp } from '../support/app.ts';
import { demoWorld } from '../support/demo-world.ts';
import { insertSitePlot, seedWorkspace, site } from '../engine/evidence-helpers.ts';

const SCAN = '/api/v1/eudr/alerts/scan';
const SCAN_AND_ADJUDICATE = '/api/v1/eudr/alerts/scan-and-adjudicate';
const CLEARED = 'ci-tai-cleared-2022';
const PALM = 'my-johor-oil-palm';

/** A square of `sideM` metres around a demo site's centre. */
function squareAround(name: string, sideM: number) {
  const [x, y] = site(name).centre;
  const dy = sideM / 2 / 111_320;
  const dx = dy / Math.cos((y * Math.PI) / 180);
  return { type: 'Polygon', coordinates: [[[x - dx, y - dy], [x + dx, y - dy], [x + dx, y + dy], [x - dx, y + dy], [x - dx, y - dy]]] };
}

/** A source answering isolated pixels (none touching), or failing. */
function stubSource(pixels: number | Error): AlertsAdapter {
  return {
    async read(product: 'integrated' | 'radd', _g: Geometry) {
      if (pixels instanceof Error) throw pixels;
      const p = ALERT_PRODUCTS[product];
      return {
        product, dataset: p.dataset, version: 'v20990101', publisher: 'stub', publishedAccuracy: p.publishedAccuracy,
        pixels: Array.from({ length: pixels }, (_, i) => ({ longitude: 100 + (i % 40) * 0.0003 + 0.00005, latitude: 1 + Math.floor(i / 40) * 0.0003 + 0.00005, date: '2023-01-01', confidence: 'high' as const })),
        provenance: { dataset: p.dataset, version: 'v20990101', tile: null, licence: p.licence, attribution: p.attribution, citation: p.citation, synthetic: true },
      };
    },
    async catalogue(product: 'integrated' | 'radd') {
      return { dataset: ALERT_PRODUCTS[product].dataset, version: 'v20990101' };
    },
  };
}

for (const backend of BACKENDS) {
  describe(`alert scans (${backend})`, () => {
    let app: TestApp;
    let demo: AlertsAdapter;
    const jobs: string[] = [];
    before(async () => {
      app = await startTestApp(backend);
      demo = openDemoAlerts(app.dataDir, (await demoWorld()).root);
      app.services.alerts = demo;
    });
    after(async () => {
      for (const id of jobs) await app.services.queue!.boss.cancel(QUEUES.evidence.name, id).catch(() => {});
      await app.close();
    });

    const scan = (key: string, query: string) => app.call('GET', `${SCAN}?${query}`, { key });
    async function scanAndAdjudicate(key: string, body: unknown) {
      const r = await app.call('POST', SCAN_AND_ADJUDICATE, { key, body });
      if (r.status === 202) jobs.push(r.body.adjudicated[0].job_id);
      return r;
    }

    async function counts(workspaceId: string) {
      const em = app.services.store.em();
      const [row] = await em.execute<{ plots: string; queued: string; events: string; units: string }[]>(
        `select (select count(*) from plots where workspace_id = ?) as plots,
                (select count(*) from plots where workspace_id = ? and evidence_state <> 'none') as queued,
                (select count(*) from outbox where workspace_id = ?) as events,
                (select count(*) from evidence_units where workspace_id = ?) as units`,
        [workspaceId, workspaceId, workspaceId, workspaceId],
      );
      return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
    }

    test('the alerts over a cleared forest site: one cluster, its dates, strongest confidence and source; a plot without alerts answers alerts: []', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const cleared = await insertSitePlot(em, workspaceId, CLEARED);
      const rubber = await insertSitePlot(em, workspaceId, 'id-kalbar-rubber');
      const before_ = await counts(workspaceId);
      const r = await scan(key, `plot_id=${cleared},${rubber}&end=2024-12-31`);
      assert.equal(r.status, 200);
      assert.deepEqual([r.body.window, r.body.product, r.body.plots_with_alerts, r.body.alerts_found], [{ start: '2021-01-01', end: '2024-12-31' }, 'integrated', 1, 1]);
      const [onCleared, onRubber] = r.body.plots;
      assert.deepEqual([onCleared.plot_id, onCleared.ref, onCleared.truncated], [cleared, CLEARED, false]);
      const [a] = onCleared.alerts;
      assert.ok(a.first_date >= '2022-02-20' && a.first_date <= '2022-02-24', a.first_date);
      assert.ok(a.last_date >= '2022-03-20' && a.last_date <= '2022-03-26', a.last_date);
      assert.equal(a.confidence, 'highest');
      assert.equal(a.confidence_pixels.nominal + a.confidence_pixels.high + a.confidence_pixels.highest, a.pixels);
      assert.ok(a.confidence_pixels.high > 0, 'some pixels are a level below the strongest');
      assert.ok(Math.abs(a.area_ha - site(CLEARED).plot.areaHa) < 1.5, `alert ${a.area_ha} ha on a ${site(CLEARED).plot.areaHa} ha plot`);
      assert.equal(a.centroid.type, 'Point');
      const [w, s, e, n] = a.bbox;
      assert.ok(w < a.centroid.coordinates[0] && a.centroid.coordinates[0] < e && s < a.centroid.coordinates[1] && a.centroid.coordinates[1] < n);
      assert.deepEqual(
        [a.source.product, a.source.dataset, a.source.version, a.source.licence, a.source.geometry_withheld],
        ['integrated', 'gfw_integrated_alerts', 'v20251115', 'CC BY 4.0', false],
      );
      assert.match(a.source.citation, /Integrated Deforestation Alerts/);
      assert.deepEqual(onRubber.alerts, []);
      assert.equal(onRubber.source.product, 'integrated', 'the product read is named on a plot without alerts');
      assert.equal(onRubber.refusal, undefined);
      assert.deepEqual(await counts(workspaceId), before_, 'a scan writes and queues nothing');
    });

    test('the product, the window and min_area_ha narrow what is reported', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const cleared = await insertSitePlot(app.services.store.em(), workspaceId, CLEARED);
      const radd = (await scan(key, `plot_id=${cleared}&product=radd`)).body;
      assert.equal(radd.product, 'radd');
      assert.equal(radd.plots[0].alerts[0].source.dataset, 'wur_radd_alerts');
      assert.equal(radd.plots[0].alerts[0].confidence, 'high');
      assert.deepEqual((await scan(key, `plot_id=${cleared}&end=2021-12-31`)).body.plots[0].alerts, []);
      assert.deepEqual((await scan(key, `plot_id=${cleared}&min_area_ha=50`)).body.plots[0].alerts, []);
      assert.equal((await scan(key, `plot_id=${cleared}&plot_id=${cleared}&min_area_ha=1`)).body.alerts_found, 1);
    });

    test('an unreadable plot carries a refusal string instead of alerts', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const rejected = await insertSitePlot(em, workspaceId, CLEARED, { validation: 'rejected' });
      await em.execute('update plots set geometry = null where id = ?', [rejected]);
      const readable = await insertSitePlot(em, workspaceId, PALM);
      let r = await scan(key, `plot_id=${rejected}&plot_id=${readable}`);
      assert.match(r.body.plots[0].refusal, /no usable boundary/);
      assert.equal(r.body.plots[0].alerts, undefined);
      assert.deepEqual(r.body.plots[1].alerts, []);
      app.services.alerts = stubSource(new Error('the provider answered 503'));
      try {
        r = await scan(key, `plot_id=${readable}`);
      } finally {
        app.services.alerts = demo;
      }
      assert.match(r.body.plots[0].refusal, /could not be read over this plot: the provider answered 503/);
      assert.equal(r.body.plots[0].source, null);
    });

    test('a plot outside the product\'s published band carries its refusal, not an empty list that would read as clear', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const european = await insertSitePlot(em, workspaceId, PALM, { ref: 'EU-TIMBER' });
      // A timber stand in the Vosges, 48° north.
      await em.execute('update plots set geometry = ?::jsonb where id = ?', [JSON.stringify({ type: 'Polygon', coordinates: [[[7, 48], [7.003, 48], [7.003, 48.002], [7, 48.002], [7, 48]]] }), european]);
      const tropical = await insertSitePlot(em, workspaceId, PALM);
      for (const product of ['integrated', 'radd']) {
        const r = await scan(key, `plot_id=${european}&plot_id=${tropical}&product=${product}`);
        assert.equal(r.status, 200);
        assert.equal(r.body.plots[0].alerts, undefined);
        assert.match(r.body.plots[0].refusal, new RegExp(`${ALERT_PRODUCTS[product as 'radd'].dataset} alerts are published from 30°S to 30°N only, and this plot lies at 48\\.00°`));
        assert.ok(Array.isArray(r.body.plots[1].alerts));
      }
    });

    test('each refusal of 7.5 from a crafted request', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const id = await insertSitePlot(app.services.store.em(), workspaceId, CLEARED);
      const cases: Array<[string, number, string]> = [
        ['', 422, 'no_plots'],
        [`plot_id=${Array.from({ length: 51 }, () => randomUUID()).join(',')}`, 422, 'too_many_plots'],
        [`plot_id=${id}&product=glad`, 422, 'bad_product'],
        [`plot_id=${id}&start=2023-05-01&end=2023-04-30`, 422, 'bad_window'],
        [`plot_id=${id}&end=yesterday`, 422, 'bad_window'],
        [`plot_id=${id}&start=2020-06-01`, 422, 'alert_before_cutoff'],
        [`plot_id=${id}&min_area_ha=-1`, 422, 'bad_min_area_ha'],
        [`plot_id=${randomUUID()}`, 404, 'not_found'],
        [`plot_id=${id},not-a-plot`, 404, 'not_found'],
      ];
      for (const [query, status, code] of cases) {
        const r = await scan(key, query);
        assert.deepEqual([r.status, r.body.error?.code], [status, code], query);
      }
      const other = await seedWorkspace(app.services.store);
      assert.equal((await scan(other.key, `plot_id=${id}`)).body.error.code, 'not_found');
      app.services.alerts = stubSource(501);
      try {
        const r = await scan(key, `plot_id=${id}`);
        assert.deepEqual([r.status, r.body.error.code], [422, 'too_many_alerts']);
        assert.match(r.body.error.message, /501 published alerts.*narrow the window, send fewer plots or raise min_area_ha/);
        assert.equal((await scan(key, `plot_id=${id}&min_area_ha=0.02`)).status, 200, 'min_area_ha keeps a scan under the limit');
      } finally {
        app.services.alerts = demo;
      }
    });

    test('a licence that stops permitting geometry withholds centroid and bbox, and scan-and-adjudicate refuses with geometry_not_redistributable', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const id = await insertSitePlot(app.services.store.em(), workspaceId, CLEARED);
      ALERT_PRODUCTS.integrated.redistributesGeometry = false;
      try {
        const [a] = (await scan(key, `plot_id=${id}`)).body.plots[0].alerts;
        assert.equal(a.source.geometry_withheld, true);
        assert.deepEqual([a.centroid, a.bbox], [undefined, undefined]);
        assert.ok(a.first_date && a.confidence && a.pixels > 0, 'fact, date and confidence are still reported');
        const r = await scanAndAdjudicate(key, { plot_ids: [id] });
        assert.deepEqual([r.status, r.body.error.code], [422, 'geometry_not_redistributable']);
      } finally {
        ALERT_PRODUCTS.integrated.redistributesGeometry = true;
      }
      assert.equal((await counts(workspaceId)).plots, 1);
    });

    test('scan-and-adjudicate registers each alert found from its bbox or centroid, and the same scan again is ref_in_use', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const cleared = await insertSitePlot(em, workspaceId, CLEARED, { ref: 'COCOA-7' });
      // The palm estate's alert lies outside its boundary; a 2 km square around the site reaches it.
      const around = await insertSitePlot(em, workspaceId, PALM, { ref: 'JOHOR-2KM' });
      await em.execute('update plots set geometry = ?::jsonb, area_ha = 400 where id = ?', [JSON.stringify(squareAround(PALM, 2000)), around]);
      const r = await scanAndAdjudicate(key, { plot_ids: [cleared, around] });
      assert.equal(r.status, 202, JSON.stringify(r.body));
      assert.equal(r.body.alerts_found, 2);
      assert.equal(r.body.statement, undefined);
      const [onCleared, onPalm] = r.body.plots.map((p: { alerts: Array<{ first_date: string; adjudicated_as: string }> }) => p.alerts[0]);
      assert.equal(onCleared.adjudicated_as, 'bbox');
      assert.equal(onPalm.adjudicated_as, 'centroid');
      assert.deepEqual(r.body.adjudicated.map((a: { ref: string }) => a.ref), [`COCOA-7-integrated-${onCleared.first_date}-1`, `JOHOR-2KM-integrated-${onPalm.first_date}-1`]);
      const [bbox, centroid] = r.body.adjudicated;
      assert.equal(bbox.read_window.constructed, false);
      assert.ok(bbox.read_window.area_ha >= 4);
      assert.deepEqual([centroid.read_window.constructed, Math.round(centroid.read_window.area_ha)], [true, 4]);
      const answer = (await app.call('GET', `/api/v1/eudr/alerts/${centroid.plot_id}`, { key })).body;
      assert.deepEqual([answer.ref, answer.alert.alert_date, answer.adjudication.outcome], [centroid.ref, onPalm.first_date, 'pending']);
      const detail = (await app.call('GET', `/api/v1/portal/plots/${bbox.plot_id}`, { key })).body;
      assert.deepEqual([detail.geometry_source, detail.commodity, detail.country], ['alert', 'cocoa', 'CI']);

      const again = await scanAndAdjudicate(key, { plot_ids: [cleared, around] });
      assert.deepEqual([again.status, again.body.error.code], [422, 'ref_in_use']);
      assert.match(again.body.error.message, /COCOA-7-integrated-/);
      assert.equal((await counts(workspaceId)).plots, 4);
    });

    test('scan-and-adjudicate that finds nothing queues nothing and says so; the gates and a failed enqueue write nothing', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store);
      const em = app.services.store.em();
      const rubber = await insertSitePlot(em, workspaceId, 'id-kalbar-rubber');
      const nothing = await scanAndAdjudicate(key, { plot_ids: [rubber] });
      assert.equal(nothing.status, 200);
      assert.deepEqual(nothing.body.adjudicated, []);
      assert.match(nothing.body.statement, /No published integrated alerts were found.*nothing was queued/);

      const cleared = await insertSitePlot(em, workspaceId, CLEARED);
      const r = await whileQueueRefuses(app, () => scanAndAdjudicate(key, { plot_ids: [cleared] }));
      assert.deepEqual([r.status, r.body.error.code], [503, 'queue_unavailable']);
      assert.deepEqual(await counts(workspaceId), { plots: 2, queued: 0, events: 0, units: 0 });

      const standard = await seedWorkspace(app.services.store, 'standard');
      const theirs = await insertSitePlot(em, standard.workspaceId, CLEARED);
      const refused = await scanAndAdjudicate(standard.key, { plot_ids: [theirs] });
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'plan_tier_required']);
      assert.equal((await scan(standard.key, `plot_id=${theirs}`)).status, 200, 'a scan is free on every plan');
      for (const [body, code] of [[{}, 'no_plots'], [{ plot_ids: 'x' }, 'bad_plot_ids'], [{ plot_ids: [cleared], product: 'glad' }, 'bad_product']] as const) {
        assert.equal((await scanAndAdjudicate(key, body)).body.error.code, code);
      }
    });
  });
}
