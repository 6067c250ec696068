/**
 * The API process's pool for uploads: a file is parsed and judged on one of its threads, and the
 * reports come back serialized plot by plot. This thread reads them in slices of a few
 * milliseconds, yielding between slices, so neither the validation nor the reading of a 25 MB
 * file's reports holds the event loop. Threads start on the first upload and stop after a minute
 * idle. A bound on uploads judged at once, or a budget per plot, belongs here and in the task.
 */
import { deserialize } from 'node:v8';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createPool } from '../engine/worker/pool.ts';
import { IntakeError } from './errors.ts';
import type { IntakeTasks } from './judge-task.ts';
import type { PlotJudge } from './plot-file.ts';
import type { PlotReport } from './validate.ts';

/** The longest the event loop is held reading reports before it yields. */
const SLICE_MS = 4;

export interface IntakePool {
  judge: PlotJudge;
  close(): Promise<void>;
}

export function createIntakePool(size: number): IntakePool {
  const pool = createPool<IntakeTasks>({ size, minThreads: 0, filename: new URL('./judge-task.ts', import.meta.url), name: 'intake' });
  return {
    async judge(request) {
      const judged = await pool.run('judge', request);
      if ('refusal' in judged) throw new IntakeError(judged.refusal.status, judged.refusal.code, judged.refusal.message);
      const plots: PlotReport[] = new Array(judged.ends.length);
      let slice = performance.now();
      for (let i = 0, start = 0; i < plots.length; start = judged.ends[i++]) {
        if (performance.now() - slice > SLICE_MS) {
          await nextTurn();
          slice = performance.now();
        }
        plots[i] = deserialize(judged.plots.subarray(start, judged.ends[i]));
      }
      return { ...judged.report, plots };
    },
    close: () => pool.close(),
  };
}
