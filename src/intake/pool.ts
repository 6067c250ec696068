/**
 * The API process's pool for uploads: a file is parsed and judged on one of its threads, and the
 * reports come back serialized plot by plot. This thread reads them back in slices of a few
 * milliseconds, yielding between slices, so neither the validation nor the reading of a 25 MB
 * file's reports holds the event loop. A thread starts on the first upload, loading the parsers
 * and validation (0.3 to 0.5 s of CPU, far more than judging a small file), and stays for the next
 * ones until it has been idle IDLE_MS. Judging a 25 MB file leaves its heap a few hundred MB large,
 * which the process gets back only when the thread goes: at most IDLE_MS after the last upload (a
 * thread that ended as soon as it was idle made every upload sent alone pay the start). Uploads
 * beyond the threads wait in the pool's queue, up to `queue` (INTAKE_QUEUE) of them: each holds a copy of its file (up to
 * 25 MB), so beyond that an upload is refused at once with 503 intake_busy rather than held. The
 * caps (src/intake/limits.ts) travel with each file to the thread.
 */
import { DefaultDeserializer } from 'node:v8';
import type { AlertJudgement, AlertToJudge } from '../alerts/judge-alerts.ts';
import { createPool, PoolError } from '../engine/worker/pool.ts';
import { DomainError } from '../errors.ts';
import { intakeBusy } from './errors.ts';
import type { IntakeCaps } from './limits.ts';
import type { IntakeTasks } from './judge-task.ts';
import type { PlotJudge } from './plot-file.ts';
import { takingTurns } from '../turns.ts';
import type { PlotReport } from './validate.ts';

/** How long an intake thread waits for the next upload before it ends and its heap goes back. */
const IDLE_MS = 10_000;
/** A busy refusal's Retry-After: about the time a thread takes to judge a large file. */
const RETRY_AFTER_S = 5;

export interface IntakePool {
  judge: PlotJudge;
  /** Checks an adjudicate batch on a thread. */
  judgeAlerts(batch: AlertToJudge[]): Promise<AlertJudgement>;
  close(): Promise<void>;
}

export function createIntakePool(size: number, queue: number, caps: IntakeCaps): IntakePool {
  const pool = createPool<IntakeTasks>({
    size,
    minThreads: 0,
    idleTimeoutMs: IDLE_MS,
    maxQueue: queue,
    filename: new URL('./judge-task.ts', import.meta.url),
    name: 'intake',
  });
  return {
    async judge(request) {
      const judged = await pool.run('judge', { ...request, caps }).catch((error: unknown) => {
        if (error instanceof PoolError && error.code === 'pool_full') throw intakeBusy(RETRY_AFTER_S);
        throw error;
      });
      if ('refusal' in judged) throw new DomainError(judged.refusal.code, judged.refusal.message);
      const reader = new DefaultDeserializer(judged.plots);
      reader.readHeader();
      const plots: PlotReport[] = new Array(judged.count);
      const turn = takingTurns();
      for (let i = 0; i < plots.length; i++) {
        await turn();
        plots[i] = reader.readValue();
      }
      return { ...judged.report, plots };
    },
    judgeAlerts(batch) {
      return pool.run('alerts', batch).catch((error: unknown) => {
        if (error instanceof PoolError && error.code === 'pool_full') throw intakeBusy(RETRY_AFTER_S);
        throw error;
      });
    },
    close: () => pool.close(),
  };
}
