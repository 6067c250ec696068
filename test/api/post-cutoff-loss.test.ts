/**
 * Loss of moist forest after the cutoff told where the user looks (spec 2.8.4 rule 4; it changes no
 * verdict), on both backends: a cocoa shipment of three plots, one with all its moist forest lost in
 * 2021, one with half of it (2.96 ha) lost in 2022 under an open alert case, one with none. The
 * register filters and counts them, the book summary and its CSV count them, page 1 of the evidence
 * PDF says so, and the shipment report has a section for them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { pdfText } from '../documents/pdf-text.ts';
import { cocoaShipment, type CocoaShipment } from './post-cutoff-shipment.ts';

for (const backend of BACKENDS) {
  describe(`post-cutoff loss as a headline (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let batch: CocoaShipment;
    const get = (path: string) => app.call('GET', `/api/v1${path}`, { key });
    const pdf = async (path: string) => {
      // A fresh connection: a render on a loaded machine can outlast the server's keep-alive on a reused one.
      const res = await fetch(`${app.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } });
      assert.equal(res.status, 200, path);
      return pdfText(Buffer.from(await res.arrayBuffer()));
    };

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Cocoa Importer', plan: 'trial', email: 'c@cocoa.test', password: 'cocoa pass' });
      key = created.api_key as string;
      batch = await cocoaShipment(app, created.workspace_id as string, key);
    });
    after(() => app.close());

    test('the register filters on it, and each row carries its share and the open alert cases beside it', async () => {
      const lost = await get('/portal/plots?post_cutoff_loss=true');
      assert.equal(lost.status, 200);
      assert.deepEqual(lost.body.plots.map((p: { external_ref: string }) => p.external_ref), ['CI-ALL', 'CI-HALF']);
      assert.deepEqual(lost.body.plots.map((p: { post_cutoff_loss_share: number }) => p.post_cutoff_loss_share), [1, 0.5]);
      assert.deepEqual(lost.body.plots.map((p: { open_alert_cases: number }) => p.open_alert_cases), [0, 1]);
      assert.deepEqual([lost.body.total, lost.body.total_exact], [2, true]);
      const kept = await get('/portal/plots?post_cutoff_loss=false');
      assert.deepEqual(kept.body.plots.map((p: { external_ref: string }) => p.external_ref), ['CI-NONE']);
      // It narrows with the other filters, not instead of them.
      assert.deepEqual((await get('/portal/plots?post_cutoff_loss=true&q=half')).body.plots.map((p: { external_ref: string }) => p.external_ref), ['CI-HALF']);
      // The verdicts stand as read: the loss changes none.
      assert.deepEqual(lost.body.plots.map((p: { verdict: string }) => p.verdict), ['prior_management_weak', 'prior_management_weak']);
      const refused = await get('/portal/plots?post_cutoff_loss=yes');
      assert.equal(refused.status, 422);
      assert.equal(refused.body.error.code, 'bad_post_cutoff_loss');
      assert.equal((await get(`/portal/plots/${batch.half.id}`)).body.open_alert_cases, 1);
    });

    test('the book summary counts the plots and hectares, and its CSV gives each plot\'s share', async () => {
      const summary = await get('/portal/plots/summary');
      assert.deepEqual(summary.body.post_cutoff_loss, { plots: 2, area_ha: Number((batch.all.area_ha + 0.5 * batch.half.area_ha).toFixed(2)) });
      const csv = await fetch(`${app.url}/api/v1/portal/plots/summary?format=csv`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.text());
      const [head, ...lines] = csv.trim().split('\r\n').map((l) => l.split(','));
      const column = head.indexOf('post_cutoff_loss_share');
      assert.ok(column > 0);
      assert.deepEqual(Object.fromEntries(lines.map((l) => [l[1], l[column]])), { 'CI-ALL': '1', 'CI-HALF': '0.5', 'CI-NONE': '' });
    });

    test('page 1 of the evidence PDF leads with the loss; a plot without loss has no such line', async () => {
      const half = (await pdf(`/portal/plots/${batch.half.id}/evidence.pdf`)).pages[0].replace(/\s+/g, ' ');
      assert.ok(half.includes('Moist forest on 50% of this plot (2.96 ha) was lost in 2022: the EUDR cutoff is 31 December 2020'), half.slice(0, 600));
      const all = (await pdf(`/portal/plots/${batch.all.id}/evidence.pdf`)).pages[0].replace(/\s+/g, ' ');
      assert.ok(all.includes(`Moist forest on 100% of this plot (${batch.all.area_ha} ha) was lost in 2021, 2022: the EUDR cutoff`), all.slice(0, 600));
      const none = (await pdf(`/portal/plots/${batch.none.id}/evidence.pdf`)).text;
      assert.ok(!none.includes('was lost in'));
    });

    test('the statement is formally ready, with the evidence warnings beside it: two plots with loss, one open case', async () => {
      const check = await get(`/portal/statements/shipments/${batch.shipmentId}/statement?format=json`);
      assert.equal(check.status, 200);
      assert.deepEqual(check.body.problems, []);
      assert.equal(check.body.ready, true);
      const byCode = (code: string) => check.body.evidence_warnings.filter((w: { code: string }) => w.code === code).map((w: { external_ref: string }) => w.external_ref);
      assert.deepEqual(byCode('post_cutoff_loss'), ['CI-ALL', 'CI-HALF']);
      assert.deepEqual(byCode('open_alert_case'), ['CI-HALF']);
      assert.deepEqual(byCode('no_positive_finding'), ['CI-ALL', 'CI-HALF', 'CI-NONE']);
      assert.deepEqual(byCode('synthetic_evidence'), ['CI-ALL', 'CI-HALF', 'CI-NONE']);
      assert.deepEqual(byCode('not_read'), []);
      const half = check.body.evidence_warnings.find((w: { code: string; external_ref: string }) => w.code === 'post_cutoff_loss' && w.external_ref === 'CI-HALF');
      assert.equal(half.message, 'Moist forest on 50% of this plot (2.96 ha) was lost in 2022: the EUDR cutoff is 31 December 2020.');
      assert.equal(check.body.evidence_summary,
        'Formally complete; 2 of 3 plots show forest loss after the cutoff; 1 of 3 plots have an open alert case; 3 of 3 plots have no positive finding; 3 of 3 plots were read from the synthetic demo archive');
      // The files are still given: the warnings block nothing the information system would take.
      assert.equal((await fetch(`${app.url}/api/v1/portal/statements/shipments/${batch.shipmentId}/statement?format=xml`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
    });

    test('the statement page of the shipment report says "formally complete" with the warnings, never a plain "can be built"', async () => {
      const pages = (await pdf(`/portal/statements/shipments/${batch.shipmentId}/report.pdf`)).pages;
      const last = pages[pages.length - 1].replace(/\s+/g, ' ');
      assert.ok(last.includes('Formally complete; 2 of 3 plots show forest loss after the cutoff'), last);
      assert.ok(last.includes('Evidence warnings'), last);
      assert.ok(!last.includes('Nothing: the statement can be built'), last);
      for (const ref of ['CI-ALL', 'CI-HALF']) assert.ok(last.includes(ref), ref);
    });

    test('the shipment report has a section naming the plots with loss, their share and their open cases', async () => {
      const text = (await pdf(`/portal/statements/shipments/${batch.shipmentId}/report.pdf`)).text.replace(/\s+/g, ' ');
      const section = text.slice(text.indexOf('Forest lost after the cutoff'), text.indexOf('Every plot'));
      assert.ok(section.includes('2 of 3 plots of this batch show moist forest lost after the EUDR cutoff'), section);
      assert.ok(section.includes('CI-ALL') && section.includes('CI-HALF') && !section.includes('CI-NONE'), section);
      assert.ok(section.includes('CI-HALF 5.92 50% 2.96 1'), section);
    });
  });
}
