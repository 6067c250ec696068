/**
 * The kept plot total (migration plot_totals, src/store/register/plot-totals.ts) on both backends:
 * whatever adds or removes plots, concurrently and in several workspaces, each workspace's total
 * equals a count of its plots once the writers are done, and a write rolled back changes nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { importPlots } from '../../src/intake/import-plots.ts';
import { DEFAULT_CAPS } from '../../src/intake/limits.ts';
import { createIntakePool } from '../../src/intake/pool.ts';
import { insertPlots, type PlotColumns } from '../../src/store/register/imports.ts';
import { plotTotal } from '../../src/store/register/plot-totals.ts';
import { migrationsList } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/orm.ts';
import { BACKENDS, scratchDatabase, testStore, type TestStore } from '../support/db.ts';

const PLOT_TOTALS = 'Migration20261124090951_plot_totals';
const intake = createIntakePool(1, 16, DEFAULT_CAPS);
after(() => intake.close());

function plot(ref: string): PlotColumns {
  return {
    id: randomUUID(), external_ref: ref, commodity: 'cocoa', country: 'GH', area_ha: 5, declared_area_ha: null,
    geometry: { type: 'Point', coordinates: [-1.6, 6.7] }, validation_state: 'valid',
    validation_report: { findings: [], repairs: [], rejections: [] }, planted_year: null, producer_id: null,
  };
}

/** A GeoJSON book of points with the given refs (an import of an existing ref updates, never adds). */
function book(refs: string[]): Uint8Array {
  const features = refs.map((ref, i) => ({ type: 'Feature', properties: { ref, commodity: 'cocoa', area_ha: 2 }, geometry: { type: 'Point', coordinates: [-1.6 - i * 0.001, 6.7] } }));
  return Buffer.from(JSON.stringify({ type: 'FeatureCollection', features }));
}

for (const backend of BACKENDS) {
  describe(`kept plot totals (${backend})`, () => {
    let db: TestStore;
    const em = () => db.store.em();
    before(async () => {
      db = await testStore(backend);
    });
    after(() => db.close());

    async function counted(workspaceId: string): Promise<number> {
      const [{ n }] = await em().execute<{ n: number | string }[]>('select count(*) as n from plots where workspace_id = ?', [workspaceId]);
      return Number(n);
    }

    test('a workspace without plots has a total of 0', async () => {
      assert.equal(await plotTotal(em(), randomUUID()), 0);
    });

    test('concurrent imports, inserts and deletes over two workspaces leave each total equal to its count; a rolled-back write counts nothing', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const refs = (w: string, round: number) => Array.from({ length: 40 }, (_, i) => `${w.slice(0, 4)}-${round}-${i}`);
      // Something to delete from the start, in both workspaces.
      const seeded = { [a]: refs(a, 0).map(plot), [b]: refs(b, 0).map(plot) };
      await em().transactional((tx) => insertPlots(tx, a, seeded[a]));
      await em().transactional((tx) => insertPlots(tx, b, seeded[b]));
      const idsOf = (w: string, from: number, to: number) => seeded[w].slice(from, to).map((p) => p.id);

      const writers: Promise<unknown>[] = [];
      for (const w of [a, b]) {
        for (let round = 1; round <= 3; round++) {
          // The upload route's import (register lock, batched insert), and a second import of the same
          // refs, which updates the stored plots and adds none.
          const bytes = book(refs(w, round));
          writers.push(importPlots(em(), intake.judge, { workspaceId: w, bytes, filename: 'book.geojson', country: 'GH' })
            .then(() => importPlots(em(), intake.judge, { workspaceId: w, bytes, filename: 'book.geojson', country: 'GH' })));
          // Batched inserts without the register lock: only the total's own row keeps them apart.
          writers.push(em().transactional((tx) => insertPlots(tx, w, refs(w, 10 + round).map(plot))));
        }
        writers.push(em().execute('delete from plots where workspace_id = ? and id = any(?::uuid[])', [w, `{${idsOf(w, 0, 10).join(',')}}`]));
        writers.push(em().transactional(async (tx) => {
          await tx.execute('delete from plots where id = any(?::uuid[])', [`{${idsOf(w, 10, 15).join(',')}}`]);
          await insertPlots(tx, w, refs(w, 20).map(plot));
        }));
      }
      // One statement deleting from both workspaces at once.
      writers.push(em().execute('delete from plots where id = any(?::uuid[])', [`{${[...idsOf(a, 20, 25), ...idsOf(b, 30, 32)].join(',')}}`]));
      // A transaction that inserts and deletes, then fails: neither counts. It keeps to one workspace, as
      // every transaction of the service does: one that wrote two workspaces' totals in two statements
      // could lock them in the other order than a statement over both, and deadlock.
      const rolledBack = em().transactional(async (tx) => {
        await insertPlots(tx, a, refs(a, 30).map(plot));
        await tx.execute('delete from plots where id = any(?::uuid[])', [`{${idsOf(a, 35, 40).join(',')}}`]);
        throw new Error('given up');
      });
      await assert.rejects(rolledBack, /given up/);
      await Promise.all(writers);

      // Seeded 40, three imports of 40, three inserts of 40 and one of 40 in the delete's transaction,
      // less 10 + 5 deleted alone and 5 (a) or 2 (b) deleted together.
      assert.equal(await counted(a), 40 + 3 * 40 + 3 * 40 + 40 - 15 - 5);
      assert.equal(await counted(b), 40 + 3 * 40 + 3 * 40 + 40 - 15 - 2);
      assert.equal(await plotTotal(em(), a), await counted(a));
      assert.equal(await plotTotal(em(), b), await counted(b));
    });

    test('the migration that keeps the totals counts the plots stored before it', async () => {
      const scratch = backend === 'postgresql' ? await scratchDatabase() : null;
      const store = await openStore({ databaseUrl: scratch?.url ?? null, pgliteDir: 'memory://' });
      try {
        const names = migrationsList.map((m) => m.name);
        await store.orm.migrator.up({ to: names[names.indexOf(PLOT_TOTALS) - 1] });
        const [a, b] = [randomUUID(), randomUUID()];
        await store.em().transactional((tx) => insertPlots(tx, a, [plot('M-1'), plot('M-2'), plot('M-3')]));
        await store.em().transactional((tx) => insertPlots(tx, b, [plot('M-1')]));
        assert.ok((await store.migrate()).includes(PLOT_TOTALS));
        assert.equal(await plotTotal(store.em(), a), 3);
        assert.equal(await plotTotal(store.em(), b), 1);
      } finally {
        await store.close();
        await scratch?.drop();
      }
    });

    test('emptying the table empties every total', async () => {
      const w = randomUUID();
      await em().transactional((tx) => insertPlots(tx, w, [plot('T-1'), plot('T-2')]));
      assert.equal(await plotTotal(em(), w), 2);
      await em().execute('truncate plots cascade');
      assert.equal(await plotTotal(em(), w), 0);
      await em().transactional((tx) => insertPlots(tx, w, [plot('T-3')]));
      assert.equal(await plotTotal(em(), w), 1);
    });
  });
}
