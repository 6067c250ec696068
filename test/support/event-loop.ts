import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The event loop's delays while some work was in flight, in milliseconds. */
export interface LoopDelay {
  /** Longest delay of monitorEventLoopDelay's 1 ms timer (the millisecond included); the whole span when the loop never turned. */
  max_ms: number;
  p99_ms: number;
  /** The most CPU time this thread spent between two turns: the stall this thread's own work caused, whatever else the machine ran. */
  max_busy_ms: number;
  /** Samples taken: a loop held throughout would give almost none. */
  samples: number;
}

const round = (ms: number) => Math.round(ms * 100) / 100;
const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** Runs `work` with the loop sampled every millisecond from just before it starts until it settles. */
export async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; delay: LoopDelay }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // On a loaded machine a thread waits for a core too; its own CPU time between turns tells its own work apart.
  let lastCpu = 0;
  let maxBusy = 0;
  const probe = setInterval(() => {
    const cpu = cpuMs();
    maxBusy = Math.max(maxBusy, cpu - lastCpu);
    lastCpu = cpu;
  }, 1);
  histogram.enable();
  // The histogram's first tick only sets its baseline: a stall from the first instant would go unrecorded.
  await sleep(5);
  lastCpu = cpuMs();
  maxBusy = 0;
  const start = performance.now();
  try {
    const result = await work();
    histogram.disable();
    const span = performance.now() - start;
    const busy = Math.max(maxBusy, cpuMs() - lastCpu);
    const samples = histogram.count;
    const max = samples === 0 ? span : histogram.max / 1e6;
    return { result, delay: { max_ms: round(max), p99_ms: round(samples === 0 ? span : histogram.percentile(99) / 1e6), max_busy_ms: round(busy), samples } };
  } finally {
    histogram.disable();
    clearInterval(probe);
  }
}
