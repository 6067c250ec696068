/**
 * The register module's spec 3.1 transitions, on both backends: each writes what the spec says
 * in one transaction, and only while the job that read the plot still holds it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createWorkspace } from '../../src/accounts/workspaces.ts';
import { sealEvidence } from '../../src/engine/integrity.ts';
import { liveEvidence } from '../../src/store/register/evidence.ts';
import { insertPlots, updatePlots, type PlotColumns } from '../../src/store/register/imports.ts';
import { heldPlotPlaces } from '../../src/store/register/plots.ts';
import { complete, completeAll, fail, markRunning, queue, recover, type FinishedRead } from '../../src/store/register/transitions.ts';
import { fixtureEvidence, fixtureKey, fixtureMap } from '../fixtures/evidence-wrapper.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';

/** These plots belong to no shipment, so no batch completes: a batch's event that is built fails the test. */
const NO_BATCH = (): object => assert.fail('no plot here is in a shipment');

const square = (lon: number, lat: number): PlotColumns['geometry'] => ({
  type: 'Polygon',
  coordinates: [[[lon, lat], [lon + 0.01, lat], [lon + 0.01, lat + 0.01], [lon, lat + 0.01], [lon, lat]]],
});

function plot(ref: string, lon = 99.1): PlotColumns {
  return {
    id: randomUUID(), external_ref: ref, commodity: 'rubber', country: 'TH', area_ha: 9.2, declared_area_ha: null,
    geometry: square(lon, 8.8), validation_state: 'valid', validation_report: { findings: [], repairs: [], rejections: [] },
    planted_year: null, producer_id: null,
  };
}

for (const backend of BACKENDS) {
  describe(`register transitions (${backend})`, () => {
    let db: TestStore;
    let workspaceId: string;
    const em = () => db.store.em();

    before(async () => {
      db = await testStore(backend);
      const { workspace } = await createWorkspace(em(), { name: 'Acme', plan: 'trial', email: `${randomUUID()}@acme.test`, password: 'correct horse', role: 'member' });
      workspaceId = workspace.id;
    });
    after(() => db.close());

    async function registered(...plots: PlotColumns[]): Promise<string[]> {
      await em().transactional((tx) => insertPlots(tx, workspaceId, plots));
      return plots.map((p) => p.id);
    }

    async function queued(jobId: string, ...plots: PlotColumns[]): Promise<string[]> {
      const ids = await registered(...plots);
      await em().transactional((tx) => queue(tx, jobId, ids));
      return ids;
    }

    async function row(plotId: string) {
      const [r] = await em().execute<{ evidence_state: string; evidence_job_id: string | null; verdict: string | null; reason: string | null; evidence_error: string | null; evidence_facts: object | null }[]>(
        'select evidence_state, evidence_job_id, verdict, reason, evidence_error, evidence_facts from plots where id = ?', [plotId]);
      return r;
    }

    async function count(sql: string, params: unknown[]): Promise<number> {
      const [{ n }] = await em().execute<{ n: number | string }[]>(sql, params);
      return Number(n);
    }

    const events = (plotId: string, type: string) => count(`select count(*) as n from outbox where type = ? and data->>'plot_id' = ?`, [type, plotId]);
    const units = (plotId: string) => count('select count(*) as n from evidence_units where plot_id = ?', [plotId]);

    async function finishedRead(plotId: string, jobId: string): Promise<FinishedRead> {
      const evidence = fixtureEvidence();
      return {
        readId: randomUUID(), workspaceId, plotId, jobId, evidence, integrity: sealEvidence(evidence, fixtureKey()), map: await fixtureMap(),
        facts: { seasons_measured: 4, landsat_2020: 'outside_moist_forest' },
      };
    }

    test('queue moves plots to queued under the job and clears a failed read\'s reason', async () => {
      const first = randomUUID();
      const [id] = await queued(first, plot('Q-1'));
      assert.deepEqual(await row(id), { evidence_state: 'queued', evidence_job_id: first, verdict: null, reason: null, evidence_error: null, evidence_facts: null });
      await fail(em(), { workspaceId, plotId: id, jobId: first, error: 'The read could not be completed', at: new Date() }, () => ({}), NO_BATCH);
      const retry = randomUUID();
      await em().transactional((tx) => queue(tx, retry, [id]));
      assert.deepEqual(await row(id), { evidence_state: 'queued', evidence_job_id: retry, verdict: null, reason: null, evidence_error: null, evidence_facts: null });
    });

    test('a rerun queued over finished evidence clears the register\'s copy of the finding while the new read is in flight', async () => {
      const jobId = randomUUID();
      const [id] = await queued(jobId, plot('Q-2'));
      await complete(em(), await finishedRead(id, jobId), () => ({}), NO_BATCH);
      assert.notEqual((await row(id)).verdict, null);
      await em().transactional((tx) => queue(tx, randomUUID(), [id]));
      assert.deepEqual({ ...(await row(id)), evidence_job_id: null }, { evidence_state: 'queued', evidence_job_id: null, verdict: null, reason: null, evidence_error: null, evidence_facts: null });
      const [copies] = await em().execute<{ evidence_at: unknown; post_cutoff_loss_share: unknown }[]>('select evidence_at, post_cutoff_loss_share from plots where id = ?', [id]);
      assert.deepEqual(copies, { evidence_at: null, post_cutoff_loss_share: null });
      assert.equal((await liveEvidence(em(), workspaceId, id))?.stored, null);
    });

    test('the plots a job holds come with a vertex of each, a point, polygon or multipolygon, for the order it reads them in', async () => {
      const jobId = randomUUID();
      const point = { ...plot('P-point'), geometry: { type: 'Point', coordinates: [101.25, 2.5] } as PlotColumns['geometry'] };
      const polygon = plot('P-polygon', 99.4);
      const multi = { ...plot('P-multi'), geometry: { type: 'MultiPolygon', coordinates: [square(-55.5, -10.25)!.coordinates as number[][][]] } as PlotColumns['geometry'] };
      const [pointId, polygonId, multiId] = await queued(jobId, point, polygon, multi);
      await queued(randomUUID(), plot('P-other-job'));
      const places = await heldPlotPlaces(em(), workspaceId, jobId);
      assert.deepEqual(places.sort((a, b) => a.lon - b.lon), [
        { id: multiId, lon: -55.5, lat: -10.25 },
        { id: polygonId, lon: 99.4, lat: 8.8 },
        { id: pointId, lon: 101.25, lat: 2.5 },
      ]);
    });

    test('markRunning moves the queued plots of its own job to running in one statement, and leaves a plot another job holds', async () => {
      const jobId = randomUUID();
      const [id, second] = await queued(jobId, plot('R-1'), plot('R-2'));
      const [other] = await queued(randomUUID(), plot('R-3'));
      assert.deepEqual(await markRunning(em(), workspaceId, [id], randomUUID()), []);
      assert.equal((await row(id)).evidence_state, 'queued');
      assert.deepEqual((await markRunning(em(), workspaceId, [id, other, second], jobId)).sort(), [id, second].sort());
      assert.equal((await row(id)).evidence_state, 'running');
      assert.equal((await row(second)).evidence_state, 'running');
      assert.equal((await row(other)).evidence_state, 'queued');
      // Taken again (a resumed job), a running plot of the job is still its own.
      assert.deepEqual(await markRunning(em(), workspaceId, [id], jobId), [id]);
      assert.deepEqual(await markRunning(em(), workspaceId, [], jobId), []);
    });

    test('complete moves a running plot to done and writes its evidence, unit and event in one transaction', async () => {
      const jobId = randomUUID();
      const [id] = await queued(jobId, plot('C-1'));
      await markRunning(em(), workspaceId, [id], jobId);
      const read = await finishedRead(id, jobId);
      const outcome = await complete(em(), read, (p) => ({ plot_id: p.id, ref: p.external_ref }), NO_BATCH);
      assert.equal(outcome, 'stored');
      const r = await row(id);
      assert.equal(r.evidence_state, 'done');
      assert.equal(r.verdict, read.evidence.verdict);
      assert.equal(r.reason, read.evidence.reason);
      assert.deepEqual(r.evidence_facts, read.facts);
      assert.equal(await units(id), 1);
      assert.equal(await events(id, 'plot.evidence.completed'), 1);
      const live = await liveEvidence(em(), workspaceId, id);
      assert.deepEqual(live?.stored?.object, read.evidence);
      assert.deepEqual(live?.stored?.integrity, read.integrity);
      assert.deepEqual(live?.stored?.map.footprint, read.map.footprint);
      assert.ok(live?.stored?.chipPng?.equals(read.map.chip!.png));
    });

    test('complete writes nothing when the job no longer holds the plot, so a read is paid for once', async () => {
      const jobId = randomUUID();
      const [id] = await queued(jobId, plot('C-2'));
      const read = await finishedRead(id, jobId);
      assert.equal(await complete(em(), read, () => ({}), NO_BATCH), 'stored');
      assert.equal(await complete(em(), { ...read, readId: randomUUID() }, () => ({}), NO_BATCH), 'superseded');
      await em().transactional((tx) => queue(tx, randomUUID(), [id]));
      assert.equal(await complete(em(), await finishedRead(id, jobId), () => ({}), NO_BATCH), 'superseded');
      assert.equal(await units(id), 1);
      assert.equal(await count('select count(*) as n from evidence where plot_id = ?', [id]), 1);
    });

    test('completeAll stores a job\'s group of reads in one transaction, each as complete would, and skips a plot the job no longer holds', async () => {
      const jobId = randomUUID();
      const ids = await queued(jobId, plot('G-1'), plot('G-2', 99.2), plot('G-3', 99.3));
      // The third plot was read before and queued again; the second has since gone to another job.
      await complete(em(), await finishedRead(ids[2], jobId), (p) => ({ plot_id: p.id }), NO_BATCH);
      await em().transactional((tx) => queue(tx, jobId, [ids[2]]));
      await em().transactional((tx) => queue(tx, randomUUID(), [ids[1]]));
      const reads = await Promise.all(ids.map((id) => finishedRead(id, jobId)));
      // Each plot's own facts reach its row.
      reads[0].facts = { seasons_measured: 2, landsat_2020: 'outside_moist_forest' };
      const outcomes = await completeAll(em(), reads, (p) => ({ plot_id: p.id }), NO_BATCH);
      assert.deepEqual(outcomes, ['stored', 'superseded', 'stored']);
      const first = await row(ids[0]);
      assert.equal(first.evidence_state, 'done');
      assert.equal(first.reason, reads[0].evidence.reason);
      assert.deepEqual(first.evidence_facts, reads[0].facts);
      assert.deepEqual((await row(ids[2])).evidence_facts, reads[2].facts);
      assert.equal((await row(ids[1])).evidence_state, 'queued');
      for (const [k, n] of [1, 0, 2].entries()) {
        assert.equal(await units(ids[k]), n);
        assert.equal(await events(ids[k], 'plot.evidence.completed'), n);
      }
      // The third plot's earlier evidence stays, no longer current.
      assert.equal(await count('select count(*) as n from evidence where plot_id = ? and current', [ids[2]]), 1);
      assert.equal(await count('select count(*) as n from evidence where plot_id = ?', [ids[2]]), 2);
      assert.deepEqual((await liveEvidence(em(), workspaceId, ids[2]))?.stored?.object, reads[2].evidence);
    });

    test('a rejected write leaves nothing behind: evidence, unit, event and state roll back together', async () => {
      const jobId = randomUUID();
      const [id] = await queued(jobId, plot('C-3'));
      await assert.rejects(complete(em(), await finishedRead(id, jobId), () => {
        throw new Error('event could not be built');
      }, NO_BATCH));
      assert.equal((await row(id)).evidence_state, 'queued');
      assert.equal(await units(id), 0);
      assert.equal(await count('select count(*) as n from evidence where plot_id = ?', [id]), 0);
    });

    test('fail records the reason and the failed event, and charges nothing', async () => {
      const jobId = randomUUID();
      const [id] = await queued(jobId, plot('F-1'));
      const at = new Date();
      assert.equal(await fail(em(), { workspaceId, plotId: id, jobId, error: 'The archive could not be read', at }, (p) => ({ plot_id: p.id }), NO_BATCH), 'stored');
      const r = await row(id);
      assert.equal(r.evidence_state, 'failed');
      assert.equal(r.evidence_error, 'The archive could not be read');
      assert.equal(await events(id, 'plot.evidence.failed'), 1);
      assert.equal(await units(id), 0);
      assert.equal(await fail(em(), { workspaceId, plotId: id, jobId, error: 'again', at }, () => ({}), NO_BATCH), 'superseded');
    });

    test('recover fails plots left in flight by a dead job and leaves a live job\'s plots alone', async () => {
      const dead = randomUUID();
      const live = randomUUID();
      const [a, b] = await queued(dead, plot('V-1'), plot('V-2'));
      const [c] = await queued(live, plot('V-3'));
      await markRunning(em(), workspaceId, [b], dead);
      const moved = await recover(em(), workspaceId, [dead], 'interrupted', new Date(), (p) => ({ plot_id: p.id }), NO_BATCH);
      assert.equal(moved, 2);
      for (const id of [a, b]) {
        assert.equal((await row(id)).evidence_state, 'failed');
        assert.equal(await events(id, 'plot.evidence.failed'), 1);
      }
      assert.equal((await row(c)).evidence_state, 'queued');
    });

    test('withdraw on a moved boundary marks finished evidence stale: the plot returns to none without its verdict', async () => {
      const jobId = randomUUID();
      const done = plot('W-1');
      await queued(jobId, done);
      await complete(em(), await finishedRead(done.id, jobId), () => ({}), NO_BATCH);
      await em().transactional((tx) => updatePlots(tx, workspaceId, [{ ...done, geometry: square(99.2, 8.8), moved: true }]));
      const r = await row(done.id);
      assert.equal(r.evidence_state, 'none');
      assert.equal(r.verdict, null);
      assert.equal(r.reason, null);
      assert.equal(r.evidence_facts, null);
      assert.equal((await liveEvidence(em(), workspaceId, done.id))?.stored, null);
    });

    test('a moved boundary leaves a read in flight as it is, and an unmoved one leaves finished evidence', async () => {
      const jobId = randomUUID();
      const inFlight = plot('W-2');
      const finished = plot('W-3');
      await queued(jobId, inFlight, finished);
      await complete(em(), await finishedRead(finished.id, jobId), () => ({}), NO_BATCH);
      await em().transactional((tx) => updatePlots(tx, workspaceId, [
        { ...inFlight, geometry: square(99.3, 8.8), moved: true },
        { ...finished, commodity: 'cocoa', moved: false },
      ]));
      assert.equal((await row(inFlight.id)).evidence_state, 'queued');
      assert.equal((await row(finished.id)).evidence_state, 'done');
    });

    test('a stored evidence object that fails its schema is refused where it is read, never served', async () => {
      const jobId = randomUUID();
      const [id] = await queued(jobId, plot('S-1'));
      await complete(em(), await finishedRead(id, jobId), () => ({}), NO_BATCH);
      await em().execute(`update evidence set object = object - 'verdict' where plot_id = ?`, [id]);
      await assert.rejects(liveEvidence(em(), workspaceId, id), /not a stored evidence object/);
    });
  });
}
