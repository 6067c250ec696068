import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The event loop's delays while some work was in flight, in milliseconds. */
export interface LoopDelay {
  /** Longest delay of monitorEventLoopDelay's 1 ms timer (the millisecond included); the whole span when the loop never turned. */
  max_ms: number;
  p99_ms: number;
  /** The most CPU time this thread spent between two turns: the stall this thread's own work caused, whatever else the machine ran. */
  max_busy_ms: number;
  /** The same over the turns in which no garbage collection ran: the stall requests' own handling caused. */
  max_busy_outside_gc_ms: number;
  /** Garbage collections that paused this thread: how many, the longest (wall time), and the most CPU time of a turn holding one. */
  gc: { pauses: number; max_ms: number; max_busy_ms: number };
  /** Samples taken: a loop held throughout would give almost none. */
  samples: number;
}

const round = (ms: number) => Math.round(ms * 100) / 100;
const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
/** Turns shorter than this are not kept for matching against collections: they set no maximum. */
const KEPT_TURN_MS = 1;

/** Runs `work` with the loop sampled every millisecond from just before it starts until it settles. */
export async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; delay: LoopDelay }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // On a loaded machine a thread waits for a core too; its own CPU time between turns tells its own work apart.
  let lastCpu = 0;
  let lastAt = 0;
  const turns: Array<{ from: number; to: number; busy: number }> = [];
  const sample = () => {
    const cpu = cpuMs();
    const at = performance.now();
    if (cpu - lastCpu >= KEPT_TURN_MS) turns.push({ from: lastAt, to: at, busy: cpu - lastCpu });
    lastCpu = cpu;
    lastAt = at;
  };
  const probe = setInterval(sample, 1);
  // Pauses are reported after the fact, with their start and length on the same clock as the turns.
  const pauses: Array<{ from: number; to: number }> = [];
  const collections = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ from: e.startTime, to: e.startTime + e.duration });
  });
  collections.observe({ entryTypes: ['gc'] });
  histogram.enable();
  // The histogram's first tick only sets its baseline: a stall from the first instant would go unrecorded.
  await sleep(5);
  lastCpu = cpuMs();
  lastAt = performance.now();
  turns.length = 0;
  const start = performance.now();
  try {
    const result = await work();
    histogram.disable();
    const span = performance.now() - start;
    sample();
    // Entries of collections that ran during the work arrive on a later turn.
    await sleep(5);
    const inWork = pauses.filter((p) => p.to >= start);
    const withGc = (t: { from: number; to: number }) => inWork.some((p) => p.from < t.to && p.to > t.from);
    const most = (list: Array<{ busy: number }>) => round(list.reduce((m, t) => Math.max(m, t.busy), 0));
    const samples = histogram.count;
    const max = samples === 0 ? span : histogram.max / 1e6;
    return {
      result,
      delay: {
        max_ms: round(max),
        p99_ms: round(samples === 0 ? span : histogram.percentile(99) / 1e6),
        max_busy_ms: most(turns),
        max_busy_outside_gc_ms: most(turns.filter((t) => !withGc(t))),
        gc: { pauses: inWork.length, max_ms: round(inWork.reduce((m, p) => Math.max(m, p.to - p.from), 0)), max_busy_ms: most(turns.filter(withGc)) },
        samples,
      },
    };
  } finally {
    histogram.disable();
    clearInterval(probe);
    collections.disconnect();
  }
}
