/**
 * The studio's boundary analyses as a job holds them (reading-service/boundary-reads.ts): a job takes
 * the halves it still holds to running, and puts back to queued those it took and did not read.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createWorkspace } from '../../src/accounts/workspaces.ts';
import { boundaryReads } from '../../src/reading-service/boundary-reads.ts';
import { boundaryAnalyses, claimHalf, holdHalf, insertBoundary } from '../../src/store/register/studio.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';

for (const backend of BACKENDS) {
  describe(`boundary analyses a job holds (${backend})`, () => {
    let db: TestStore;
    let workspaceId: string;
    const em = () => db.store.em();

    before(async () => {
      db = await testStore(backend);
      const { workspace } = await createWorkspace(em(), { name: 'Studio', plan: 'trial', email: `${randomUUID()}@studio.test`, password: 'correct horse', role: 'member' });
      workspaceId = workspace.id;
    });
    after(() => db.close());

    /** A boundary with its optical half claimed and held by `jobId`: the boundary's id and the half's. */
    async function heldHalf(jobId: string): Promise<{ boundaryId: string; analysisId: string }> {
      const boundaryId = randomUUID();
      const analysisId = randomUUID();
      await em().transactional(async (tx) => {
        await insertBoundary(tx, {
          id: boundaryId, workspaceId, name: 'North block', areaHa: 12.5, country: 'CI',
          geometry: { type: 'Polygon', coordinates: [[[-5.5, 6.8], [-5.49, 6.8], [-5.49, 6.81], [-5.5, 6.81], [-5.5, 6.8]]] },
        });
        assert.equal(await claimHalf(tx, workspaceId, boundaryId, 'optical', analysisId), analysisId);
        await holdHalf(tx, analysisId, jobId);
      });
      return { boundaryId, analysisId };
    }

    const stateOf = async (boundaryId: string) => (await boundaryAnalyses(em(), workspaceId, boundaryId)).optical?.state;

    test('a job takes the halves it holds to running, and puts back to queued those it did not read', async () => {
      const jobId = randomUUID();
      const mine = await heldHalf(jobId);
      const theirs = await heldHalf(randomUUID());
      const taken = await boundaryReads.take(em(), workspaceId, jobId, [mine.analysisId, theirs.analysisId]);
      assert.deepEqual([...taken.keys()], [mine.analysisId]);
      assert.equal(taken.get(mine.analysisId)?.ref, 'North block');
      assert.deepEqual(taken.get(mine.analysisId)?.sensors, ['sentinel-2']);
      assert.equal(await stateOf(mine.boundaryId), 'running');
      assert.equal(await stateOf(theirs.boundaryId), 'queued');
      // Another job's put-back moves nothing; the holder's moves its half back to queued.
      await boundaryReads.putBack(em(), workspaceId, randomUUID(), [mine.analysisId]);
      assert.equal(await stateOf(mine.boundaryId), 'running');
      await boundaryReads.putBack(em(), workspaceId, jobId, [mine.analysisId, theirs.analysisId]);
      assert.equal(await stateOf(mine.boundaryId), 'queued');
      assert.equal(await stateOf(theirs.boundaryId), 'queued');
    });
  });
}
