import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS, scratchDatabase } from '../support/db.ts';
import { runFixture, type Line } from '../support/processes.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/queue-process.ts');

const run = (mode: string, env: Record<string, string>, until?: (line: Line) => boolean) => runFixture(FIXTURE, mode, env, until);

for (const backend of BACKENDS) {
  describe(`queue across process restarts (${backend})`, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    before(async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-queue-'));
      if (backend === 'postgresql') {
        const db = await scratchDatabase();
        env = { DATA_DIR: dataDir, DATABASE_URL: db.url };
        cleanup = db.drop;
      } else {
        env = { DATA_DIR: dataDir, DATABASE_URL: '' };
        cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
    after(() => cleanup());

    test('a job enqueued by a process that then stops is completed by the next process', async () => {
      const [sent] = await run('send', env).done;
      const worked = await run('work', env).done;
      assert.deepEqual(worked, [{ fetched: sent.sent, n: 42 }]);
      const [{ jobs }] = (await run('state', env).done) as [{ jobs: { id: string; state: string }[] }];
      assert.deepEqual(jobs.find((j) => j.id === sent.sent)?.state, 'completed');
    });

    test('a job whose process died mid-way is recovered and completed by another process', async () => {
      const [sent] = await run('send', env).done;
      const hung = run('hang', env, (l) => l.fetched === sent.sent);
      await hung.done;
      hung.child.kill('SIGKILL');
      await new Promise((r) => hung.child.once('exit', r));
      // The heartbeat (10 s) lapses, the monitor fails the job and it is retried by the new process.
      const worked = await run('work', env).done;
      assert.deepEqual(worked, [{ fetched: sent.sent, n: 42 }]);
      const [{ jobs }] = (await run('state', env).done) as [{ jobs: { id: string; state: string; retryCount: number }[] }];
      const job = jobs.find((j) => j.id === sent.sent)!;
      assert.equal(job.state, 'completed');
      assert.equal(job.retryCount, 1);
    });
  });
}
