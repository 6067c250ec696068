/**
 * A clone that files: nothing under src/ names the reference documents kept beside the project, and a
 * copy of the repository alone (no ../shared beside it) starts, takes a book of plots and builds a
 * due diligence statement that is ready and passes the V3 schemas it ships with.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { checkSchema } from '../src/statements/schema-check.ts';
import { BACKENDS, scratchDatabase } from './support/db.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

/** Every file under a folder, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const rel = join(prefix, name);
    return statSync(join(dir, rel)).isDirectory() ? filesUnder(dir, rel) : [rel];
  });
}

test('no file under src/ names the reference documents beside the project', () => {
  const naming = filesUnder(join(ROOT, 'src')).filter((f) => /\.\.\/shared|shared\/refdata/.test(readFileSync(join(ROOT, 'src', f), 'utf8')));
  assert.deepEqual(naming, []);
});

test('the service ships its licence and the information system\'s schemas with their provenance', () => {
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0/);
  assert.equal(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license, 'Apache-2.0');
  const note = readFileSync(join(ROOT, 'schemas/traces-v3/README.md'), 'utf8');
  for (const file of filesUnder(join(ROOT, 'schemas/traces-v3')).filter((f) => f.endsWith('.xsd'))) assert.ok(note.includes(file), file);
});

const BOOK = {
  type: 'FeatureCollection',
  features: [0, 1].map((i) => ({
    type: 'Feature',
    properties: { ref: `GH-${i}` },
    geometry: { type: 'Polygon', coordinates: [[[-1.6 + i * 0.02, 6.7], [-1.59 + i * 0.02, 6.7], [-1.59 + i * 0.02, 6.71], [-1.6 + i * 0.02, 6.71], [-1.6 + i * 0.02, 6.7]]] },
  })),
};

for (const backend of BACKENDS) {
  describe(`a copy of the repository alone (${backend})`, () => {
    let home: string;
    let clone: string;
    let drop = async () => {};
    let env: Record<string, string>;
    let api: ReturnType<typeof spawn> | null = null;
    let url = '';

    before(async () => {
      home = await mkdtemp(join(tmpdir(), 'pce-clone-'));
      clone = join(home, 'repo');
      for (const part of ['src', 'schemas', 'package.json', 'tsconfig.json', 'LICENSE']) await cp(join(ROOT, part), join(clone, part), { recursive: true });
      await symlink(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
      const db = backend === 'postgresql' ? await scratchDatabase() : null;
      drop = async () => db?.drop();
      env = { ...process.env, DATA_DIR: join(clone, 'data'), DATABASE_URL: db?.url ?? '', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', TRACES_SCHEMA_DIR: '' } as Record<string, string>;
    });
    after(async () => {
      if (api && api.exitCode === null) {
        api.kill('SIGTERM');
        await new Promise((r) => api!.once('exit', r));
      }
      await drop();
      await rm(home, { recursive: true, force: true });
    });

    test('starts, takes a book and builds a ready statement that passes the V3 schemas', async () => {
      assert.equal(existsSync(join(clone, '..', 'shared')), false);
      const { stdout } = await run(process.execPath, ['src/main.ts', 'admin', 'workspace', 'create', '--name', 'Clone Co', '--plan', 'trial', '--email', 'a@clone.test', '--password', 'clone pass', '--json'], { cwd: clone, env });
      const key = JSON.parse(stdout).api_key as string;

      api = spawn(process.execPath, ['src/main.ts', 'api'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'inherit'] });
      let log = '';
      api.stdout!.on('data', (d: Buffer) => (log += d));
      for (let waited = 0; !url; waited += 100) {
        const line = log.split('\n').find((l) => l.includes('"listening"'));
        if (line) url = JSON.parse(line).url as string;
        else if (api.exitCode !== null || waited > 90_000) assert.fail(`the copy's api did not start: ${log}`);
        else await sleep(100);
      }
      const call = async (method: string, path: string, body?: object) => {
        const res = await fetch(`${url}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body && !(body instanceof FormData) && { 'content-type': 'application/json' }) },
          body: body instanceof FormData ? body : body && JSON.stringify(body),
        });
        return { status: res.status, text: await res.text() };
      };

      const form = new FormData();
      form.append('file', new Blob([JSON.stringify(BOOK)]), 'plots.geojson');
      const imported = await call('POST', '/portal/plots/import?country=GH', form);
      assert.equal(imported.status, 200, imported.text);
      assert.equal(JSON.parse(imported.text).imported.created, 2);
      const shipment = await call('POST', '/portal/statements/shipments', {
        reference: 'CLONE-1', commodity: 'cocoa', description_of_goods: 'Cocoa beans, whole, raw', hs_code: '1801', quantity: 24, unit: 't',
        destination_country: 'NL', shipped_on: '2026-03-01', arrives_on: '2026-03-20', species: ['Theobroma cacao'], refs: ['GH-0', 'GH-1'],
      });
      assert.equal(shipment.status, 201, shipment.text);
      const id = JSON.parse(shipment.text).id as string;

      const check = JSON.parse((await call('GET', `/portal/statements/shipments/${id}/statement?format=json`)).text);
      assert.deepEqual(check.problems, []);
      assert.equal(check.schema_checked, true);
      assert.equal(check.ready, true);
      const xml = await call('GET', `/portal/statements/shipments/${id}/statement?format=xml`);
      assert.equal(xml.status, 200, xml.text);
      assert.deepEqual(await checkSchema(xml.text, join(clone, 'schemas/traces-v3')), { checked: true, valid: true, errors: [] });
    });
  });
}
