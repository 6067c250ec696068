/**
 * A cooperative's book read as one job gives every plot the evidence reading it alone gives: the
 * job shares decoded tiles between neighbours (the cache, and the tiles a plot in flight holds),
 * never a plot's answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'pg-boss';
import { bookPath, bookWorld, ensureBookWorld } from '../../src/demo/book-world/world.ts';
import { openDemoArchive } from '../../src/demo/open-archive.ts';
import { type EvidenceJobData, runEvidence } from '../../src/reading-service/evidence-runs.ts';
import { evidenceJobHandler } from '../../src/reading-service/job-runner.ts';
import { DecodedTiles } from '../../src/engine/plan/raster-shipment.ts';
import { readPlot } from '../../src/engine/read-plot.ts';
import { loadSigningKey } from '../../src/engine/signing.ts';
import { createPool } from '../../src/engine/worker/pool.ts';
import { createLogger } from '../../src/log.ts';
import { openQueue, QUEUES } from '../../src/store/queue.ts';
import { testStore } from '../support/db.ts';
import { seedWorkspace } from '../engine/evidence-helpers.ts';

const PLOTS = 4;

interface BookFeature { properties: { ref: string; area_ha: number }; geometry: { type: 'Polygon'; coordinates: number[][][] } }

test('a book read as one job gives each plot the verdict, reasons and seasons of reading it alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pce-book-'));
  const w = bookWorld(dir, 5, PLOTS);
  await ensureBookWorld(w);
  const features = (JSON.parse(readFileSync(bookPath(w), 'utf8')) as { features: BookFeature[] }).features;
  const db = await testStore('pglite');
  const log = createLogger('silent');
  const queue = await openQueue(db.store, { log, supervise: false });
  const archive = await openDemoArchive({ dataDir: dir, root: w.root });
  const pool = createPool({ size: 2 });
  try {
    const { workspaceId } = await seedWorkspace(db.store, 'enterprise');
    const ids: string[] = [];
    for (const f of features) {
      const id = randomUUID();
      ids.push(id);
      await db.store.em().execute(
        `insert into plots (id, workspace_id, external_ref, commodity, country, area_ha, geometry, validation_state, validation_report, created_at, updated_at)
         values (?, ?, ?, 'cocoa', 'CI', ?, ?::jsonb, 'valid', '{}'::jsonb, now(), now())`,
        [id, workspaceId, f.properties.ref, f.properties.area_ha, JSON.stringify(f.geometry)],
      );
    }
    const answer = await runEvidence(db.store.em(), queue, { id: workspaceId, plan: 'enterprise' }, { all: true });
    const signingKey = loadSigningKey(null, dir);
    // A cache far smaller than a plot's tiles: neighbours share what the plots in flight hold, or decode again.
    const tiles = new DecodedTiles({ maxBytes: 16 * 1024 * 1024 });
    const deps = { archive, pool, tiles, signingKey, store: db.store, baseUrl: 'http://localhost/api/v1', log, plotsAtOnce: 2 };
    const job = { id: answer.job_id!, name: QUEUES.evidence.name, data: { workspaceId, plotIds: ids }, signal: new AbortController().signal, retryCount: 0, expireInSeconds: 3600, heartbeatSeconds: null } as Job<EvidenceJobData>;
    await evidenceJobHandler(deps, new AbortController().signal)(job);
    assert.ok(tiles.stats().hits > 0, 'neighbours shared decoded tiles');
    const rows = await db.store.em().execute<{ plot_id: string; object: { verdict: string; reason: string; reasons: string[]; seasons: unknown[] } }[]>(
      'select plot_id, object from evidence where workspace_id = ?', [workspaceId]);
    assert.equal(rows.length, PLOTS);
    const inJob = new Map(rows.map((r) => [r.plot_id, r.object]));
    for (const [k, f] of features.entries()) {
      const alone = await readPlot({ id: ids[k], workspaceId, ref: f.properties.ref, geometry: f.geometry, areaHa: f.properties.area_ha, declaredAreaHa: null, country: 'CI', producerCountry: 'CI' },
        { archive, pool, tiles: new DecodedTiles(), signingKey });
      const read = inJob.get(ids[k])!;
      assert.deepEqual(
        { verdict: read.verdict, reason: read.reason, reasons: read.reasons, seasons: read.seasons },
        { verdict: alone.evidence.verdict, reason: alone.evidence.reason, reasons: alone.evidence.reasons, seasons: JSON.parse(JSON.stringify(alone.evidence.seasons)) },
        `${f.properties.ref}`,
      );
    }
  } finally {
    await pool.close();
    await archive.close();
    await queue.stop(1000);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
