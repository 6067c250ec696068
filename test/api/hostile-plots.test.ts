import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { startEvidenceWorker } from '../../src/reading-service/job-runner.ts';
import { demoWorld } from '../support/demo-world.ts';
import { insertSitePlot, plotRow, seedWorkspace, waitUntilRead } from '../engine/evidence-helpers.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { assertDocumented } from '../support/openapi.ts';

const point = (properties: Record<string, unknown>, lon = -1.6, lat = 6.7) => ({
  type: 'Feature',
  properties: { commodity: 'cocoa', area_ha: 2, ...properties },
  geometry: { type: 'Point', coordinates: [lon, lat] },
});

/** A square of `side` degrees near Kumasi: 0.03 degrees is about 1,100 ha. */
const square = (ref: string, side: number) => ({
  type: 'Feature',
  properties: { ref, commodity: 'cocoa' },
  geometry: { type: 'Polygon', coordinates: [[[-1.6, 6.7], [-1.6 + side, 6.7], [-1.6 + side, 6.7 + side], [-1.6, 6.7 + side], [-1.6, 6.7]]] },
});

/** One good plot between each hostile one; JSON.stringify writes the NUL and the lone surrogate as \u escapes. */
const BOOK = [
  point({ ref: 'OK-1' }, -1.6),
  point({ ref: 'BAD-\u0000' }, -1.601),
  point({ ref: 'OK-2' }, -1.602),
  point({ ref: 'SURROGATE', producer: 'Coop \ud800' }, -1.603),
  point({ ref: 'R'.repeat(201) }, -1.604),
  point({ ref: 'HERD', commodity: 'cattle', area_ha: 1e9 }, -1.605),
  square('BIG', 0.03),
  square('OK-3', 0.001),
  { type: 'Feature', properties: { ref: 'TYPE' }, geometry: { type: 'Line\u0000String', coordinates: [[-1.6, 6.7], [-1.5, 6.7]] } },
];

const rejectionCodes = (plot: { rejections: { code: string }[] }) => plot.rejections.map((f) => f.code);

for (const backend of BACKENDS) {
  describe(`hostile plots at intake (${backend})`, () => {
    let app: TestApp;
    let key: string;

    async function upload(path: string, bytes: Buffer) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), 'plots.geojson');
      const res = await fetch(app.url + path, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
      const body = await res.json();
      assertDocumented('POST', path, res.status, body);
      return { status: res.status, body };
    }

    before(async () => {
      app = await startTestApp(backend, { MAX_PLOT_AREA_HA: '1000' });
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Cocoa Co', plan: 'trial', email: 'a@cocoa.test', password: 'cocoa pass' });
      key = created.api_key as string;
    });
    after(() => app.close());

    test('a book with a NUL, a lone surrogate, a long ref, a NUL in a geometry type and plots over the configured cap stores every plot, the hostile ones rejected', async () => {
      const r = await upload('/api/v1/portal/plots/import?country=GH', Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: BOOK })));
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.plots.map(rejectionCodes), [[], ['invalid_text'], [], ['invalid_text'], ['ref_too_long'], ['plot_too_large'], ['plot_too_large'], [], ['unsupported_geometry_type']]);
      assert.match(r.body.plots[6].rejections[0].message, /split it.*the largest plot taken is 1000 ha \(MAX_PLOT_AREA_HA\)/s);
      assert.match(r.body.plots[5].rejections[0].message, /Declared: 1000000000 ha/);
      assert.equal(r.body.imported.created, BOOK.length);
      const list = (await app.call('GET', '/api/v1/portal/plots?limit=50', { key })).body;
      assert.equal(list.total, BOOK.length);
      const stored = new Map<string | null, { validation_state: string }[]>();
      for (const p of list.plots) stored.set(p.external_ref, [...(stored.get(p.external_ref) ?? []), p]);
      for (const ref of ['OK-1', 'OK-2', 'OK-3']) assert.equal(stored.get(ref)?.[0].validation_state, 'valid', ref);
      assert.match(r.body.plots[8].rejections[0].message, /This one is a Line\ufffdString\./);
      for (const ref of ['SURROGATE', 'HERD', 'BIG', 'TYPE']) assert.equal(stored.get(ref)?.[0].validation_state, 'rejected', ref);
      assert.equal(stored.get(null)?.length, 2, 'the NUL ref and the long ref are not kept');
    });

    test('validate gives the same rejections, storing nothing', async () => {
      const r = await upload('/api/v1/portal/plots/validate?country=GH', Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: BOOK.slice(0, 2) })));
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.plots.map(rejectionCodes), [[], ['invalid_text']]);
    });

    test('a file in a geocentric crs (+proj=geocent) is refused with 422 unsupported_crs', async () => {
      const crs = { type: 'name', properties: { name: '+proj=geocent +datum=WGS84 +units=m +no_defs' } };
      const r = await upload('/api/v1/portal/plots/validate', Buffer.from(JSON.stringify({ type: 'FeatureCollection', crs, features: [point({ ref: 'G' }, 6378137, 0)] })));
      assert.equal(r.status, 422);
      assert.equal(r.body.error.code, 'unsupported_crs');
      assert.match(r.body.error.message, /geocentric/);
    });

    test('the evidence worker reads no footprint over the configured cap: the read fails with the cap named and costs nothing', async () => {
      const { root } = await demoWorld();
      const worker = await startEvidenceWorker({ ...app.services, queue: app.services.queue! }, { archive: await openDemoArchive({ dataDir: app.services.config.dataDir, root }) });
      try {
        const { workspaceId, key: professional } = await seedWorkspace(app.services.store, 'professional');
        const em = app.services.store.em();
        const id = await insertSitePlot(em, workspaceId, 'gh-dust-no-structure', { ref: 'WIDE' });
        // Registered before the cap was lowered: 1,100 ha, under the default 10,000 ha but over this deployment's 1,000.
        await em.execute('update plots set geometry = ?::jsonb, area_ha = 1100 where id = ?', [JSON.stringify(square('WIDE', 0.03).geometry), id]);
        const run = await app.call('POST', '/api/v1/portal/plots/evidence', { key: professional, body: { plot_ids: [id] } });
        assert.equal(run.status, 202);
        await waitUntilRead(em, workspaceId);
        const row = await plotRow(em, id);
        assert.equal(row.evidence_state, 'failed');
        assert.match(row.evidence_error!, /over the 1,000 ha a read may cover: split the plot into parts of at most 1,000 ha$/);
        const [{ n }] = await em.execute<{ n: string }[]>('select count(*) as n from evidence_units where workspace_id = ?', [workspaceId]);
        assert.equal(Number(n), 0);
      } finally {
        worker.stopTaking();
        await worker.close();
      }
    });
  });
}
