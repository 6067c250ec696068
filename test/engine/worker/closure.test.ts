// The worker side's module closure: what a pool thread loads when it starts. Pixels run in the
// pool, I/O on the main thread (design decision 4), so nothing the task entry or any file under
// engine/worker reaches by value may open a connection, query a catalogue or a database, or read
// a TIFF with geotiff.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importClosure, importPath, importSpecifiers } from '../../support/import-closure.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WORKER = join(ROOT, 'src/engine/worker');

/** Packages that do I/O: HTTP clients and servers, sockets, databases, the queue, the TIFF reader. */
const FORBIDDEN_PACKAGES = /^(geotiff|got|undici|pg|pg-boss|@mikro-orm\/.*|@electric-sql\/pglite|koa|@koa\/.*|(node:)?(http|https|http2|net|dns|tls))$/;
/** Modules of ours that do I/O: the STAC client, the HTTP client, range reads, the GFW client, the database and the API. */
const FORBIDDEN_MODULES = [
  'src/engine/sources/stac.ts',
  'src/engine/sources/http-client.ts',
  'src/engine/sources/byte-source.ts',
  'src/engine/sources/products/gfw-data-api.ts',
  'src/store/',
  'src/api/',
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.ts$/.test(e.name) ? [join(dir, e.name)] : []));
}

const rel = (f: string) => relative(ROOT, f);

test('the task entry and every file under engine/worker reach no I/O package or module', () => {
  const closure = importClosure(filesUnder(WORKER));
  const offences: string[] = [];
  for (const [pkg, from] of closure.packages) {
    if (FORBIDDEN_PACKAGES.test(pkg)) offences.push(`${pkg} <- ${importPath(closure, from).map(rel).join(' -> ')}`);
  }
  for (const file of closure.files.keys()) {
    if (FORBIDDEN_MODULES.some((m) => rel(file).startsWith(m))) offences.push(importPath(closure, file).map(rel).join(' -> '));
  }
  assert.deepEqual(offences, [], `the worker side reaches I/O:\n${offences.join('\n')}`);
});

test('the walk reads imports, re-exports, dynamic imports and thread entries by value, and leaves type-only ones out', () => {
  const source = [
    "import { a } from './a.ts';",
    "import type { B } from './b.ts';",
    "import { type C, d } from './cd.ts';",
    "import { type E, type F } from './ef.ts';",
    "export { g } from './g.ts';",
    "export type { H } from './h.ts';",
    "import './side-effect.ts';",
    "const geotiff = await import('geotiff');",
    "const entry = new URL('./task.ts', import.meta.url);",
  ].join('\n');
  assert.deepEqual(importSpecifiers(source), ['./a.ts', './cd.ts', './g.ts', './side-effect.ts', 'geotiff', './task.ts']);
  assert.deepEqual(importSpecifiers(source, true), ['./a.ts', './b.ts', './cd.ts', './ef.ts', './g.ts', './h.ts', './side-effect.ts', 'geotiff', './task.ts']);
});

test('the closure of the task entry holds its kernels and context blocks, not its type-only task map', () => {
  const closure = importClosure([join(WORKER, 'plot-task.ts')]);
  const files = [...closure.files.keys()].map(rel);
  // plot-task.ts imports the kernels by value and the task map by type only.
  assert.ok(files.includes('src/engine/kernels/seasonal-troughs.ts'));
  assert.ok(files.includes('src/engine/worker/context/index.ts'));
  assert.ok(!files.includes('src/engine/worker/tasks.ts'));
  assert.ok(closure.packages.has('proj4'));
});
