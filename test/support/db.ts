import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Backend, Store } from '../../src/store/orm.ts';
import { openStore } from '../../src/store/orm.ts';

/** Every database test runs on both backends: a fresh PostgreSQL database, or a fresh in-memory PGlite. */
export const BACKENDS: Backend[] = ['postgresql', 'pglite'];

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Creates an empty PostgreSQL database for one test file; answers its URL and a drop function. */
export async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pce_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestStore {
  store: Store;
  /** PostgreSQL URL of the scratch database (null on PGlite). */
  databaseUrl: string | null;
  close(): Promise<void>;
}

const MIGRATIONS = path.resolve(import.meta.dirname, '../../src/store/migrations');
const PGLITE_PACKAGE = path.resolve(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json');

/**
 * Where the files of a migrated PGlite are kept between test files: named by the PGlite release and
 * the migrations' text, so a changed migration makes a new one. Named once a test file.
 */
let migratedFiles: string | undefined;
function migratedFilesPath(): string {
  if (migratedFiles !== undefined) return migratedFiles;
  const hash = createHash('sha256').update(fs.readFileSync(PGLITE_PACKAGE));
  for (const name of fs.readdirSync(MIGRATIONS).sort()) hash.update(name).update(fs.readFileSync(path.join(MIGRATIONS, name)));
  return (migratedFiles = path.join(os.tmpdir(), `precutoff-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`));
}

/**
 * A fresh in-memory PGlite, migrated. A PGlite made empty runs initdb in WebAssembly (3.3 to 3.6 s,
 * about 4 s of CPU, on a 2-core host) where one loaded from a migrated database's files takes about
 * 1 s; the suite makes well over a hundred. The first test file to need the files makes them (written
 * whole, then renamed into place, so a file read is never half written).
 */
async function migratedPglite(): Promise<Store> {
  const kept = migratedFilesPath();
  const files = fs.existsSync(kept) ? new Blob([fs.readFileSync(kept)]) : undefined;
  const store = await openStore({ databaseUrl: null, pgliteDir: 'memory://', pgliteFiles: files });
  await store.migrate();
  if (files === undefined) {
    const writing = `${kept}.${process.pid}`;
    fs.writeFileSync(writing, Buffer.from(await (await store.pglite!.dumpDataDir('none')).arrayBuffer()));
    fs.renameSync(writing, kept);
  }
  return store;
}

export async function testStore(backend: Backend): Promise<TestStore> {
  if (backend === 'pglite') {
    const store = await migratedPglite();
    return { store, databaseUrl: null, close: () => store.close() };
  }
  const db = await scratchDatabase();
  const store = await openStore({ databaseUrl: db.url, pgliteDir: 'memory://' });
  await store.migrate();
  return {
    store,
    databaseUrl: db.url,
    async close() {
      await store.close();
      await db.drop();
    },
  };
}
