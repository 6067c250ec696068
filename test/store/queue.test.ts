import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/log.ts';
import { openStore } from '../../src/store/orm.ts';
import { openQueue, QUEUES } from '../../src/store/queue.ts';
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

for (const backend of BACKENDS) {
  test(`a queued read wakes an idle worker at once, not at its next poll (${backend})`, async () => {
    const db = backend === 'postgresql' ? await scratchDatabase() : null;
    const store = await openStore({ databaseUrl: db?.url ?? null, pgliteDir: 'memory://' });
    const queue = await openQueue(store, { log: createLogger('silent'), supervise: false });
    try {
      let fetched: () => void;
      const woken = new Promise<void>((resolve) => (fetched = resolve));
      // A worker polling every 60 s: it polls once as it starts, and only a wake-up can fetch before the next.
      await queue.boss.work(QUEUES.evidence.name, { pollingIntervalSeconds: 60, batchSize: 1 }, async () => fetched());
      await new Promise((r) => setTimeout(r, 1500));
      await queue.send(QUEUES.evidence, { workspaceId: 'w', plotIds: [] });
      const late = new Promise<'late'>((r) => setTimeout(() => r('late'), 30_000).unref());
      assert.equal(await Promise.race([woken.then(() => 'woken' as const), late]), 'woken', 'picked up by its next poll, not woken');
    } finally {
      await queue.stop(1000);
      await store.close();
      await db?.drop();
    }
  });
}
