/**
 * The engine's one Piscina pool per worker process (design decision 4). Sizing and queueing are
 * explicit and checked when the pool is made, each refusal naming its option:
 * - `size` (POOL_SIZE): threads; a plot task keeps one core busy, so one per core.
 * - `minThreads` (default: `size`): threads kept started. A thread loads the kernels, the decoder
 *   and proj4 when it starts (a few hundred milliseconds); a job's plots arrive back to back.
 * - `idleTimeoutMs` (default 60 s): how long a thread above `minThreads` waits for work.
 * - `maxQueue` (default 4 × size): tasks waiting beyond the running ones before `run` refuses. The
 *   jobs of a process compute at most `size` plots at once between them (each its share of the
 *   threads), as many more past their plot tasks wait on a chip task, and each plot fetched ahead
 *   on its clear task, so the queue stays within it.
 *
 * Operating guidance: a task is one plot (decision 4: a dispatch costs tens of microseconds, a
 * tile hundreds), rasters travel as SharedArrayBuffers, and nothing but summaries comes back.
 */
import v8 from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { EngineTasks } from './tasks.ts';

export type PoolErrorCode = 'pool_option_invalid' | 'pool_closed' | 'pool_full';

export class PoolError extends Error {
  readonly code: PoolErrorCode;
  constructor(code: PoolErrorCode, message: string) {
    super(message);
    this.name = 'PoolError';
    this.code = code;
  }
}

/** A map of task names to their parameter and result types, as tasks.ts declares the engine's. */
export type TaskShapes<M> = { [K in keyof M]: { params: unknown; result: unknown } };

export interface PoolOptions {
  size: number;
  minThreads?: number;
  idleTimeoutMs?: number;
  maxQueue?: number;
  /** The task module (default: plot-task.ts); its exported functions are the tasks, by name. */
  filename?: string | URL;
  /** What the pool is for, as its refusals name it (default: engine). */
  name?: string;
  /**
   * How much lower than the process's own threads its threads are scheduled (nice(2) on Linux,
   * applied by piscina as each thread starts; default 0). The raster pool takes POOL_NICE (config.ts).
   */
  nice?: number;
}

export interface EnginePool<M extends TaskShapes<M> = EngineTasks> {
  readonly size: number;
  /** Tasks waiting for a thread. */
  readonly queued: number;
  /** `transferList`: what moves to the thread with the task (a MessagePort a task answers through). */
  run<K extends keyof M & string>(task: K, params: M[K]['params'], opts?: { signal?: AbortSignal; transferList?: MessagePort[] }): Promise<M[K]['result']>;
  close(): Promise<void>;
}

export const MAX_POOL_SIZE = 256;

/**
 * The old space a pool thread's heap starts with, in MB. A thread keeps some 20 MB of objects but
 * makes and drops typed arrays of a plot's masks and windows all along, and from V8's default start
 * it ran a full collection every few hundred milliseconds: in a book, 0.28 to 0.30 of a core went to
 * marking on V8's helper threads. From 128 MB the threads collected a sixth as often, the helpers
 * took 0.16, and the book read 12 to 25% faster, its peak memory unchanged (bench/RESULTS.md, "book"). V8 reads the flag when
 * it makes a thread's heap, so it is set before the pool's threads start.
 */
const POOL_THREAD_OLD_SPACE_MB = 128;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const QUEUE_PER_THREAD = 4;
/** Piscina's own refusals when every thread is busy and maxQueue tasks already wait; callers answer them as "busy". */
const QUEUE_FULL = new Set(['Task queue is at limit', 'No task queue available and all Workers are busy']);

function wholeNumber(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new PoolError('pool_option_invalid', `pool option "${name}" must be a whole number from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

export function createPool<M extends TaskShapes<M> = EngineTasks>(options: PoolOptions): EnginePool<M> {
  const size = wholeNumber('size (POOL_SIZE)', options.size, 1, MAX_POOL_SIZE);
  const nice = wholeNumber('nice (POOL_NICE)', options.nice ?? 0, 0, 19);
  const minThreads = wholeNumber('minThreads', options.minThreads ?? size, 0, size);
  const idleTimeout = wholeNumber('idleTimeoutMs', options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, 0, 24 * 3600_000);
  const maxQueue = wholeNumber('maxQueue', options.maxQueue ?? QUEUE_PER_THREAD * size, 0, 1_000_000);
  const filename = options.filename ?? new URL('./plot-task.ts', import.meta.url);
  v8.setFlagsFromString(`--initial-old-space-size=${POOL_THREAD_OLD_SPACE_MB}`);
  const piscina = new Piscina({
    filename: filename instanceof URL ? filename.href : filename,
    maxThreads: size,
    minThreads,
    idleTimeout,
    maxQueue,
    // A task is one plot: it runs alone on its thread.
    concurrentTasksPerWorker: 1,
    niceIncrement: nice,
  });
  let closed = false;
  return {
    size,
    get queued() {
      return piscina.queueSize;
    },
    run(task, params, opts = {}) {
      if (closed) return Promise.reject(new PoolError('pool_closed', `the ${options.name ?? 'engine'} pool is closed; task ${task} was not run`));
      return piscina.run(params, { name: task, signal: opts.signal ?? null, transferList: opts.transferList }).catch((error: unknown) => {
        if (error instanceof Error && QUEUE_FULL.has(error.message)) {
          throw new PoolError('pool_full', `the ${options.name ?? 'engine'} pool has ${maxQueue} tasks waiting; task ${task} was not run`);
        }
        throw error;
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await piscina.close();
    },
  };
}
