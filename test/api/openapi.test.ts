import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS from 'openapi-typescript';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { fixtureEvidence, fixtureMap } from '../fixtures/evidence-wrapper.ts';
import { insertPlot } from '../documents/book.ts';

const run = promisify(execFile);
const modules = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Document = { paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown>; requestBody?: unknown }>> };

/** The README's calls, made the way an integrator makes them: a client generated from the served document. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

export async function readmeCalls(baseUrl: string, key: string, plotId: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
  const run = await client.POST('/portal/plots/evidence', { body: { all: true } });
  const queued: number | undefined = run.data?.queued;
  const summary = await client.GET('/portal/plots/evidence/summary');
  const done: number | undefined = summary.data?.states.done;
  const read = await client.GET('/portal/plots/{id}/evidence', { params: { path: { id: plotId } } });
  const classification: 'low' | 'standard' | 'high' | null | undefined = read.data?.evidence.risk.country.classification;
  const years: number[] | undefined = read.data?.evidence.settlement.years_read;
  const step: string | undefined = read.data?.evidence.next_step?.code;
  const refusal: string | undefined = read.error?.error.code;
  // @ts-expect-error rerun is true or false
  await client.POST('/portal/plots/evidence', { body: { plot_ids: [plotId], rerun: 'yes' } });
  // @ts-expect-error the country part has no such field
  void read.data?.evidence.risk.country.no_such_field;
  return { status: run.response.status, queued, done, classification, years, step, refusal };
}
`;

/** A folder holding the generated types and the client, compiled as an integrator's project would be. */
async function generatedClient(document: object): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-client-'));
  fs.symlinkSync(modules, path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  fs.writeFileSync(path.join(dir, 'schema.ts'), await openapiTS(document as Parameters<typeof openapiTS>[0]));
  fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'es2024', lib: ['es2024', 'dom'], module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, allowImportingTsExtensions: true, verbatimModuleSyntax: true, skipLibCheck: true, types: [] },
      include: ['*.ts'],
    }),
  );
  return dir;
}

describe('the served OpenAPI document', () => {
  let app: TestApp;
  let document: Document;
  let dir: string;

  before(async () => {
    app = await startTestApp('pglite');
    document = (await app.call('GET', '/api/v1/openapi.json')).body as Document;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-openapi-'));
  });
  after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const operations = () =>
    Object.entries(document.paths).flatMap(([template, item]) => Object.entries(item).filter(([method]) => METHODS.includes(method)).map(([method, op]) => ({ name: `${method.toUpperCase()} ${template}`, op })));

  test('names every operation with a unique camelCase operationId', () => {
    const ids = operations().map(({ name, op }) => {
      assert.match(op.operationId ?? '', /^[a-z][a-zA-Z0-9]*$/, `${name} has operationId ${op.operationId}`);
      return op.operationId;
    });
    assert.ok(ids.length > 20);
    assert.equal(new Set(ids).size, ids.length, 'operationIds repeat');
  });

  test('documents 400 and 405 on every operation, and 413 and 415 on every one that reads a JSON body', () => {
    for (const { name, op } of operations()) {
      assert.ok(op.responses['400'] && op.responses['405'], name);
      const json = (op.requestBody as { content?: Record<string, unknown> } | undefined)?.content?.['application/json'];
      if (json) assert.ok(op.responses['413'] && op.responses['415'], name);
    }
  });

  test('lints with Redocly CLI with zero errors', async () => {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const cli = path.join(modules, '@redocly/cli/bin/cli.js');
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const { stdout } = await run(process.execPath, [cli, 'lint', file, '--format=json'], { env, cwd: dir, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout: string; stderr: string }) => {
      // The CLI exits non-zero when the document has errors: report them rather than the exit.
      return { stdout: error.stdout ?? '', stderr: error.stderr };
    });
    const report = JSON.parse(stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`);
    assert.deepEqual(errors, []);
    assert.equal(report.totals.errors, 0);
  });

  test('a client generated from it compiles the README\'s calls (and refuses a wrong field)', async () => {
    const client = await generatedClient(document);
    try {
      const tsc = path.join(modules, 'typescript/bin/tsc');
      const compiled = await run(process.execPath, [tsc, '-p', client]).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      assert.equal(compiled.stdout.trim(), '');
    } finally {
      fs.rmSync(client, { recursive: true, force: true });
    }
  });
});

for (const backend of BACKENDS) {
  describe(`a generated client against a live service (${backend})`, () => {
    let app: TestApp;
    let key: string;
    let workspaceId: string;
    let client: string;

    before(async () => {
      app = await startTestApp(backend);
      const created = await runAdminCommand(app.services.store, ['workspace', 'create'], { name: 'Acme', plan: 'trial', email: 'owner@acme.test', password: 'right password' });
      key = created.api_key as string;
      workspaceId = created.workspace_id as string;
      client = await generatedClient((await app.call('GET', '/api/v1/openapi.json')).body as object);
    });
    after(async () => {
      await app.close();
      fs.rmSync(client, { recursive: true, force: true });
    });

    test('runs evidence for every plot and reads a plot\'s country classification through the client', async () => {
      const plotId = await insertPlot(app.services.store.em(), workspaceId, { ref: 'CLIENT-1', area_ha: 9, state: 'done', evidence: fixtureEvidence({ seed: 3 }) }, app.services.signingKey, await fixtureMap());
      const { readmeCalls } = (await import(pathToFileURL(path.join(client, 'client.ts')).href)) as {
        readmeCalls: (baseUrl: string, key: string, plotId: string) => Promise<Record<string, unknown>>;
      };
      const answer = await readmeCalls(`${app.url}/api/v1`, key, plotId);
      assert.deepEqual(answer, { status: 200, queued: 0, done: 1, classification: 'standard', years: [2016, 2020, 2023], step: undefined, refusal: undefined });
    });
  });
}
