import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { sealEvidence } from '../../src/engine/integrity.ts';
import { verifyDigest } from '../../src/engine/signing.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

describe('public routes', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp('pglite');
  });
  after(() => app.close());

  test('the evidence public key needs no key and verifies what the service signs', async () => {
    const r = await app.call('GET', '/api/v1/evidence/public-key');
    assert.equal(r.status, 200);
    assert.equal(r.body.algorithm, 'Ed25519');
    assert.equal(r.body.key_id, app.services.signingKey.keyId);
    const seal = sealEvidence({ verdict: 'insufficient_record' }, app.services.signingKey);
    assert.ok(verifyDigest(r.body.public_key_pem, seal.digest, seal.signature));
  });

  test('the country classification is served without a key, with its version and 194 named countries', async () => {
    const r = await app.call('GET', '/api/v1/reference/country-classification');
    assert.equal(r.status, 200);
    assert.equal(r.body.celex, '32025R1093');
    const count = (c: string) => r.body.countries.filter((row: { classification: string }) => row.classification === c).length;
    assert.deepEqual([count('high'), count('low'), count('standard')], [4, 140, 50]);
  });

  test('anonymous health says only its status, with no paths or dependency errors', async () => {
    const r = await app.call('GET', '/api/v1/health');
    const archived = fs.existsSync(path.join(app.dataDir, 'archive'));
    assert.deepEqual({ status: r.status, body: r.body }, archived ? { status: 200, body: { status: 'ok' } } : { status: 503, body: { status: 'degraded' } });
    const unknownKey = await app.call('GET', '/api/v1/health', { key: 'pce_nothing_here' });
    assert.deepEqual(Object.keys(unknownKey.body), ['status']);
  });

  test('health names each dependency to a caller with a key and reports degraded while the demo archive is missing, naming no path', async () => {
    const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Ops', plan: 'trial', email: 'ops@acme.test', password: 'ops password' });
    const r = await app.call('GET', '/api/v1/health', { key: created.api_key as string });
    assert.equal(r.body.database.ok, true);
    assert.equal(r.body.database.backend, 'pglite');
    assert.equal(r.body.queue.ok, true);
    const archived = fs.existsSync(path.join(app.dataDir, 'archive'));
    assert.equal(r.status, archived ? 200 : 503);
    assert.equal(r.body.archive.ok, archived);
    if (!archived) assert.match(r.body.archive.error, /has not been generated/);
    assert.ok(!JSON.stringify(r.body).includes(app.dataDir), 'no path of the data directory');
  });

  test('the OpenAPI document is 3.1 and documents every route the app serves', async () => {
    const r = await app.call('GET', '/api/v1/openapi.json');
    assert.equal(r.body.openapi, '3.1.0');
    const { createApp } = await import('../../src/api/app.ts');
    const served = new Set<string>();
    for (const layer of (createApp(app.services).middleware as unknown as { router?: { stack: { path: string; methods: string[] }[] } }[])) {
      for (const route of layer.router?.stack ?? []) {
        const template = route.path.replace(/^\/api\/v1/, '').replace(/:(\w+)/g, '{$1}');
        for (const m of route.methods.filter((x) => x !== 'HEAD')) served.add(`${m} ${template}`);
      }
    }
    assert.ok(served.size > 5);
    for (const route of served) {
      const [method, template] = route.split(' ');
      assert.ok(r.body.paths[template]?.[method.toLowerCase()], `${route} is served but not documented`);
    }
  });
});
