/**
 * Studio boundaries and /eudr/exoneration without a worker (spec 4.6, 5.5, 7.6) on both backends:
 * saving, listing and deleting boundaries; a portal key refused on every studio route and on studio
 * families with no route, before routing; the Landsat half queued once however many calls arrive;
 * the answer served from the optical half while the Landsat half is queued; the export's refusals.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { sealEvidence } from '../../src/engine/integrity.ts';
import { completeAnalysis, failAnalysis } from '../../src/store/register/studio.ts';
import { INTERRUPTED } from '../../src/reading-service/boundary-reads.ts';
import { QUEUES } from '../../src/store/queue.ts';
import { BACKENDS } from '../support/db.ts';
import { assertDocumented } from '../support/openapi.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedWorkspace } from '../engine/evidence-helpers.ts';
import { fixtureEvidence, fixtureFootprint, fixtureKey, fixtureMap } from '../fixtures/evidence-wrapper.ts';

const BOUNDARIES = '/api/v1/studio/boundaries';
const EXONERATION = '/api/v1/eudr/exoneration';

async function memberKey(app: TestApp, workspaceId: string): Promise<string> {
  return (await runAdminCommand(app.services.store, ['key', 'mint'], { workspace: workspaceId, role: 'member' })).api_key as string;
}

async function analyses(app: TestApp, boundaryId: string) {
  return app.services.store.em().execute<{ id: string; half: string; state: string; job_id: string | null }[]>(
    'select id, half, state, job_id from boundary_analyses where boundary_id = ? order by half', [boundaryId]);
}

/** Jobs on the studio queue that read one of the boundary's analyses. */
async function studioJobs(app: TestApp, boundaryId: string): Promise<number> {
  const ids = (await analyses(app, boundaryId)).map((a) => a.id);
  const [{ n }] = await app.services.store.em().execute<{ n: string | number }[]>(
    `select count(*) as n from pgboss.job where name = ? and data->'plotIds'->>0 = any(?::text[])`, [QUEUES.studio.name, `{${ids.join(',')}}`]);
  return Number(n);
}

/** Publishes a half (the optical one unless named) as a worker would, with a fixture object. */
async function publishHalf(app: TestApp, workspaceId: string, boundaryId: string, half: 'optical' | 'merged' = 'optical'): Promise<void> {
  const optical = (await analyses(app, boundaryId)).find((a) => a.half === half)!;
  const evidence = fixtureEvidence();
  const outcome = await completeAnalysis(app.services.store.em(), {
    workspaceId, analysisId: optical.id, jobId: optical.job_id!, evidence, integrity: sealEvidence(evidence, fixtureKey()), map: await fixtureMap(),
  });
  assert.equal(outcome, 'stored');
}

for (const backend of BACKENDS) {
  describe(`studio boundaries and /eudr/exoneration without a worker (${backend})`, () => {
    let app: TestApp;
    let workspaceId: string;
    let portalKey: string;
    let key: string;
    const save = (body: unknown, as = key) => app.call('POST', BOUNDARIES, { key: as, body });
    const boundary = (name = 'North block') => ({ name, geometry: fixtureFootprint(), country: 'TH' });

    before(async () => {
      app = await startTestApp(backend);
      ({ workspaceId, key: portalKey } = await seedWorkspace(app.services.store, 'professional'));
      key = await memberKey(app, workspaceId);
    });
    after(() => app.close());

    test('saves a boundary with its optical half queued, lists it, reads it back and deletes it', async () => {
      const saved = await save(boundary());
      assert.equal(saved.status, 201);
      assert.equal(saved.body.name, 'North block');
      assert.equal(saved.body.country, 'TH');
      assert.deepEqual(saved.body.analyses, { optical: 'queued', merged: null });
      assert.deepEqual(saved.body.geometry, fixtureFootprint());
      assert.ok(saved.body.area_ha > 1 && saved.body.area_ha < 100);
      const listed = await app.call('GET', BOUNDARIES, { key });
      assert.ok(listed.body.boundaries.some((b: { id: string }) => b.id === saved.body.id));
      const one = await app.call('GET', `${BOUNDARIES}/${saved.body.id}`, { key });
      assert.deepEqual(one.body, saved.body);
      assertDocumented('GET', `${BOUNDARIES}/${saved.body.id}`, 200, one.body);
      assert.equal(await studioJobs(app, saved.body.id), 1);

      assert.equal((await app.call('DELETE', `${BOUNDARIES}/${saved.body.id}`, { key })).status, 204);
      assert.equal((await app.call('GET', `${BOUNDARIES}/${saved.body.id}`, { key })).status, 404);
      assert.equal((await app.call('DELETE', `${BOUNDARIES}/${saved.body.id}`, { key })).body.error.code, 'not_found');
      assert.deepEqual(await analyses(app, saved.body.id), []);
    });

    test('refuses a boundary without a name, with an open ring, without area or past the read cap', async () => {
      const square = (size: number) => ({ type: 'Polygon', coordinates: [[[100, 10], [100 + size, 10], [100 + size, 10 + size], [100, 10 + size], [100, 10]]] });
      const cases: Array<[unknown, string]> = [
        [{ geometry: square(0.01) }, 'name_required'],
        [{ name: '  ', geometry: square(0.01) }, 'name_required'],
        [{ name: 'x', geometry: { type: 'Point', coordinates: [100, 10] } }, 'bad_geometry'],
        [{ name: 'x', geometry: { type: 'Polygon', coordinates: [[[100, 10], [100.01, 10], [100.01, 10.01], [100, 10.02]]] } }, 'bad_geometry'],
        [{ name: 'x', geometry: { type: 'Polygon', coordinates: [[[100, 10], [100.01, 10], [100.02, 10], [100, 10]]] } }, 'bad_geometry'],
        [{ name: 'x', geometry: square(1) }, 'bad_geometry'],
        [{ name: 'x', geometry: { type: 'Polygon', coordinates: [[[200, 10], [200.01, 10], [200.01, 10.01], [200, 10]]] } }, 'bad_geometry'],
        [{ name: 'x', geometry: square(0.01), country: 'Atlantis' }, 'unknown_country'],
      ];
      for (const [body, code] of cases) {
        const r = await save(body);
        assert.equal(r.status, 422, JSON.stringify(body));
        assert.equal(r.body.error.code, code, JSON.stringify(body));
      }
      assert.match((await save({ name: 'x', geometry: square(1) })).body.error.message, /split it/);
    });

    test('a boundary of another workspace, or an id that is none, is not found on every studio route', async () => {
      const other = await seedWorkspace(app.services.store, 'professional');
      const theirs = (await save(boundary('theirs'), await memberKey(app, other.workspaceId))).body.id as string;
      for (const id of [theirs, 'not-an-id']) {
        for (const [method, path] of [['GET', `${BOUNDARIES}/${id}`], ['DELETE', `${BOUNDARIES}/${id}`], ['GET', `${EXONERATION}?aoi_id=${id}`], ['GET', `${EXONERATION}/export?aoi_id=${id}&format=json`]]) {
          const r = await app.call(method, path, { key });
          assert.equal(r.status, 404, `${method} ${path}`);
          assert.equal(r.body.error.code, 'not_found');
        }
      }
      assert.equal((await app.call('GET', EXONERATION, { key })).body.error.code, 'aoi_id_required');
    });

    test('a portal key is refused 403 forbidden on every studio route and on studio families without a route, before routing', async () => {
      const id = (await save(boundary())).body.id as string;
      const routes: Array<[string, string, unknown?]> = [
        ['POST', BOUNDARIES, boundary()],
        ['GET', BOUNDARIES],
        ['GET', `${BOUNDARIES}/${id}`],
        ['DELETE', `${BOUNDARIES}/${id}`],
        ['GET', `${EXONERATION}?aoi_id=${id}`],
        ...(['pdf', 'compliance', 'csv', 'json'].map((f) => ['GET', `${EXONERATION}/export?aoi_id=${id}&format=${f}`] as [string, string])),
      ];
      routes.push(['POST', `${BOUNDARIES}/${id}/read`]);
      for (const [method, path, body] of routes) {
        const r = await app.call(method, path, { key: portalKey, body });
        assert.equal(r.status, 403, `${method} ${path}`);
        assert.equal(r.body.error.code, 'forbidden');
        assert.match(r.body.error.message, /portal members use the portal endpoints/);
      }
      // Where no route exists: the portal key learns nothing of the family; a member key meets the router's answers.
      for (const [method, path] of [['GET', '/api/v1/eudr/exoneration/nowhere'], ['POST', EXONERATION], ['GET', '/api/v1/studio/nowhere'], ['PUT', '/api/v1/somewhere-else']]) {
        const refused = await fetch(app.url + path, { method, headers: { authorization: `Bearer ${portalKey}` } });
        assert.equal(refused.status, 403, `${method} ${path}`);
        assert.equal((await refused.json()).error.code, 'forbidden');
        const member = await fetch(app.url + path, { method, headers: { authorization: `Bearer ${key}` } });
        assert.ok([404, 405].includes(member.status), `${method} ${path} as a member: ${member.status}`);
      }
      // Nothing was touched by the refused calls.
      assert.equal((await app.call('GET', `${BOUNDARIES}/${id}`, { key })).status, 200);
      assert.equal((await analyses(app, id)).length, 1);
      // The portal families and the open routes are the portal key's as before.
      assert.equal((await app.call('GET', '/api/v1/portal/plots', { key: portalKey })).status, 200);
      assert.notEqual((await fetch(`${app.url}/api/v1/health`, { headers: { authorization: `Bearer ${portalKey}` } })).status, 403);
    });

    test('a Trial or Standard workspace is refused 403 plan_tier_required on every studio route, naming the plans that have them, and saves nothing', async () => {
      for (const plan of ['trial', 'standard']) {
        const seeded = await seedWorkspace(app.services.store, plan);
        const member = await memberKey(app, seeded.workspaceId);
        const id = crypto.randomUUID();
        const routes: Array<[string, string, unknown?]> = [
          ['POST', BOUNDARIES, boundary()],
          ['GET', BOUNDARIES],
          ['GET', `${BOUNDARIES}/${id}`],
          ['POST', `${BOUNDARIES}/${id}/read`],
          ['DELETE', `${BOUNDARIES}/${id}`],
          ['GET', `${EXONERATION}?aoi_id=${id}`],
          ['GET', `${EXONERATION}/export?aoi_id=${id}&format=pdf`],
        ];
        for (const [method, path, body] of routes) {
          const r = await app.call(method, path, { key: member, body });
          assert.equal(r.status, 403, `${plan}: ${method} ${path}`);
          assert.equal(r.body.error.code, 'plan_tier_required');
          assert.match(r.body.error.message, new RegExp(`^the ${plan[0]!.toUpperCase()}${plan.slice(1)} plan .*; studio boundaries and their evidence come with the Professional and Enterprise plans$`));
        }
        const [{ n }] = await app.services.store.em().execute<{ n: string | number }[]>('select count(*) as n from studio_boundaries where workspace_id = ?', [seeded.workspaceId]);
        assert.equal(Number(n), 0);
      }
    });

    test('each published half of a boundary\'s read is one unit of the allowance; a failed half costs nothing until it is read again and published', async () => {
      const seeded = await seedWorkspace(app.services.store, 'professional');
      const member = await memberKey(app, seeded.workspaceId);
      const used = async () => (await app.call('GET', '/api/v1/portal/plots/evidence/summary', { key: member })).body.used as number;
      const id = (await save(boundary('Charged'), member)).body.id as string;
      assert.equal(await used(), 0, 'saving queues a read and charges nothing yet');
      await publishHalf(app, seeded.workspaceId, id);
      assert.equal(await used(), 1);
      assert.equal((await app.call('GET', `${EXONERATION}?aoi_id=${id}`, { key: member })).status, 200);
      const merged = (await analyses(app, id)).find((a) => a.half === 'merged')!;
      await failAnalysis(app.services.store.em(), { workspaceId: seeded.workspaceId, analysisId: merged.id, jobId: merged.job_id!, error: 'The archive could not be read (timeout)' });
      assert.equal(await used(), 1, 'a failed half costs nothing');
      assert.deepEqual((await app.call('POST', `${BOUNDARIES}/${id}/read`, { key: member })).body.analyses, { optical: 'done', merged: 'queued' });
      await publishHalf(app, seeded.workspaceId, id, 'merged');
      assert.equal(await used(), 2);
    });

    test('the Landsat half is queued once across repeated and concurrent calls, before and after the optical half lands', async () => {
      const id = (await save(boundary('Once'))).body.id as string;
      // Before the optical half lands: no evidence, but the first calls still queue the Landsat half, once.
      const early = await Promise.all(Array.from({ length: 6 }, () => app.call('GET', `${EXONERATION}?aoi_id=${id}`, { key })));
      for (const r of early) {
        assert.equal(r.status, 409);
        assert.equal(r.body.error.code, 'no_evidence');
        assert.match(r.body.error.message, /optical read is queued/);
      }
      const halves = await analyses(app, id);
      assert.deepEqual(halves.map((a) => [a.half, a.state]), [['merged', 'queued'], ['optical', 'queued']]);
      assert.equal(await studioJobs(app, id), 2);

      await publishHalf(app, workspaceId, id);
      const later = await Promise.all([
        ...Array.from({ length: 4 }, () => app.call('GET', `${EXONERATION}?aoi_id=${id}`, { key })),
        app.call('GET', `${EXONERATION}/export?aoi_id=${id}&format=json`, { key }),
      ]);
      for (const r of later) {
        assert.equal(r.status, 200);
        assert.equal(r.body.landsat.state, 'queued');
        assert.equal(r.body.landsat.error, null);
        assert.deepEqual(r.body.sensors, r.body.read.sensors);
        assert.equal(r.body.verdict, fixtureEvidence().verdict);
      }
      assert.equal(await studioJobs(app, id), 2);
      assert.equal((await app.call('GET', `${BOUNDARIES}/${id}`, { key })).body.analyses.merged, 'queued');
    });

    test('a boundary saved and asked for at once from many calls queues its Landsat half once', async () => {
      const ids = await Promise.all(Array.from({ length: 3 }, (_, i) => save(boundary(`Race ${i}`)).then((r) => r.body.id as string)));
      await Promise.all(ids.flatMap((id) => Array.from({ length: 5 }, () => app.call('GET', `${EXONERATION}/export?aoi_id=${id}&format=csv`, { key }))));
      for (const id of ids) {
        assert.deepEqual((await analyses(app, id)).map((a) => a.half), ['merged', 'optical']);
        assert.equal(await studioJobs(app, id), 2);
      }
    });

    test('the export refuses an unknown format with bad_format, and a layer with no trajectory with bad_layer', async () => {
      const id = (await save(boundary('Layers'))).body.id as string;
      for (const format of ['', 'xlsx', 'PDF']) {
        const r = await app.call('GET', `${EXONERATION}/export?aoi_id=${id}&format=${format}`, { key });
        assert.equal(r.status, 422);
        assert.equal(r.body.error.code, 'bad_format');
        assert.match(r.body.error.message, /pdf, compliance, csv, json/);
      }
      assert.equal((await app.call('GET', `${EXONERATION}/export?aoi_id=${id}`, { key })).body.error.code, 'bad_format');
      await publishHalf(app, workspaceId, id);
      const merged = await app.call('GET', `${EXONERATION}/export?aoi_id=${id}&format=csv&layer=merged`, { key });
      assert.equal(merged.status, 422);
      assert.equal(merged.body.error.code, 'bad_layer');
      assert.match(merged.body.error.message, /merged layer .* has no trajectory: its read is queued/);
      assert.equal((await app.call('GET', `${EXONERATION}/export?aoi_id=${id}&format=csv&layer=ndvi`, { key })).body.error.code, 'bad_layer');
      const optical = await app.call('GET', `${EXONERATION}/export?aoi_id=${id}&format=json&layer=optical`, { key });
      assert.equal(optical.status, 200);
      assert.equal(optical.body.landsat.state, 'queued');
      const long = await app.call('GET', `${EXONERATION}/export?aoi_id=${id}&format=compliance&operator=${'x'.repeat(201)}`, { key });
      assert.equal(long.body.error.code, 'bad_cover_field');
    });

    test('a half whose job stopped is marked failed; a failed Landsat half is reported and read again on request, once', async () => {
      const id = (await save(boundary('Stranded'))).body.id as string;
      const [optical] = await analyses(app, id);
      await app.services.queue!.boss.cancel(QUEUES.studio.name, optical.job_id!);
      const stranded = await app.call('GET', `${EXONERATION}?aoi_id=${id}`, { key });
      assert.equal(stranded.status, 409);
      assert.ok(stranded.body.error.message.includes(INTERRUPTED), stranded.body.error.message);
      assert.deepEqual((await analyses(app, id)).map((a) => [a.half, a.state]), [['merged', 'queued'], ['optical', 'failed']]);

      const again = await app.call('POST', `${BOUNDARIES}/${id}/read`, { key });
      assert.equal(again.status, 200);
      assert.deepEqual(again.body.analyses, { optical: 'queued', merged: 'queued' });
      assert.equal(await studioJobs(app, id), 3);
      await Promise.all([1, 2, 3].map(() => app.call('POST', `${BOUNDARIES}/${id}/read`, { key })));
      assert.equal(await studioJobs(app, id), 3, 'a half queued is not queued again');

      await publishHalf(app, workspaceId, id);
      const merged = (await analyses(app, id)).find((a) => a.half === 'merged')!;
      await failAnalysis(app.services.store.em(), { workspaceId, analysisId: merged.id, jobId: merged.job_id!, error: 'The archive could not be read (timeout): no answer in 30 s' });
      const failed = await app.call('GET', `${EXONERATION}?aoi_id=${id}`, { key });
      assert.equal(failed.status, 200);
      assert.deepEqual([failed.body.landsat.state, failed.body.landsat.error], ['failed', 'The archive could not be read (timeout): no answer in 30 s']);
      assert.equal(failed.body.verdict, fixtureEvidence().verdict);
      assert.equal(await studioJobs(app, id), 3, 'a failed half is not queued again by a read of the evidence');
      assert.deepEqual((await app.call('POST', `${BOUNDARIES}/${id}/read`, { key })).body.analyses, { optical: 'done', merged: 'queued' });
      assert.equal(await studioJobs(app, id), 4);
      const requeued = await app.call('GET', `${EXONERATION}?aoi_id=${id}`, { key });
      assert.deepEqual([requeued.body.landsat.state, requeued.body.landsat.error], ['queued', null]);
    });

    test('a deleted boundary\'s read in flight writes nothing', async () => {
      const id = (await save(boundary('Gone'))).body.id as string;
      const [optical] = await analyses(app, id);
      await app.call('DELETE', `${BOUNDARIES}/${id}`, { key });
      const evidence = fixtureEvidence();
      const outcome = await completeAnalysis(app.services.store.em(), {
        workspaceId, analysisId: optical.id, jobId: optical.job_id!, evidence, integrity: sealEvidence(evidence, fixtureKey()), map: await fixtureMap(),
      });
      assert.equal(outcome, 'superseded');
    });
  });
}
