// Kernels are pure functions over typed arrays: no file under engine/kernels imports anything from
// outside it, not even a type, so a kernel can be read, tested and benchmarked on its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpecifiers } from '../../support/import-closure.ts';

const KERNELS = fileURLToPath(new URL('../../../src/engine/kernels/', import.meta.url));

test('no file under engine/kernels imports from outside it', () => {
  const files = readdirSync(KERNELS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 10);
  const outside: string[] = [];
  for (const f of files) {
    const path = join(KERNELS, f);
    for (const spec of importSpecifiers(readFileSync(path, 'utf8'), true)) {
      const target = spec.startsWith('.') ? resolve(dirname(path), spec) : null;
      if (target === null || relative(KERNELS, target).startsWith('..')) outside.push(`${f} imports ${spec}`);
    }
  }
  assert.deepEqual(outside, []);
});
