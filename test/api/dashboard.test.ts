/**
 * The portal's dashboard (spec 4.10), on both backends: the register by evidence state, verdict,
 * state and next step with its post-cutoff loss, the open alert cases by severity, the shipments and
 * how far their plots are read, and the allowance, each counted from a workspace built for it; the
 * register's counts agree with the book summary's; a portal key reaches it and another workspace's
 * plots are not counted.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { NO_ARCHIVE_COVERS } from '../../src/engine/next-step.ts';
import type { Severity } from '../../src/store/entities/index.ts';
import { closeCase, openCase } from '../../src/store/register/alert-queue.ts';
import { insertPlot, type PlotSpec } from '../documents/book.ts';
import { fixtureEvidence, fixtureMap } from '../fixtures/evidence-wrapper.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { assertDocumented } from '../support/openapi.ts';

const DASHBOARD = '/api/v1/portal/dashboard';

for (const backend of BACKENDS) {
  describe(`dashboard (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let workspaceId: string;
    const ids: Record<string, string> = {};

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Rubber Co', plan: 'trial', email: 'o@rubber.test', password: 'rubber pass' });
      key = created.api_key as string;
      workspaceId = created.workspace_id as string;
      const em = () => app.services.store.em();
      const map = await fixtureMap(false);
      const weak = fixtureEvidence({ seed: 5, edit: (e) => { e.verdict = 'prior_management_weak'; e.reason = 'evergreen_canopy_unsupported'; e.reasons = ['evergreen_canopy_unsupported']; } });
      const plots: Record<string, PlotSpec> = {
        positive: { ref: 'D-POSITIVE', area_ha: 9, state: 'done', evidence: fixtureEvidence({ seed: 3 }) },
        weak: { ref: 'D-WEAK', area_ha: 9, state: 'done', evidence: weak },
        sea: { ref: 'D-SEA', area_ha: 9, state: 'failed' },
        queued: { ref: 'D-QUEUED', area_ha: 9, state: 'queued' },
        rejected: { ref: 'D-REJECTED', area_ha: 9, state: 'none', validation: 'rejected' },
        unread: { ref: 'D-UNREAD', area_ha: 9, state: 'none' },
      };
      for (const [name, spec] of Object.entries(plots)) ids[name] = await insertPlot(em(), workspaceId, spec, app.services.signingKey, map);
      await em().execute('update plots set evidence_error = ? where id = ?', [`The read could not be completed: ${NO_ARCHIVE_COVERS}: nothing was read`, ids.sea]);
      await em().execute('update plots set post_cutoff_loss_share = 0.5 where id = ?', [ids.weak]);
      for (const plotId of [ids.positive, ids.weak]) {
        await em().execute('insert into evidence_units (id, workspace_id, plot_id, read_id, used_at) values (?, ?, ?, ?, now())', [randomUUID(), workspaceId, plotId, randomUUID()]);
      }

      const at = new Date('2025-02-01T00:00:00Z');
      const opening = (plotId: string, severity: Severity) => em().transactional(async (tx) => openCase(tx, at, {
        workspaceId, monitorId: randomUUID(), plotId, product: 'radd', firstDate: '2025-01-02', lastDate: '2025-01-20', confidence: 'high', pixels: 300, areaHa: 3,
        flaggedAreaKm2: 0.03, severity, centroid: null, bbox: null, source: {},
      }).id);
      await opening(ids.weak, 'high');
      await opening(ids.positive, 'low');
      assert.ok(await closeCase(em(), workspaceId, await opening(ids.positive, 'medium'), 'A fire break cut in 2024.', at));

      const shipment = async (reference: string, plotIds: string[]) => {
        const r = await app.call('POST', '/api/v1/portal/statements/shipments', { key, body: { reference, commodity: 'rubber', ...(plotIds.length > 0 && { plot_ids: plotIds }) } });
        assert.equal(r.status, 201);
      };
      await shipment('READ-BATCH', [ids.positive, ids.weak]);
      await shipment('WAITING-BATCH', [ids.queued, ids.unread]);
      await shipment('EMPTY-BATCH', []);

      // Another workspace's plot and case count nowhere here.
      const other = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Other', plan: 'trial', email: 'x@other.test', password: 'other pass' });
      await insertPlot(em(), other.workspace_id as string, { ref: 'OTHER', area_ha: 9, state: 'done', evidence: fixtureEvidence({ seed: 9 }) }, app.services.signingKey, map);
    });
    after(() => app.close());

    test('counts the register by state, verdict and next step, its post-cutoff loss, the open cases by severity, the shipments and the allowance', async () => {
      const r = await app.call('GET', DASHBOARD, { key });
      assert.equal(r.status, 200);
      assertDocumented('GET', DASHBOARD, 200, r.body);
      const d = r.body;
      assert.equal(d.plots, 6);
      assert.deepEqual(d.evidence_states, { none: 2, queued: 1, running: 0, done: 2, failed: 1 });
      assert.deepEqual(d.verdicts, { prior_management_evidenced: 1, prior_management_weak: 1, no_prior_management_evidenced: 0, insufficient_record: 0 });
      assert.deepEqual(Object.fromEntries(Object.entries(d.next_steps).filter(([, n]) => n !== 0)), {
        archive_imagery_review: 1, check_location: 1, await_read: 1, correct_and_upload_again: 1, run_evidence: 1,
      });
      assert.deepEqual(d.post_cutoff_loss, { plots: 1, area_ha: 4.5 });
      assert.deepEqual(d.open_alert_cases, { total: 2, low: 1, medium: 0, high: 1 });
      assert.deepEqual(d.shipments, { total: 3, all_read: 1, waiting_on_reads: 1 });
      assert.deepEqual(d.allowance, { plan: 'trial', cap: 200, used: 2, in_flight: 1, remaining: 197 });
    });

    test('its register counts are the book summary\'s', async () => {
      const d = (await app.call('GET', DASHBOARD, { key })).body;
      const book = (await app.call('GET', '/api/v1/portal/plots/summary', { key })).body;
      for (const field of ['plots', 'evidence_states', 'state_tones', 'verdicts', 'next_steps', 'post_cutoff_loss', 'archive_review_price']) assert.deepEqual(d[field], book[field], field);
    });

    test('a portal key reaches it (the workspace\'s first key is one, as above) and a member key too; no key is refused', async () => {
      const member = (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'member' })).api_key as string;
      assert.equal((await app.call('GET', DASHBOARD, { key: member })).body.plots, 6);
      assert.equal((await app.call('GET', DASHBOARD)).status, 401);
    });
  });
}
