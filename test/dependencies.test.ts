import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import { importClosure } from './support/import-closure.ts';
import { VENDORED } from '../src/api/portal.ts';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => SRC + f);

/** The package a specifier loads: `@scope/name` or `name`, whatever subpath follows. */
const packageOf = (spec: string) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
// The portal's libraries are served to browsers from their packages rather than imported.
const imported = new Set([...[...importClosure(sources).packages.keys()].filter((s) => !s.startsWith('node:') && !builtinModules.includes(s)).map(packageOf), ...Object.keys(VENDORED)]);
// The `node` package brings the runtime itself; nothing imports it.
const runtime = new Set(Object.keys(pkg.dependencies).filter((n) => n !== 'node'));

test('every package the service imports is a runtime dependency', () => {
  assert.deepEqual([...imported].filter((n) => !runtime.has(n)).sort(), []);
});

test('every runtime dependency is imported by the service (test-only packages are devDependencies)', () => {
  assert.deepEqual([...runtime].filter((n) => !imported.has(n)).sort(), []);
});
