/**
 * The clock of one plot's judgement (PLOT_TIME_BUDGET_MS). The repair calls check() inside its own
 * loops (each crossing counted, each ring, each face of a rebuild) and between the geometry library's
 * operations, so a plot whose repair runs away is stopped at the next of them rather than judged to the
 * end; what one library operation takes between two checks is bounded by the file's budget, which
 * stops the thread (src/intake/workspace-turns.ts). A check reads performance.now(), tens of
 * nanoseconds: cheap beside the segment intersection it is made next to.
 */

/** Thrown by check() once the budget is spent; validate.ts turns it into the plot's rejection. */
export class PlotOutOfTime extends Error {
  readonly tookMs: number;
  constructor(tookMs: number) {
    super('the plot used up its time budget');
    this.name = 'PlotOutOfTime';
    this.tookMs = tookMs;
  }
}

export interface PlotDeadline {
  /** Throws PlotOutOfTime once more than the budget has gone by since the deadline was set. */
  check(): void;
}

export function plotDeadline(budgetMs: number): PlotDeadline {
  const started = performance.now();
  return {
    check() {
      const took = performance.now() - started;
      if (took > budgetMs) throw new PlotOutOfTime(took);
    },
  };
}
