/**
 * Development tool: diffs the entities against a scratch database that has every committed migration applied
 * and writes the next migration file. Run: `node src/store/make-migration.ts <name>` with TEST_DATABASE_URL reachable.
 */
import pg from 'pg';
import { openStore } from './orm.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  console.error('usage: node src/store/make-migration.ts <name-in-kebab-case>');
  process.exit(2);
}
const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = `pce_migration_${process.pid}`;
const client = new pg.Client({ connectionString: admin });
await client.connect();
await client.query(`CREATE DATABASE ${scratch}`);
const url = new URL(admin);
url.pathname = `/${scratch}`;
const store = await openStore({ databaseUrl: url.toString(), pgliteDir: 'memory://' });
try {
  await store.migrate();
  const result = await store.orm.migrator.create(undefined, false, false, name);
  console.log(result.fileName ? `wrote ${result.fileName}; add it to src/store/migrations/index.ts` : 'no changes');
} finally {
  await store.close();
  await client.query(`DROP DATABASE ${scratch}`);
  await client.end();
}
