/**
 * A worker process killed in the middle of a job: pg-boss notices its heartbeat has stopped, hands
 * the job to the next worker process, and that one reads only the plots left. Every plot ends with
 * one evidence object, one allowance unit and one completed event.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS, scratchDatabase } from '../support/db.ts';
import { runFixture, type Line } from '../support/processes.ts';
import { demoWorld } from '../support/demo-world.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/evidence-worker-process.ts');
const SITES = ['th-surat-thani-rubber', 'id-kalbar-rubber', 'my-johor-oil-palm', 'id-jambi-pulpwood-concession'];
/** Each site three times: more plots than a job stores in one group (STORE_GROUP), so the kill after the first store always lands mid-job. */
const PLOTS = [...SITES, ...SITES, ...SITES];

const run = (mode: string, env: Record<string, string>, until?: (line: Line) => boolean) => runFixture(FIXTURE, mode, { ...env, POOL_SIZE: '1' }, until);

for (const backend of BACKENDS) {
  describe(`an evidence job whose worker process dies (${backend})`, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    before(async () => {
      const { root } = await demoWorld();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-crash-'));
      env = { DATA_DIR: dataDir, ARCHIVE_ROOT: root, SITES: PLOTS.join(',') };
      if (backend === 'postgresql') {
        const db = await scratchDatabase();
        env.DATABASE_URL = db.url;
        cleanup = async () => {
          await db.drop();
          fs.rmSync(dataDir, { recursive: true, force: true });
        };
      } else {
        env.DATABASE_URL = '';
        cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
    after(() => cleanup());

    test('is recovered by the next worker, which reads only the plots left, each charged and announced once', async () => {
      const [seeded] = await run('seed', env).done;
      const ids = { WORKSPACE_ID: seeded.workspace_id as string, JOB_ID: seeded.job_id as string };
      const first = run('work', { ...env, ...ids }, (l) => typeof l.done === 'number' && l.done >= 1);
      await first.done;
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      const [{ states: midway }] = (await run('state', { ...env, ...ids }).done) as [{ states: Record<string, number> }];
      assert.ok((midway.done ?? 0) >= 1 && (midway.done ?? 0) < PLOTS.length, `killed mid-job: ${JSON.stringify(midway)}`);

      const second = await run('work', { ...env, ...ids }).done;
      assert.deepEqual(second.at(-1), { finished: true });
      const [state] = (await run('state', { ...env, ...ids }).done) as [{ states: Record<string, number>; units: number; completed: number; evidence: { rows: number; current: number }[]; job: { state: string; retryCount: number } }];
      assert.deepEqual(state.states, { done: PLOTS.length });
      assert.equal(state.units, PLOTS.length);
      assert.equal(state.completed, PLOTS.length);
      assert.equal(state.evidence.length, PLOTS.length);
      assert.ok(state.evidence.every((e) => e.rows === 1 && e.current === 1));
      assert.equal(state.job.state, 'completed');
      assert.ok(state.job.retryCount >= 1);
    });
  });
}
