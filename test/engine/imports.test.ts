// The engine reads a plot or a book and returns evidence: no module under src/engine imports the
// demo world, the service that runs it (src/reading-service), the database, the queue or a route,
// directly or through any module it imports (types and worker entries included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importClosure, importPath } from '../support/import-closure.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const ENGINE = join(SRC, 'engine');
const DEMO = join(SRC, 'demo');
/** Our modules of the service around the engine: the room that runs it, the store (with the queue port) and the API. */
const SERVICE_ROOMS = ['reading-service', 'store', 'api'].map((dir) => join(SRC, dir));
/** Packages of the database, the queue and HTTP routes. */
const SERVICE_PACKAGES = /^(pg|pg-boss|@mikro-orm\/.*|@electric-sql\/pglite|koa|@koa\/.*)$/;

const engineFiles = readdirSync(ENGINE, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts'))
  .map((e) => join(e.parentPath, e.name));
const closure = importClosure(engineFiles, true);
const chain = (file: string) => importPath(closure, file).map((f) => relative(SRC, f)).join(' -> ');

test('the walk starts from every module of the engine and follows imports out of it', () => {
  assert.ok(engineFiles.length > 50, `the walk found the engine's modules (${engineFiles.length})`);
  assert.ok(closure.files.size > engineFiles.length, 'the walk follows imports out of the engine');
  assert.ok(closure.packages.has('piscina'), 'the walk reaches the packages the engine imports');
});

test('no module of the engine imports the demo world, directly or through another module', () => {
  const intoDemo = [...closure.files.keys()].filter((file) => file.startsWith(`${DEMO}/`)).map(chain);
  assert.deepEqual(intoDemo, []);
});

test('no module of the engine imports the reading service, the store, the queue or the API, directly or through another module', () => {
  const intoService = [...closure.files.keys()].filter((file) => SERVICE_ROOMS.some((room) => file.startsWith(`${room}/`))).map(chain);
  assert.deepEqual(intoService, []);
});

test('no module of the engine imports a database, queue or HTTP server package, directly or through another module', () => {
  const packages = [...closure.packages].filter(([pkg]) => SERVICE_PACKAGES.test(pkg)).map(([pkg, from]) => `${pkg} <- ${chain(from)}`);
  assert.deepEqual(packages, []);
});

test('the service packages pattern names the database, queue and route packages and leaves the engine\'s own alone', () => {
  for (const pkg of ['pg', 'pg-boss', '@mikro-orm/core', '@mikro-orm/postgresql', '@electric-sql/pglite', 'koa', '@koa/router']) assert.ok(SERVICE_PACKAGES.test(pkg), pkg);
  for (const pkg of ['piscina', 'proj4', 'geotiff', 'pgeocode', 'koala']) assert.ok(!SERVICE_PACKAGES.test(pkg), pkg);
});
