import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The event loop's delays while some work was in flight, in milliseconds (each sample includes the 1 ms resolution). */
export interface LoopDelay {
  max_ms: number;
  p99_ms: number;
  /** Samples taken: a loop held throughout would give almost none. */
  samples: number;
}

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

/** Runs `work` with the loop sampled every millisecond from just before it starts until it settles. */
export async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; delay: LoopDelay }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  try {
    const result = await work();
    histogram.disable();
    return { result, delay: { max_ms: ms(histogram.max), p99_ms: ms(histogram.percentile(99)), samples: histogram.count } };
  } finally {
    histogram.disable();
  }
}
