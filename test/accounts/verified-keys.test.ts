/**
 * Verified API keys (src/accounts/verified-keys.ts) on both backends. Each process keeps its own
 * entries and shares only the database, so two VerifiedKeys over one store stand for two API
 * processes: a key revoked through one is refused by the other as soon as the revocation answers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mintKey, revokeKey } from '../../src/accounts/keys.ts';
import { verifiedKeys } from '../../src/accounts/verified-keys.ts';
import { createWorkspace, setPlan } from '../../src/accounts/workspaces.ts';
import { BACKENDS, testStore, type TestStore } from '../support/db.ts';

const TTL_MS = 400;
/** Long enough that a loaded machine cannot let the entry expire between two statements. */
const LONG_TTL_MS = 3000;

for (const backend of BACKENDS) {
  describe(`verified API keys (${backend})`, () => {
    let db: TestStore;
    let workspaceId: string;
    const em = () => db.store.em();
    const mint = async () => (await mintKey(em(), { workspaceId, role: 'portal', createdBy: null })).key;

    before(async () => {
      db = await testStore(backend);
      const { workspace } = await createWorkspace(em(), { name: 'Keys', plan: 'trial', email: `${randomUUID()}@keys.test`, password: 'key words here', role: 'member' });
      workspaceId = workspace.id;
    });
    after(() => db.close());

    test('a key revoked through one process is refused by another that had just verified it, once the revocation answers', async () => {
      const [one, other] = [verifiedKeys(TTL_MS), verifiedKeys(TTL_MS)];
      const key = await mint();
      const verified = await other.verify(em(), key);
      assert.deepEqual(verified && { workspaceId: verified.workspaceId, role: verified.role, plan: verified.plan }, { workspaceId, role: 'portal', plan: 'trial' });
      assert.ok(await one.verify(em(), key));
      const started = performance.now();
      await revokeKey(em(), one, workspaceId, verified!.keyId);
      const took = performance.now() - started;
      assert.equal(await other.verify(em(), key), null);
      assert.equal(await one.verify(em(), key), null);
      assert.ok(took >= TTL_MS, `the revocation answered after ${took} ms, once no process could still hold the key`);
    });

    test('a verified key is taken from memory for the cache time, then read again: a key revoked by hand is refused within it', async () => {
      const keys = verifiedKeys(LONG_TTL_MS);
      const key = await mint();
      const readAt = performance.now();
      const verified = await keys.verify(em(), key);
      assert.ok(verified);
      await em().execute('update api_keys set revoked_at = now() where id = ?', [verified.keyId]);
      assert.ok(await keys.verify(em(), key), 'within the cache time the key is not read again');
      await new Promise((r) => setTimeout(r, LONG_TTL_MS - (performance.now() - readAt) + 20));
      assert.equal(await keys.verify(em(), key), null);
    });

    test('calls with one key that land together wait on one read of it', async () => {
      const keys = verifiedKeys(LONG_TTL_MS);
      const key = await mint();
      const reads: string[] = [];
      const base = em();
      // The database as the calls see it, noting each statement sent.
      const counting = new Proxy(base, {
        get: (target, name) => {
          if (name === 'execute') return (sql: string, ...rest: unknown[]) => { reads.push(sql); return (target.execute as (...a: unknown[]) => unknown).call(target, sql, ...rest); };
          const value = Reflect.get(target, name, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const seats = await Promise.all(Array.from({ length: 50 }, () => keys.verify(counting, key)));
      assert.ok(seats.every((seat) => seat !== null && seat.keyId === seats[0]!.keyId));
      assert.equal(reads.filter((sql) => /from api_keys/.test(sql)).length, 1);
    });

    test('an unknown key is never kept: a key minted after a refusal works at once', async () => {
      const keys = verifiedKeys(TTL_MS);
      assert.equal(await keys.verify(em(), 'pce_unknown_key'), null);
      const key = await mint();
      assert.ok(await keys.verify(em(), key));
    });

    test('with KEY_CACHE_MS=0 every call reads the key, and revoking does not wait', async () => {
      const keys = verifiedKeys(0);
      const key = await mint();
      const verified = await keys.verify(em(), key);
      await setPlan(em(), workspaceId, 'enterprise');
      assert.equal((await keys.verify(em(), key))?.plan, 'enterprise');
      await revokeKey(em(), keys, workspaceId, verified!.keyId);
      assert.equal(await keys.verify(em(), key), null);
      // Asked of the cache, not of a clock a loaded machine slows: with nothing kept it answers before this turn of the loop ends, where any wait is a timer.
      const turnEnded = new Promise((resolve) => setImmediate(resolve, 'waited'));
      assert.equal(await Promise.race([keys.revoked(verified!.keyId).then(() => 'at once'), turnEnded]), 'at once');
    });
  });
}
