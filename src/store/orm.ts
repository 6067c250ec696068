import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MikroORM as PgMikroORM } from '@mikro-orm/postgresql';
import { MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { Migrator } from '@mikro-orm/migrations';
import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { entities } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';

export type Backend = 'postgresql' | 'pglite';
/** The unit-of-work handle every service function takes; SQL-capable on both backends. */
export type Em = SqlEntityManager;

export interface Store {
  backend: Backend;
  orm: MikroORM;
  /** Present on the embedded backend: the one PGlite instance that MikroORM and the queue share. */
  pglite: PGlite | null;
  /** A fresh EntityManager for one unit of work (a request, a job step). */
  em(): Em;
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; null selects PGlite under `pgliteDir`. */
  databaseUrl: string | null;
  /** Where PGlite keeps its files; `memory://` for a throw-away database. */
  pgliteDir: string;
  /** A PGlite's files (`dumpDataDir`) to start from instead of an empty database: the tests start each store from a migrated one. */
  pgliteFiles?: Blob;
  debug?: boolean;
}

const migrations = {
  migrationsList,
  tableName: 'schema_migrations',
  transactional: true,
  allOrNothing: true,
  snapshot: false,
  silent: true,
  path: path.join(import.meta.dirname, 'migrations'),
};

export async function openStore(opts: StoreOptions): Promise<Store> {
  let orm: MikroORM;
  let pglite: PGlite | null = null;
  if (opts.databaseUrl) {
    orm = await PgMikroORM.init({
      clientUrl: opts.databaseUrl,
      entities,
      extensions: [Migrator],
      migrations,
      debug: opts.debug ?? false,
      // Pool sized for a request burst plus the job runner; pg-boss keeps a pool of its own.
      pool: { min: 0, max: 10 },
      allowGlobalContext: false,
    }) as unknown as MikroORM;
  } else {
    if (!opts.pgliteDir.startsWith('memory://')) {
      // The database files are the service's secrets (key hashes, sessions): owner-only, also when made before.
      fs.mkdirSync(opts.pgliteDir, { recursive: true, mode: 0o700 });
      fs.chmodSync(opts.pgliteDir, 0o700);
    }
    pglite = await PGlite.create(opts.pgliteDir, opts.pgliteFiles ? { loadDataDir: opts.pgliteFiles } : {});
    orm = await PgliteMikroORM.init({
      dbName: 'pglite',
      driverOptions: { pglite },
      entities,
      extensions: [Migrator],
      migrations,
      debug: opts.debug ?? false,
      allowGlobalContext: false,
    }) as unknown as MikroORM;
  }
  const backend: Backend = pglite ? 'pglite' : 'postgresql';
  return {
    backend,
    orm,
    pglite,
    em: () => orm.em.fork() as Em,
    async migrate() {
      const applied = await orm.migrator.up();
      return applied.map((m) => m.name);
    },
    async close() {
      await orm.close(true);
      if (pglite && !pglite.closed) await pglite.close();
    },
  };
}
