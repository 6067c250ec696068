/**
 * Turns on the intake threads, fair between workspaces and bounded in time. Each workspace's uploads
 * wait in a line of its own; when a thread is free the lines are served round-robin, and a workspace
 * already holding a thread is passed over while another workspace waits. So one workspace's files,
 * however slow, delay another workspace's upload by at most one turn: the turns running when it
 * arrived, each bounded by the budget.
 *
 * A turn lasts at most `budgetMs` (FILE_TIME_BUDGET_MS). Past it the turn's signal is aborted (the
 * pool terminates the thread, and starts another for the next upload) and the upload is answered at
 * once with the `overBudget` refusal. Its thread counts as held until the work has settled, so work
 * that did not stop shows in state() as running past its budget.
 */

export interface TurnOptions {
  /** Turns run at once: the intake threads. */
  threads: number;
  /** Uploads that may wait for a turn, over all workspaces (INTAKE_QUEUE); one more is refused with `busy`. */
  queue: number;
  /** The longest turn (FILE_TIME_BUDGET_MS). */
  budgetMs: number;
  busy: () => Error;
  overBudget: () => Error;
}

export interface TurnsState {
  running: number;
  waiting: number;
  /** How long the longest running turn has run, in milliseconds; 0 with none running. */
  longestRunningMs: number;
  /** How long the upload first in line has waited, in milliseconds; 0 with none waiting. */
  longestWaitingMs: number;
  /** Turns stopped at the budget since the process started. */
  stopped: number;
  /** Why the intake is stalled (a turn running past its budget, an upload waiting longer than one), or null. */
  stalled: string | null;
}

export interface WorkspaceTurns {
  /** Runs `work` in the workspace's turn; rejects with `busy` when the line is full, `overBudget` past the budget. */
  take<T>(workspaceId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  state(): TurnsState;
}

interface Waiting {
  since: number;
  start(): void;
}

export function workspaceTurns(options: TurnOptions): WorkspaceTurns {
  // Each waiting workspace's line, in the order the workspaces came to wait.
  const lines = new Map<string, Waiting[]>();
  const holding = new Map<string, number>();
  /** When each workspace with a line or a turn was last served, by a count of turns: the round's order. */
  const lastServed = new Map<string, number>();
  const running = new Set<{ since: number }>();
  let served = 0;
  let waiting = 0;
  let stopped = 0;

  /** The line served next: one whose workspace holds no thread before one that does, then the one served longest ago. */
  function nextInLine(): Waiting | undefined {
    let chosen: string | undefined;
    const rank = (workspaceId: string) => (holding.has(workspaceId) ? served + 1 : 0) + (lastServed.get(workspaceId) ?? -1);
    for (const workspaceId of lines.keys()) {
      if (chosen === undefined || rank(workspaceId) < rank(chosen)) chosen = workspaceId;
    }
    if (chosen === undefined) return undefined;
    const line = lines.get(chosen)!;
    const next = line.shift()!;
    if (line.length === 0) lines.delete(chosen);
    lastServed.set(chosen, served++);
    waiting--;
    return next;
  }

  function serve(): void {
    while (running.size < options.threads) {
      const next = nextInLine();
      if (next === undefined) return;
      next.start();
    }
  }

  function hold(workspaceId: string, by: number): void {
    const held = (holding.get(workspaceId) ?? 0) + by;
    if (held > 0) holding.set(workspaceId, held);
    else {
      holding.delete(workspaceId);
      // A workspace with nothing waiting or running is forgotten and comes back as one never served; a freed
      // thread is handed on at once, so no workspace can be forgotten while another waits on its turn.
      if (!lines.has(workspaceId)) lastServed.delete(workspaceId);
    }
  }

  return {
    take<T>(workspaceId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
      if (waiting >= options.queue) return Promise.reject(options.busy());
      return new Promise((resolve, reject) => {
        const start = () => {
          const turn = { since: performance.now() };
          running.add(turn);
          hold(workspaceId, 1);
          const controller = new AbortController();
          const timer = setTimeout(() => {
            stopped++;
            controller.abort(options.overBudget());
            reject(controller.signal.reason);
          }, options.budgetMs);
          timer.unref();
          // Started at once, in this turn of the event loop; a throw is the turn's failure like a rejection.
          new Promise<T>((settle) => settle(work(controller.signal)))
            .then(resolve, reject)
            .finally(() => {
              clearTimeout(timer);
              running.delete(turn);
              hold(workspaceId, -1);
              serve();
            });
        };
        const line = lines.get(workspaceId);
        if (line) line.push({ since: performance.now(), start });
        else lines.set(workspaceId, [{ since: performance.now(), start }]);
        waiting++;
        serve();
      });
    },

    state() {
      const now = performance.now();
      let longestRunningMs = 0;
      for (const turn of running) longestRunningMs = Math.max(longestRunningMs, now - turn.since);
      let longestWaitingMs = 0;
      for (const line of lines.values()) longestWaitingMs = Math.max(longestWaitingMs, now - line[0].since);
      const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
      const budget = `FILE_TIME_BUDGET_MS, ${seconds(options.budgetMs)}`;
      const reasons: string[] = [];
      if (longestRunningMs > options.budgetMs) reasons.push(`an upload has been judged for ${seconds(longestRunningMs)}, past its budget (${budget}), and its thread has not stopped`);
      if (longestWaitingMs > options.budgetMs) reasons.push(`an upload has waited ${seconds(longestWaitingMs)} for an intake thread, longer than one turn may take (${budget})`);
      const stalled = reasons.length > 0 ? reasons.join('; ') : null;
      return { running: running.size, waiting, longestRunningMs: Math.round(longestRunningMs), longestWaitingMs: Math.round(longestWaitingMs), stopped, stalled };
    },
  };
}
