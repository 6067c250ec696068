/**
 * Alerts over the demo sites read by the evidence engine, end to end on both backends: an alert
 * point on an established rubber garden, read over its constructed 4 ha square as a boundary,
 * answers `prior_management`; the published alert over the forest cleared in 2022, found by a
 * scan and adjudicated from its bounding box, answers `unresolved`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_GFW_API_KEY } from '../../src/demo/api-transport.ts';
import { openDemoAlerts } from '../../src/demo/open-archive.ts';
import { openArchive } from '../../src/engine/archive.ts';
import { type EvidenceWorker, startEvidenceWorker } from '../../src/reading-service/job-runner.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { type ArchiveServer, serveDemoArchive } from '../support/archive-server.ts';
import { demoWorld } from '../support/demo-world.ts';
import { insertSitePlot, seedWorkspace, site, waitUntilRead } from '../engine/evidence-helpers.ts';

const RUBBER = 'th-surat-thani-rubber';
const CLEARED = 'ci-tai-cleared-2022';

for (const backend of BACKENDS) {
  describe(`alerts over the demo sites (${backend})`, () => {
    let app: TestApp;
    let server: ArchiveServer;
    let worker: EvidenceWorker;
    before(async () => {
      app = await startTestApp(backend, { POOL_SIZE: '2' });
      const { root } = await demoWorld();
      server = await serveDemoArchive(root);
      app.services.alerts = openDemoAlerts(app.dataDir, root);
      const archive = await openArchive({ kind: 'demo', dataDir: app.dataDir, root: server.url, gfwApiKey: DEMO_GFW_API_KEY });
      worker = await startEvidenceWorker({ ...app.services, queue: app.services.queue! }, { archive });
    });
    after(async () => {
      worker.stopTaking();
      await worker.close();
      await server.close();
      await app.close();
    });

    test('an alert on an established rubber site answers prior_management; the published alert over a cleared forest, unresolved', async () => {
      const { workspaceId, key } = await seedWorkspace(app.services.store, 'professional');
      const [point] = (await app.call('POST', '/api/v1/eudr/alerts/adjudicate', {
        key,
        body: [{ ref: 'RUBBER-REPLANT', geometry: { type: 'Point', coordinates: site(RUBBER).centre }, alert_date: '2024-03-01', country: 'TH', commodity: 'rubber' }],
      })).body;
      assert.equal(point.read_window.constructed, true);
      const forest = await insertSitePlot(app.services.store.em(), workspaceId, CLEARED);
      const scanned = await app.call('POST', '/api/v1/eudr/alerts/scan-and-adjudicate', { key, body: { plot_ids: [forest] } });
      assert.equal(scanned.status, 202);
      const [cleared] = scanned.body.adjudicated;
      assert.equal(scanned.body.plots[0].alerts[0].adjudicated_as, 'bbox');

      await waitUntilRead(app.services.store.em(), workspaceId);
      const answer = async (id: string) => (await app.call('GET', `/api/v1/eudr/alerts/${id}`, { key })).body;
      const onRubber = await answer(point.plot_id);
      assert.equal(onRubber.state, 'done');
      assert.equal(onRubber.evidence.verdict, 'prior_management_evidenced', JSON.stringify(onRubber.evidence.reasons));
      assert.equal(onRubber.adjudication.outcome, 'prior_management');
      assert.match(onRubber.adjudication.statement, /replanting on an established plot/);
      assert.deepEqual([onRubber.ahead, onRubber.issued], [0, onRubber.evidence.issued]);
      assert.ok(onRubber.evidence.calibration, 'the evidence carries its calibration');

      const onForest = await answer(cleared.plot_id);
      assert.equal(onForest.state, 'done');
      assert.notEqual(onForest.evidence.verdict, 'prior_management_evidenced');
      assert.equal(onForest.adjudication.outcome, 'unresolved');
      assert.match(onForest.adjudication.statement, /passed for review/);
    });
  });
}
