import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import pkg from '../package.json' with { type: 'json' };
import { importGraph } from './support/import-graph.ts';

/** The package a specifier loads: `@scope/name` or `name`, whatever subpath follows. */
const packageOf = (spec: string) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

const imported = new Set<string>();
for (const node of importGraph().values()) {
  for (const spec of node.packages) if (!spec.startsWith('node:') && !builtinModules.includes(spec)) imported.add(packageOf(spec));
}
// The `node` package brings the runtime itself; nothing imports it.
const runtime = new Set(Object.keys(pkg.dependencies).filter((n) => n !== 'node'));

test('every package the service imports is a runtime dependency', () => {
  assert.deepEqual([...imported].filter((n) => !runtime.has(n)).sort(), []);
});

test('every runtime dependency is imported by the service (test-only packages are devDependencies)', () => {
  assert.deepEqual([...runtime].filter((n) => !imported.has(n)).sort(), []);
});
