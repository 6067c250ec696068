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

/**
 * Every block a generated client reaches into, to its leaves: a schema served as a bare object would
 * type as `Record<string, never>` here and this file would not compile.
 */
const BLOCKS = `import type { components, paths } from './schema.ts';
type S = components['schemas'];

export function statement(check: S['StatementCheck'], stored: S['Statement']) {
  const s = check.payload.statement;
  const commodity = s.commodities[0];
  const hs: string | null = commodity.hsHeading;
  const description: string | null = commodity.descriptors.descriptionOfGoods;
  const mass: number | undefined = commodity.descriptors.goodsMeasure.netWeight;
  const qualifier: string | undefined = commodity.descriptors.goodsMeasure.supplementaryUnitQualifier;
  const species: string | undefined = commodity.speciesInfo?.[0].scientificName;
  const producer: { country: string | null; geometryGeojson: string; name?: string } = commodity.producers[0];
  const role: 'OPERATOR' | 'REPRESENTATIVE_OPERATOR' = check.payload.operatorRole;
  const represented: string | undefined = s.representedOperator?.operatorName;
  const identifier: 'eori' | 'vat' | 'gln' | 'tin' | 'cbr' | 'cin' | 'duns' | 'comp_num' | 'comp_reg' | 'oni' | undefined = s.representedOperator?.operatorReferenceNumber?.[0].identifierType;
  const postalCode: string | undefined = s.representedOperator?.operatorAddress?.postalCode;
  const confidential: boolean = s.geoLocationConfidential && stored.geolocation_confidential;
  const asked: string | undefined = stored.represented_operator?.identifiers?.[0].value;
  // @ts-expect-error a V3 statement has no such element
  void s.no_such_element;
  return { hs, description, mass, qualifier, species, producer, role, represented, identifier, postalCode, confidential, asked };
}

type Geolocation = paths['/portal/statements/{id}']['get']['responses']['200']['content']['application/geo+json'];
export function geolocation(file: Geolocation): [string, number, number | null] {
  const feature = file.features[0];
  const g = feature.geometry;
  const lon: number = g.type === 'Point' ? g.coordinates[0] : g.type === 'Polygon' ? g.coordinates[0][0][0] : g.coordinates[0][0][0][0];
  return [feature.properties.ProductionPlace, lon, feature.properties.Area];
}

export function event(e: S['WebhookEvent']): string {
  switch (e.type) {
    case 'plot.evidence.completed': return \`\${e.data.finding} \${e.data.state.label} \${e.data.next_step?.code} \${e.data.reasons[0]}\`;
    case 'plot.evidence.failed': return e.data.next_step.code;
    case 'batch.completed': return String(e.data.findings + e.data.without_finding);
    case 'alert.opened': return \`\${e.data.severity} \${e.data.flagged_area_km2}\`;
    case 'archive.reading.filed': return e.data.reading.reading.scene_id;
    case 'webhook.test': return e.data.message;
  }
}

export function places(boundary: S['StudioBoundaryDetail'], alertCase: S['AlertCase'], plot: S['PlotDetail'], scan: S['PlotScan']): number[] {
  const b = boundary.geometry;
  const ring: number[][] = b.type === 'Polygon' ? b.coordinates[0] : b.coordinates[0][0];
  const centre: number | undefined = alertCase.centroid?.coordinates[1];
  const p = plot.geometry;
  const first: number | undefined = p === null ? undefined : p.type === 'Point' ? p.coordinates[0] : p.type === 'Polygon' ? p.coordinates[0][0][0] : p.coordinates[0][0][0][0];
  const alerts: number = 'alerts' in scan && scan.alerts !== undefined ? scan.alerts.length : 0;
  return [ring[0][0], centre ?? 0, first ?? 0, alerts];
}

export function maps(e: S['EvidenceObject']) {
  const palm = e.commodity_maps.oil_palm;
  const planted: boolean | null = palm.planted_by_2020;
  const year: number | null = palm.median_planting_year;
  const industrial: number | null = palm.industrial_2021;
  const rubber: number | null = e.commodity_maps.rubber.rubber_2020;
  const available: boolean = palm.available && e.commodity_maps.rubber.available;
  return { planted, year, industrial, rubber, available };
}

export function upload(form: paths['/portal/plots/import']['post']['requestBody']['content']['multipart/form-data']): string {
  return form.file;
}
`;

/** A folder holding the generated types and the client, compiled as an integrator's project would be. */
async function generatedClient(document: object): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-client-'));
  fs.symlinkSync(modules, path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  fs.writeFileSync(path.join(dir, 'schema.ts'), await openapiTS(document as Parameters<typeof openapiTS>[0]));
  fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
  fs.writeFileSync(path.join(dir, 'blocks.ts'), BLOCKS);
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

  test('types every schema to its leaves: no object without properties, an additionalProperties schema, a oneOf/anyOf/allOf or a $ref', () => {
    const bare: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === true || (typeof node === 'object' && node !== null && Object.keys(node).length === 0)) {
        bare.push(`${at}: a schema that allows anything`);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      const s = node as Record<string, unknown>;
      const types = ([] as unknown[]).concat(s.type ?? []);
      const composed = ['oneOf', 'anyOf', 'allOf', '$ref', 'const', 'enum'].some((k) => k in s);
      const hasProperties = typeof s.properties === 'object' && s.properties !== null && Object.keys(s.properties).length > 0;
      const hasAdditional = typeof s.additionalProperties === 'object' && s.additionalProperties !== null && Object.keys(s.additionalProperties).length > 0;
      if (!composed && (types.length === 0 || types.includes('object')) && !hasProperties && !hasAdditional) bare.push(`${at}: ${JSON.stringify(s).slice(0, 100)}`);
      if (!composed && types.includes('array') && !('items' in s) && !('prefixItems' in s)) bare.push(`${at}: an array without items`);
      for (const key of ['properties', 'patternProperties', '$defs']) {
        for (const [name, child] of Object.entries((s[key] ?? {}) as Record<string, unknown>)) walk(child, `${at}.${name}`);
      }
      for (const key of ['oneOf', 'anyOf', 'allOf', 'prefixItems']) ((s[key] ?? []) as unknown[]).forEach((child, i) => walk(child, `${at}/${key}[${i}]`));
      for (const key of ['items', 'additionalProperties', 'not', 'contains']) if (typeof s[key] === 'object') walk(s[key], `${at}/${key}`);
    };
    const media = (content: unknown, at: string) => {
      for (const [type, m] of Object.entries((content ?? {}) as Record<string, { schema?: unknown }>)) {
        if (m.schema === undefined) bare.push(`${at} ${type}: no schema`);
        else walk(m.schema, `${at} ${type}`);
      }
    };
    const full = document as Document & { components: { schemas: Record<string, unknown> }; webhooks: Record<string, Record<string, { requestBody?: { content: unknown } }>> };
    for (const [name, schema] of Object.entries(full.components.schemas)) walk(schema, name);
    for (const { name, op } of operations()) {
      const o = op as { parameters?: { name: string; schema: unknown }[]; requestBody?: { content: unknown }; responses: Record<string, { content?: unknown; headers?: Record<string, { schema: unknown }> }> };
      for (const p of o.parameters ?? []) walk(p.schema, `${name} ${p.name}`);
      media(o.requestBody?.content, `${name} body`);
      for (const [status, r] of Object.entries(o.responses)) {
        media(r.content, `${name} ${status}`);
        for (const [header, h] of Object.entries(r.headers ?? {})) walk(h.schema, `${name} ${status} ${header}`);
      }
    }
    for (const [name, item] of Object.entries(full.webhooks)) for (const op of Object.values(item)) media(op.requestBody?.content, `webhook ${name}`);
    assert.ok(Object.keys(full.components.schemas).length > 50);
    assert.deepEqual(bare, []);
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

  test('a client generated from it compiles the README\'s calls and reaches every block to its leaves (and refuses a wrong field)', async () => {
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
