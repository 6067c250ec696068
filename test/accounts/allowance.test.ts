import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { admitReads, allowanceStatus, chargeRead, chargeReads } from '../../src/accounts/allowance.ts';
import { HTTP_STATUS } from '../../src/api/errors.ts';
import { DomainError } from '../../src/errors.ts';
import { Workspace, type Plan } from '../../src/store/entities/index.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';

const DAY = 86_400_000;
const now = new Date('2026-06-30T12:00:00Z');

for (const backend of BACKENDS) {
  describe(`evidence allowance (${backend})`, () => {
    let db: TestStore;
    before(async () => {
      db = await testStore(backend);
    });
    after(() => db.close());

    async function workspace(plan: Plan) {
      const em = db.store.em();
      const w = em.create(Workspace, { id: crypto.randomUUID(), name: plan, plan });
      await em.flush();
      return { id: w.id, plan: w.plan };
    }

    /** Writes `n` finished reads, `ageDays` old, each for its own read. */
    async function reads(w: { id: string }, n: number, ageDays = 1) {
      const at = new Date(now.getTime() - ageDays * DAY);
      await chargeReads(db.store.em(), Array.from({ length: n }, () => ({ workspaceId: w.id, plotId: crypto.randomUUID(), readId: crypto.randomUUID(), at })));
    }

    const refusal = (code: string, pattern?: RegExp) => (err: unknown) =>
      err instanceof DomainError && HTTP_STATUS[err.code] === 403 && err.code === code && (!pattern || pattern.test(err.message));

    test('Standard refuses plot evidence, naming the plan that unlocks it', async () => {
      const w = await workspace('standard');
      await assert.rejects(admitReads(db.store.em(), w, 1, 0, now), refusal('plan_tier_required', /Professional plan unlocks it/));
    });

    test('Trial at 199 reads admits one more and not two', async () => {
      const w = await workspace('trial');
      await reads(w, 199);
      const admitted = await admitReads(db.store.em(), w, 1, 0, now);
      assert.deepEqual(admitted, { cap: 200, used: 199, used_after: 200 });
      await assert.rejects(admitReads(db.store.em(), w, 2, 0, now), refusal('evidence_cap', /199 used .*1 remaining; this call asks for 2/));
    });

    test('Trial at 200 reads refuses the 201st, stating used and remaining', async () => {
      const w = await workspace('trial');
      await reads(w, 200);
      await assert.rejects(admitReads(db.store.em(), w, 1, 0, now), refusal('evidence_cap', /200 used .*0 remaining/));
    });

    test('reads queued or in flight count against the cap before they finish', async () => {
      const w = await workspace('trial');
      await reads(w, 150);
      await assert.rejects(admitReads(db.store.em(), w, 10, 45, now), refusal('evidence_cap', /195 used \(150 read, 45 queued or reading\), 5 remaining/));
      assert.equal((await admitReads(db.store.em(), w, 5, 45, now)).used_after, 200);
    });

    test('a unit older than 30 days no longer counts', async () => {
      const w = await workspace('trial');
      await reads(w, 200, 30.01);
      await reads(w, 3, 29.99);
      assert.equal((await allowanceStatus(db.store.em(), w, now)).used, 3);
      assert.equal((await admitReads(db.store.em(), w, 197, 0, now)).used_after, 200);
    });

    test('a rerun of the same plot costs one more unit; the same read is never charged twice', async () => {
      const w = await workspace('trial');
      const plotId = crypto.randomUUID();
      const em = db.store.em();
      const firstRead = crypto.randomUUID();
      await chargeRead(em, { workspaceId: w.id, plotId, readId: firstRead, at: now });
      await chargeRead(em, { workspaceId: w.id, plotId, readId: crypto.randomUUID(), at: now });
      assert.equal((await allowanceStatus(db.store.em(), w, now)).used, 2);
      await assert.rejects(chargeRead(db.store.em(), { workspaceId: w.id, plotId, readId: firstRead, at: now }));
      assert.equal((await allowanceStatus(db.store.em(), w, now)).used, 2);
    });

    test('Professional and Enterprise are uncapped', async () => {
      for (const plan of ['professional', 'enterprise'] as const) {
        const w = await workspace(plan);
        await reads(w, 250);
        assert.deepEqual(await admitReads(db.store.em(), w, 1000, 0, now), { cap: null, used: 250, used_after: 1250 });
      }
    });
  });
}
