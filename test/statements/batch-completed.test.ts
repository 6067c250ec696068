/**
 * `batch.completed` (spec 6.2), on both backends: written into the outbox in the transaction of the
 * read that leaves a shipment with no readable plot waiting, once per completion, and again when a
 * plot on it is read again.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createWorkspace } from '../../src/accounts/workspaces.ts';
import { batchCompletedEvent, failedEvent, recordFailure, storeEvidence } from '../../src/reading-service/evidence-store.ts';
import { sealEvidence } from '../../src/engine/integrity.ts';
import { insertPlots, type PlotColumns } from '../../src/store/register/imports.ts';
import { queue, recover } from '../../src/store/register/transitions.ts';
import { createShipment } from '../../src/statements/shipments.ts';
import { fixtureEvidence, fixtureKey, fixtureMap } from '../fixtures/evidence-wrapper.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';
import { assertEventDocumented } from '../support/openapi.ts';
import { square } from './facts.ts';

const LINKS = { baseUrl: 'https://evidence.example/api/v1' };

function plot(ref: string, over: Partial<PlotColumns> = {}): PlotColumns {
  return {
    id: randomUUID(), external_ref: ref, commodity: 'rubber', country: 'TH', area_ha: 9.2, declared_area_ha: null, geometry: square(99.1, 8.8),
    validation_state: 'valid', validation_report: { findings: [], repairs: [], rejections: [] }, planted_year: null, producer_id: null, ...over,
  };
}

for (const backend of BACKENDS) {
  describe(`batch.completed (${backend})`, () => {
    let db: TestStore;
    let workspaceId: string;
    const em = () => db.store.em();

    before(async () => {
      db = await testStore(backend);
      const { workspace } = await createWorkspace(em(), { name: 'Acme', plan: 'trial', email: `${randomUUID()}@acme.test`, password: 'correct horse', role: 'member' });
      workspaceId = workspace.id;
    });
    after(() => db.close());

    async function batchEvents(shipmentId: string): Promise<Record<string, unknown>[]> {
      const rows = await em().execute<{ data: unknown }[]>(`select data from outbox where type = 'batch.completed' and data->>'shipment_id' = ? order by created_at`, [shipmentId]);
      for (const r of rows) assertEventDocumented('batch.completed', r.data);
      return rows.map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>);
    }

    async function read(plotId: string): Promise<void> {
      const jobId = randomUUID();
      await em().transactional((tx) => queue(tx, jobId, [plotId]));
      const evidence = fixtureEvidence();
      const outcome = await storeEvidence(em(), {
        readId: randomUUID(), workspaceId, plotId, jobId, evidence, integrity: sealEvidence(evidence, fixtureKey()), map: await fixtureMap(false),
        facts: { seasons_measured: 4, landsat_2020: 'outside_moist_forest' },
      }, LINKS);
      assert.equal(outcome, 'stored');
    }

    async function failRead(plotId: string): Promise<void> {
      const jobId = randomUUID();
      await em().transactional((tx) => queue(tx, jobId, [plotId]));
      assert.equal(await recordFailure(em(), { workspaceId, plotId, jobId, error: 'The archive could not be read', at: new Date() }, LINKS), 'stored');
    }

    test('sent once when the last readable plot is read (a failed read counts as read), not before; a rejected plot does not hold it back', async () => {
      const [a, b] = [plot('A-1'), plot('A-2')];
      const rejected = plot('A-3', { validation_state: 'rejected', geometry: null });
      await em().transactional((tx) => insertPlots(tx, workspaceId, [a, b, rejected]));
      const s = await createShipment(em(), workspaceId, { reference: 'BATCH-A', commodity: 'rubber', plot_ids: [a.id, b.id, rejected.id] });
      await read(a.id);
      assert.deepEqual(await batchEvents(s.id), []);
      await failRead(b.id);
      assert.deepEqual(await batchEvents(s.id), [{
        shipment_id: s.id, reference: 'BATCH-A', commodity: 'rubber', plots: 3, read: 1, failed: 1, findings: 1, without_finding: 0,
        shipment_url: `${LINKS.baseUrl}/portal/statements/shipments/${s.id}`, report_url: `${LINKS.baseUrl}/portal/statements/shipments/${s.id}/report.pdf`,
      }]);
    });

    test('sent again when a plot on a completed batch is read again, once per read', async () => {
      const p = plot('B-1');
      await em().transactional((tx) => insertPlots(tx, workspaceId, [p]));
      const s = await createShipment(em(), workspaceId, { reference: 'BATCH-B', plot_ids: [p.id] });
      await read(p.id);
      assert.equal((await batchEvents(s.id)).length, 1);
      await read(p.id);
      assert.equal((await batchEvents(s.id)).length, 2);
    });

    test('a plot on two batches completes each; a batch without the plot hears nothing', async () => {
      const shared = plot('C-1');
      const elsewhere = plot('C-2');
      await em().transactional((tx) => insertPlots(tx, workspaceId, [shared, elsewhere]));
      const one = await createShipment(em(), workspaceId, { reference: 'BATCH-C1', plot_ids: [shared.id] });
      const two = await createShipment(em(), workspaceId, { reference: 'BATCH-C2', plot_ids: [shared.id] });
      const other = await createShipment(em(), workspaceId, { reference: 'BATCH-C3', plot_ids: [elsewhere.id] });
      await read(shared.id);
      assert.equal((await batchEvents(one.id)).length, 1);
      assert.equal((await batchEvents(two.id)).length, 1);
      assert.equal((await batchEvents(other.id)).length, 0);
    });

    test('plots an interrupted job left in flight complete their batch once when they are recovered', async () => {
      const [a, b] = [plot('D-1'), plot('D-2')];
      await em().transactional((tx) => insertPlots(tx, workspaceId, [a, b]));
      const s = await createShipment(em(), workspaceId, { reference: 'BATCH-D', plot_ids: [a.id, b.id] });
      const dead = randomUUID();
      await em().transactional((tx) => queue(tx, dead, [a.id, b.id]));
      const at = new Date();
      const moved = await recover(em(), workspaceId, [dead], 'interrupted', at, (p) => failedEvent(p, 'interrupted', at), (batch) => batchCompletedEvent(batch, LINKS));
      assert.equal(moved, 2);
      const events = await batchEvents(s.id);
      assert.equal(events.length, 1);
      assert.equal(events[0].failed, 2);
    });
  });
}
