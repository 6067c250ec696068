/**
 * `Idempotency-Key` on the routes that create or charge, on both backends: a repeat of the same
 * request answers the first answer and does nothing again; the key on another request is 409; a
 * refused request leaves its key free; keys are the workspace's own and kept 24 hours.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { claimKey, KEEP_MS, recordAnswer } from '../../src/store/idempotency-keys.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type Reply, type TestApp } from '../support/app.ts';
import { assertDocumented } from '../support/openapi.ts';
import { insertSitePlot, seedWorkspace } from '../engine/evidence-helpers.ts';

const SHIPMENTS = '/api/v1/portal/statements/shipments';
const RUN = '/api/v1/portal/plots/evidence';
const IMPORT = '/api/v1/portal/plots/import?country=GH';

const point = (ref: string, lon: number, lat: number) => ({ type: 'Feature', properties: { ref, commodity: 'cocoa' }, geometry: { type: 'Point', coordinates: [lon, lat] } });
const book = (...features: unknown[]) => Buffer.from(JSON.stringify({ type: 'FeatureCollection', features }));

for (const backend of BACKENDS) {
  describe(`Idempotency-Key (${backend})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(backend);
    });
    after(() => app.close());

    const withKey = (key: string, idempotencyKey: string, body: unknown) => ({ key, body, headers: { 'idempotency-key': idempotencyKey } });
    const count = async (table: string, workspaceId: string) =>
      Number((await app.services.store.em().execute<{ n: string }[]>(`select count(*) as n from ${table} where workspace_id = ?`, [workspaceId]))[0].n);

    test('a shipment sent again with its key answers the first answer and makes no second shipment; key order in the body does not count', async () => {
      const { key, workspaceId } = await seedWorkspace(app.services.store);
      const first = await app.call('POST', SHIPMENTS, withKey(key, 'ship-1', { reference: 'IDEM-1', commodity: 'cocoa', hs_code: '1801' }));
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const again = await app.call('POST', SHIPMENTS, withKey(key, 'ship-1', { hs_code: '1801', commodity: 'cocoa', reference: 'IDEM-1' }));
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      assert.equal(await count('shipments', workspaceId), 1);
      // Without the key the same body is a new request, refused as a repeated reference.
      assert.equal((await app.call('POST', SHIPMENTS, { key, body: { reference: 'IDEM-1' } })).body.error.code, 'duplicate_reference');
    });

    test('the key sent with another body answers 409 idempotency_key_reused and writes nothing', async () => {
      const { key, workspaceId } = await seedWorkspace(app.services.store);
      assert.equal((await app.call('POST', SHIPMENTS, withKey(key, 'ship-2', { reference: 'IDEM-2' }))).status, 201);
      const other = await app.call('POST', SHIPMENTS, withKey(key, 'ship-2', { reference: 'IDEM-3' }));
      assert.equal(other.status, 409);
      assert.equal(other.body.error.code, 'idempotency_key_reused');
      assert.equal(await count('shipments', workspaceId), 1);
    });

    test('a refused request leaves its key free for the corrected one', async () => {
      const { key } = await seedWorkspace(app.services.store);
      const refused = await app.call('POST', SHIPMENTS, withKey(key, 'ship-4', { reference: 'IDEM-4', hs_code: 'x' }));
      assert.equal(refused.status, 422);
      assert.equal(refused.body.error.code, 'bad_hs_code');
      const corrected = await app.call('POST', SHIPMENTS, withKey(key, 'ship-4', { reference: 'IDEM-4', hs_code: '1801' }));
      assert.equal(corrected.status, 201);
      assert.equal(corrected.body.reference, 'IDEM-4');
    });

    test('keys are each workspace\'s own: the same key in two workspaces makes two shipments', async () => {
      const a = await seedWorkspace(app.services.store);
      const b = await seedWorkspace(app.services.store);
      const ra = await app.call('POST', SHIPMENTS, withKey(a.key, 'shared-key', { reference: 'IDEM-5' }));
      const rb = await app.call('POST', SHIPMENTS, withKey(b.key, 'shared-key', { reference: 'IDEM-5' }));
      assert.equal(ra.status, 201);
      assert.equal(rb.status, 201);
      assert.notEqual(ra.body.id, rb.body.id);
      assert.equal(rb.headers.get('idempotent-replayed'), null);
    });

    test('a run sent again with its key answers the first job and charges nothing more', async () => {
      const { key, workspaceId } = await seedWorkspace(app.services.store);
      const plotA = await insertSitePlot(app.services.store.em(), workspaceId, 'id-kalbar-rubber');
      const plotB = await insertSitePlot(app.services.store.em(), workspaceId, 'th-surat-thani-rubber');
      const first = await app.call('POST', RUN, withKey(key, 'run-1', { plot_ids: [plotA] }));
      assert.equal(first.status, 202);
      assert.equal(first.body.queued, 1);
      const again = await app.call('POST', RUN, withKey(key, 'run-1', { plot_ids: [plotA] }));
      assert.equal(again.status, 202);
      assert.deepEqual(again.body, first.body);
      const next = await app.call('POST', RUN, { key, body: { plot_ids: [plotB] } });
      assert.equal(next.status, 202);
      assert.notEqual(next.body.job_id, first.body.job_id);
      assert.equal(next.body.used_after, first.body.used_after + 1, 'the repeat took nothing from the allowance');
    });

    test('an import sent again with its key answers the first report; another file with the key is 409', async () => {
      const { key, workspaceId } = await seedWorkspace(app.services.store);
      const upload = async (bytes: Buffer, idempotencyKey: string): Promise<Reply> => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(bytes)]), 'plots.geojson');
        const res = await fetch(app.url + IMPORT, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey }, body: form });
        const parsed = await res.json();
        assertDocumented('POST', IMPORT, res.status, parsed);
        return { status: res.status, body: parsed, headers: res.headers };
      };
      const file = book(point('IK-1', -1.6, 6.7), point('IK-2', -1.61, 6.7));
      const first = await upload(file, 'import-1');
      assert.equal(first.status, 200);
      assert.equal(first.body.imported.created, 2);
      const again = await upload(file, 'import-1');
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body, 'the first report, not a second import that finds the plots held');
      assert.equal(await count('plots', workspaceId), 2);
      const other = await upload(book(point('IK-3', -1.6, 6.7)), 'import-1');
      assert.equal(other.status, 409);
      assert.equal(other.body.error.code, 'idempotency_key_reused');
      assert.equal(await count('plots', workspaceId), 2);
    });

    test('a key that is no printable ASCII token is refused with 422 bad_idempotency_key', async () => {
      const { key, workspaceId } = await seedWorkspace(app.services.store);
      for (const bad of ['has space', 'x'.repeat(256)]) {
        const r = await app.call('POST', SHIPMENTS, withKey(key, bad, { reference: 'IDEM-6' }));
        assert.equal(r.status, 422);
        assert.equal(r.body.error.code, 'bad_idempotency_key');
      }
      assert.equal(await count('shipments', workspaceId), 0);
    });

    test('a key is kept 24 hours: within them a repeat is answered from it, after them the key is new', async () => {
      const { workspaceId } = await seedWorkspace(app.services.store);
      const em = () => app.services.store.em();
      const at = new Date('2026-03-02T09:00:00Z');
      assert.deepEqual(await claimKey(em(), workspaceId, 'kept', 'digest-a', at), { kind: 'claimed' });
      assert.deepEqual(await claimKey(em(), workspaceId, 'kept', 'digest-a', at), { kind: 'in_flight' });
      await recordAnswer(em(), workspaceId, 'kept', 201, 'application/json', '{"id":1}');
      const later = new Date(at.getTime() + KEEP_MS - 1000);
      assert.deepEqual(await claimKey(em(), workspaceId, 'kept', 'digest-a', later), { kind: 'answered', status: 201, contentType: 'application/json', answer: '{"id":1}' });
      assert.deepEqual(await claimKey(em(), workspaceId, 'kept', 'digest-b', later), { kind: 'other_request' });
      assert.deepEqual(await claimKey(em(), workspaceId, 'kept', 'digest-b', new Date(at.getTime() + KEEP_MS + 1000)), { kind: 'claimed' });
    });
  });
}
