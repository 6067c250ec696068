// The engine never reaches the demo world: no module under src/engine imports src/demo, directly
// or through any module it imports (types and worker entries included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importClosure, importPath } from '../support/import-closure.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const ENGINE = join(SRC, 'engine');
const DEMO = join(SRC, 'demo');

test('no module of the engine imports the demo world, directly or through another module', () => {
  const engine = readdirSync(ENGINE, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
  assert.ok(engine.length > 50, `the walk found the engine's modules (${engine.length})`);
  const closure = importClosure(engine, true);
  assert.ok(closure.files.size > engine.length, 'the walk follows imports out of the engine');
  const intoDemo = [...closure.files.keys()].filter((file) => file.startsWith(`${DEMO}/`)).map((file) => importPath(closure, file).map((f) => relative(SRC, f)).join(' -> '));
  assert.deepEqual(intoDemo, []);
});
