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

export async function testStore(backend: Backend): Promise<TestStore> {
  if (backend === 'pglite') {
    const store = await openStore({ databaseUrl: null, pgliteDir: 'memory://' });
    await store.migrate();
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
