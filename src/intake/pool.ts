/**
 * The API process's pool for uploads: a file is parsed and judged on one of its threads, and the
 * reports come back serialized plot by plot. This thread reads them back in slices of a few
 * milliseconds, yielding between slices, so neither the validation nor the reading of a 25 MB
 * file's reports holds the event loop. A thread starts on the first upload, loading the parsers
 * and validation (0.3 to 0.5 s of CPU, far more than judging a small file), and stays for the next
 * ones until it has been idle IDLE_MS. Judging a 25 MB file leaves its heap a few hundred MB large,
 * which the process gets back only when the thread goes: at most IDLE_MS after the last upload (a
 * thread that ended as soon as it was idle made every upload sent alone pay the start). Uploads
 * beyond the threads wait for a turn (src/intake/workspace-turns.ts: fair between workspaces, each turn
 * at most FILE_TIME_BUDGET_MS, its thread terminated past it), up to `queue` (INTAKE_QUEUE) of them:
 * each holds a copy of its file (up to 25 MB), so beyond that an upload is refused at once with 503
 * intake_busy rather than held. The caps (src/intake/limits.ts) travel with each file to the thread.
 */
import { DefaultDeserializer } from 'node:v8';
import type { AlertJudgement, AlertToJudge } from '../alerts/judge-alerts.ts';
import { createPool } from '../engine/worker/pool.ts';
import { DomainError } from '../errors.ts';
import { intakeBusy, judgingOverBudget } from './errors.ts';
import { DEFAULT_FILE_BUDGET_MS, type IntakeCaps } from './limits.ts';
import type { IntakeTasks } from './judge-task.ts';
import type { PlotJudge } from './plot-file.ts';
import { takingTurns } from '../turns.ts';
import type { PlotReport } from './validate.ts';
import { workspaceTurns, type TurnsState } from './workspace-turns.ts';

/** How long an intake thread waits for the next upload before it ends and its heap goes back. */
const IDLE_MS = 10_000;
/** A busy refusal's Retry-After: about the time a thread takes to judge a large file. */
const RETRY_AFTER_S = 5;

export interface IntakePool {
  judge: PlotJudge;
  /** Checks a workspace's adjudicate batch on a thread, in the workspace's turn. */
  judgeAlerts(batch: AlertToJudge[], workspaceId: string): Promise<AlertJudgement>;
  /** The turns running and waiting, for GET /health. */
  state(): TurnsState;
  close(): Promise<void>;
}

export function createIntakePool(size: number, queue: number, caps: IntakeCaps, fileBudgetMs = DEFAULT_FILE_BUDGET_MS): IntakePool {
  const pool = createPool<IntakeTasks>({
    size,
    minThreads: 0,
    idleTimeoutMs: IDLE_MS,
    // The turns hand the pool at most `size` tasks; one waits here only while a stopped thread's successor starts.
    maxQueue: size,
    filename: new URL('./judge-task.ts', import.meta.url),
    name: 'intake',
  });
  const turns = workspaceTurns({
    threads: size,
    queue,
    budgetMs: fileBudgetMs,
    busy: () => intakeBusy(RETRY_AFTER_S),
    overBudget: () => judgingOverBudget(fileBudgetMs),
  });
  return {
    async judge(request, workspaceId) {
      const judged = await turns.take(workspaceId, (signal) => pool.run('judge', { ...request, caps }, { signal }));
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
    judgeAlerts: (batch, workspaceId) => turns.take(workspaceId, (signal) => pool.run('alerts', batch, { signal })),
    state: () => turns.state(),
    close: () => pool.close(),
  };
}
