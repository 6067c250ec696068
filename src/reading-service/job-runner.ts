/**
 * The evidence job runner (design: "the path of one plot"). A job reads its plots in an order that
 * puts neighbours together, so the tiles they share are fetched and decoded once. It computes
 * `plotsAtOnce` plots at a time (its share of the pool's threads) and keeps the fetching of the
 * next plots (planning, scene search, tile bytes) running meanwhile, at most `lookahead` plots
 * ahead of those, so memory stays flat however long the job. A plot whose pool tasks have ended
 * gives its place to the next while its chip is cut, its evidence sealed and stored (at most
 * `plotsAtOnce` plots so), so the threads do not wait on that tail of the main thread's work. Its
 * finished reads are stored a group at a time, in one transaction (STORE_GROUP), so the database
 * costs the main thread a few statements a group rather than a few a plot.
 *
 * A job takes its plots a group at a time (queued → running in one statement, then their rows together)
 * and puts back to queued those it took and did not read when it ends early. A job resumes rather
 * than restarts: only plots still held by this job (queued or running under its id) are read, so
 * after a crash pg-boss hands the job to another worker and it reads what is left. A failed read
 * records its reason, costs nothing, and the job goes on. When the process shuts down, the plots in
 * hand finish and the job is released back to the queue.
 *
 * What a job holds is read through a port (HeldReads): the register's plots, or the analyses of
 * studio boundaries, which the same runner reads on a queue of their own. */
import { loadCalibrationTable } from '../engine/context/calibration.ts';
import { randomUUID } from 'node:crypto';
import type { Job } from 'pg-boss';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Em, Store } from '../store/orm.ts';
import { type Queue, QUEUES } from '../store/queue.ts';
import { heldPlotPlaces, heldPlots } from '../store/register/plots.ts';
import { markQueued, markRunning, type WriteOutcome } from '../store/register/transitions.ts';
import type { Archive } from '../engine/archive.ts';
import { boundaryReads } from './boundary-reads.ts';
import type { EvidenceJobData } from './evidence-runs.ts';
import { recordFailure, storeEvidenceAll } from './evidence-store.ts';
import { createPool, type EnginePool } from '../engine/worker/pool.ts';
import { DecodedTiles } from '../engine/plan/raster-shipment.ts';
import { plotsAhead, spatialOrder } from '../engine/plan/plot-order.ts';
import { type EngineDeps, finishPlot, type PlotReading, type PreparedPlot, preparePlot } from '../engine/read-plot.ts';
import type { PlotToRead } from '../engine/plan/read-plan.ts';
import type { SigningKey } from '../engine/signing.ts';

/** Plots fetched ahead of the one being computed. */
export const DEFAULT_LOOKAHEAD = 2;

/**
 * Finished reads stored in one transaction: a group is written once this many wait, STORE_WAIT_MS
 * after the first of them finished (so a slow read's evidence is not held back), or when the job
 * ends. The rows of the plots to read are loaded as many at a time.
 */
export const STORE_GROUP = 8;
const STORE_WAIT_MS = 1000;

export interface RunnerDeps extends EngineDeps {
  store: Store;
  /** The service's base URL (ending /api/v1), for the events' links. */
  baseUrl: string;
  log: Logger;
  lookahead?: number;
  /**
   * Plots of one job computed at once (default 1). A job that sends one plot at a time keeps one
   * pool thread busy whatever the pool's size; the worker sends as many as its share of the pool.
   */
  plotsAtOnce?: number;
}

/** Thrown to hand a job back to the queue (pg-boss retries it), with the plots it has not read. */
export class JobReleasedError extends Error {
  readonly code = 'job_released';
}

/** A read a job holds, as the job reports its outcome. */
export interface HeldRead {
  workspaceId: string;
  id: string;
  jobId: string;
}

/**
 * What a job reads and where it writes: the register's plots (`plotReads`), or the analyses of
 * studio boundaries (reading-service/boundary-reads.ts). The runner itself is the same for both.
 */
export interface HeldReads {
  /** What the job still holds (queued or running under its id), each with a vertex for the read order. */
  places(em: Em, workspaceId: string, jobId: string): Promise<{ id: string; lon: number; lat: number }[]>;
  /**
   * Those of `ids` the job still holds, moved to running, as the engine takes them, by id: a job takes
   * its next reads together, so a group costs a statement or two rather than one a read.
   */
  take(em: Em, workspaceId: string, jobId: string, ids: readonly string[]): Promise<Map<string, PlotToRead>>;
  /** Running → queued for those taken and not read: the job goes back to the queue, and nothing reads them until it is taken again. */
  putBack(em: Em, workspaceId: string, jobId: string, ids: readonly string[]): Promise<void>;
  /** Stores finished reads of one job together; each one's outcome, in order. */
  store(em: Em, finished: ReadonlyArray<{ read: HeldRead; reading: PlotReading }>, links: { baseUrl: string }): Promise<WriteOutcome[]>;
  fail(em: Em, read: HeldRead, error: string, at: Date, links: { baseUrl: string }): Promise<WriteOutcome>;
}

/** The register's plots (spec 3.1): a finished read charges the allowance and writes its event. */
export const plotReads: HeldReads = {
  places: heldPlotPlaces,
  async take(em, workspaceId, jobId, ids) {
    const running = await markRunning(em, workspaceId, ids, jobId);
    return new Map((await heldPlots(em, workspaceId, jobId, running)).map((r) => [r.id, {
      id: r.id, workspaceId, ref: r.external_ref, geometry: r.geometry, areaHa: r.area_ha,
      declaredAreaHa: r.declared_area_ha, country: r.country, producerCountry: r.producer_country,
    }]));
  },
  putBack: (em, workspaceId, jobId, ids) => markQueued(em, workspaceId, ids, jobId),
  store: (em, finished, links) => storeEvidenceAll(em, finished.map(({ read, reading }) => ({
    readId: randomUUID(), workspaceId: read.workspaceId, plotId: read.id, jobId: read.jobId,
    evidence: reading.evidence, integrity: reading.integrity, map: reading.map, facts: reading.facts,
  })), links),
  fail: (em, read, error, at, links) => recordFailure(em, { workspaceId: read.workspaceId, plotId: read.id, jobId: read.jobId, error, at }, links),
};

/**
 * The ids of what the job still holds, neighbours after one another (the rows themselves are
 * loaded one at a time). The order depends only on the reads and the job's list, so a resumed job
 * reads what is left in the order it had.
 */
async function heldPlaces(deps: RunnerDeps, reads: HeldReads, job: Job<EvidenceJobData>): Promise<Array<{ id: string; lon: number; lat: number }>> {
  const held = new Map((await reads.places(deps.store.em(), job.data.workspaceId, job.id)).map((p) => [p.id, p]));
  return spatialOrder(job.data.plotIds.flatMap((id) => held.get(id) ?? []));
}

/**
 * A failed read's reason, in words a person can act on. It reaches the register, a 409's message and
 * the failed event's `error`: an archive failure names the product, tile or scene it met; a failure of
 * the service's own files (a Node system error, whose message quotes the path) says only its code.
 */
export function failureReason(err: unknown): string {
  const system = err as { syscall?: unknown; path?: unknown; code?: unknown };
  if (typeof system.syscall === 'string' && typeof system.path === 'string') return `The read could not be completed: a file of the service could not be used (${String(system.code)})`;
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code !== 'read_failed') return `The archive could not be read (${code}): ${message}`;
  return `The read could not be completed: ${message}`;
}

/** The queue handler of evidence jobs over `reads` (the register's plots by default). `stopping` aborts when the process shuts down. */
export function evidenceJobHandler(deps: RunnerDeps, stopping: AbortSignal, reads: HeldReads = plotReads) {
  const lookahead = deps.lookahead ?? DEFAULT_LOOKAHEAD;
  const plotsAtOnce = deps.plotsAtOnce ?? 1;
  return async (job: Job<EvidenceJobData>): Promise<void> => {
    const { workspaceId } = job.data;
    const places = await heldPlaces(deps, reads, job);
    const plots = places.map((p) => p.id);
    const log = deps.log.child({ job: job.id, workspace: workspaceId });
    log.info({ plots: plots.length, of: job.data.plotIds.length, attempt: job.retryCount }, 'evidence job started');
    // Fetches ahead are called off when the job ends however it ends.
    const ahead = new AbortController();
    const signal = job.signal === undefined ? ahead.signal : AbortSignal.any([job.signal, ahead.signal]);
    const prepared = new Map<number, Promise<PreparedPlot | null>>();
    // The next STORE_GROUP plots, taken (moved to running) and loaded together; let go once the last of them is prepared.
    const rows = new Map<number, Promise<Map<string, PlotToRead>>>();
    // Taken and not yet read, and the takes: what is left of them goes back to the queue when the job ends.
    const taken = new Set<string>();
    const takes: Array<Promise<unknown>> = [];
    const rowOf = (k: number) => {
      const g = Math.floor(k / STORE_GROUP);
      let group = rows.get(g);
      if (group === undefined) {
        group = reads.take(deps.store.em(), workspaceId, job.id, plots.slice(g * STORE_GROUP, (g + 1) * STORE_GROUP));
        takes.push(group.then((held) => held.forEach((_, id) => taken.add(id)), () => {}));
        rows.set(g, group);
      }
      if (k === Math.min(plots.length, (g + 1) * STORE_GROUP) - 1) rows.delete(g);
      return group.then((held) => held.get(plots[k]) ?? null);
    };
    const prepare = (k: number) => {
      if (k >= plots.length || prepared.has(k)) return;
      const p = rowOf(k).then((plot) => (plot === null ? null : preparePlot(plot, deps, signal)));
      p.catch(() => {});
      prepared.set(k, p);
    };
    const readOne = async (k: number, computed: () => void): Promise<void> => {
      const plotId = plots[k];
      const held: HeldRead = { workspaceId, id: plotId, jobId: job.id };
      const em = deps.store.em();
      let reading;
      try {
        const ready = await prepared.get(k)!;
        // Reset, or moved to another job, since the job began: nothing to read here.
        if (ready === null) return;
        reading = await finishPlot(ready, deps, signal, computed);
      } catch (err) {
        if (signal.aborted) throw err;
        const error = failureReason(err);
        log.warn({ plot: plotId, err }, 'plot read failed');
        await reads.fail(em, held, error, new Date(), { baseUrl: deps.baseUrl });
        return;
      } finally {
        prepared.delete(k);
        taken.delete(plotId);
      }
      stored(held, reading);
    };
    // Plots in hand: each finishes (or fails) before the job ends, however it ends.
    const inHand = new Set<Promise<void>>();
    // Those of them still computing in the pool (or not yet past it): each settles when its pool work has ended or its read has.
    const computing = new Set<Promise<void>>();
    // A plot whose read was called off (the job's signal): the job stops taking plots and ends with its error.
    const calledOff: unknown[] = [];
    // Finished reads waiting to be stored, and the groups being written.
    let waiting: Array<{ read: HeldRead; reading: PlotReading }> = [];
    let waitTimer: NodeJS.Timeout | undefined;
    const writing = new Set<Promise<void>>();
    const flush = () => {
      clearTimeout(waitTimer);
      waitTimer = undefined;
      if (waiting.length === 0) return;
      const group = waiting;
      waiting = [];
      const written: Promise<void> = reads.store(deps.store.em(), group, { baseUrl: deps.baseUrl }).then(
        (outcomes) => {
          writing.delete(written);
          group.forEach(({ read, reading }, i) => log.debug({ plot: read.id, outcome: outcomes[i], verdict: reading.evidence.verdict, reason: reading.evidence.reason }, 'plot read'));
        },
        (err: unknown) => {
          writing.delete(written);
          calledOff.push(err);
        },
      );
      writing.add(written);
    };
    const stored = (read: HeldRead, reading: PlotReading) => {
      waiting.push({ read, reading });
      if (waiting.length >= STORE_GROUP) flush();
      else waitTimer ??= setTimeout(flush, STORE_WAIT_MS);
    };
    // Every plot in hand finished (or failed) and every finished read written.
    const settleAll = async () => {
      await Promise.allSettled([...inHand]);
      flush();
      await Promise.allSettled([...writing]);
    };
    // The plot the job is at, for the decoded tiles to keep what the plots after it need.
    let at = 0;
    const lookingAhead = deps.tiles.lookAhead(plotsAhead(places, () => at));
    try {
      for (let k = 0; k < plots.length; k++) {
        at = k;
        while ((computing.size >= plotsAtOnce || inHand.size >= 2 * plotsAtOnce) && calledOff.length === 0) await Promise.race([...computing, ...inHand, ...writing]).catch(() => {});
        if (calledOff.length > 0) break;
        if (stopping.aborted) {
          await settleAll();
          throw new JobReleasedError(`the worker is shutting down; ${plots.length - k} plots of the job go back to the queue`);
        }
        for (let j = k; j <= k + lookahead + plotsAtOnce - 1; j++) prepare(j);
        let pastPool!: () => void;
        const computed = new Promise<void>((resolve) => (pastPool = resolve));
        computing.add(computed);
        void computed.then(() => computing.delete(computed));
        const reading: Promise<void> = readOne(k, pastPool).finally(pastPool).then(
          () => void inHand.delete(reading),
          (err: unknown) => {
            inHand.delete(reading);
            calledOff.push(err);
            throw err;
          },
        );
        reading.catch(() => {});
        inHand.add(reading);
      }
      await settleAll();
      if (calledOff.length > 0) throw calledOff[0];
      log.info('evidence job finished');
    } finally {
      lookingAhead();
      clearTimeout(waitTimer);
      ahead.abort(new Error('the job ended'));
      await Promise.all(takes);
      if (taken.size > 0) {
        await reads.putBack(deps.store.em(), workspaceId, job.id, [...taken]).catch((err: unknown) => log.warn({ err, plots: taken.size }, 'plots taken and not read could not be put back to queued'));
      }
    }
  };
}

export interface EvidenceWorker {
  readonly archive: Archive;
  readonly pool: EnginePool;
  /** The decoded-tile cache its jobs share. */
  readonly tiles: DecodedTiles;
  /** Stop taking plots: the plots in hand finish, then the job goes back to the queue. */
  stopTaking(): void;
  /** Closes the pool and the archive (after the queue has stopped). */
  close(): Promise<void>;
}

export interface WorkerServices {
  config: Config;
  store: Store;
  queue: Queue;
  log: Logger;
  signingKey: SigningKey;
}

/**
 * The worker side of a process: one archive, one pool, one decoded-tile cache, and
 * `jobConcurrency` queue workers. The archive is opened by the caller, which knows how its
 * archive is configured, and closed with the worker.
 */
export async function startEvidenceWorker(
  services: WorkerServices,
  options: { archive: Archive; lookahead?: number; engine?: { pool: EnginePool; tiles: DecodedTiles } },
): Promise<EvidenceWorker> {
  const { config, store, queue, log, signingKey } = services;
  const { archive } = options;
  // Read once: a campaign's figures reach evidence from the next start, as the committed regions do.
  const calibration = await loadCalibrationTable({ dataDir: config.dataDir, archive: config.archive });
  // A process that also serves map tiles shares its pool and decoded tiles with them (decision 4: one pool a process); their owner closes them.
  const pool = options.engine?.pool ?? createPool({ size: config.poolSize, nice: config.poolNice });
  const ownsPool = options.engine === undefined;
  const stopping = new AbortController();
  const tiles = options.engine?.tiles ?? new DecodedTiles({ maxBytes: config.decodedTileCacheBytes });
  const runner: RunnerDeps = {
    archive, pool, tiles, signingKey, whisp: config.whisp, calibration, maxReadAreaHa: config.intakeCaps.plotAreaHa, store, baseUrl: config.baseUrl, log: log.child({ concern: 'evidence' }), lookahead: options.lookahead,
    plotsAtOnce: Math.max(1, Math.floor(config.poolSize / config.jobConcurrency)),
  };
  const handler = evidenceJobHandler(runner, stopping.signal);
  const boundaries = evidenceJobHandler({ ...runner, log: log.child({ concern: 'studio' }) }, stopping.signal, boundaryReads);
  for (let i = 0; i < config.jobConcurrency; i++) {
    await queue.work<EvidenceJobData>(QUEUES.evidence, handler);
    await queue.work<EvidenceJobData>(QUEUES.studio, boundaries);
  }
  return {
    archive,
    pool,
    tiles,
    stopTaking() {
      stopping.abort(new Error('shutting down'));
    },
    async close() {
      if (ownsPool) await pool.close();
      await archive.close();
    },
  };
}
