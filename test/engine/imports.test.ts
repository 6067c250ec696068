// The engine never reaches the demo world: no module under src/engine imports src/demo, directly
// or through any module it imports (types and worker entries included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const ENGINE = join(SRC, 'engine');
const DEMO = join(SRC, 'demo');

// `from '…'`, a bare `import '…'`, `import('…')`, and `new URL('…', import.meta.url)` (worker entries).
const SPECIFIER = /\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]|new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g;

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIER)]
    .map((m) => m[1] ?? m[2] ?? m[3])
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec));
}

/** Every source file `from` reaches, with the chain of imports that reaches it. */
function reach(from: string[]): Map<string, string[]> {
  const chains = new Map<string, string[]>(from.map((f) => [f, [f]]));
  const queue = [...from];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (!/\.ts$/.test(file) || !existsSync(file)) continue;
    for (const target of relativeImports(file)) {
      if (chains.has(target)) continue;
      chains.set(target, [...chains.get(file)!, target]);
      queue.push(target);
    }
  }
  return chains;
}

test('no module of the engine imports the demo world, directly or through another module', () => {
  const engine = readdirSync(ENGINE, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
  assert.ok(engine.length > 50, `the walk found the engine's modules (${engine.length})`);
  const reached = reach(engine);
  assert.ok(reached.size > engine.length, 'the walk follows imports out of the engine');
  const intoDemo = [...reached].filter(([file]) => file.startsWith(`${DEMO}/`)).map(([, chain]) => chain.map((f) => relative(SRC, f)).join(' -> '));
  assert.deepEqual(intoDemo, []);
});

test('the walk sees an import of the demo world where there is one', () => {
  const reached = reach([join(SRC, 'service.ts')]);
  assert.ok([...reached.keys()].some((file) => file.startsWith(`${DEMO}/`)), 'service.ts reaches src/demo');
});
