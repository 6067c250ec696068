// The demo archive on disk: generated under `<dataDir>/archive/` when missing or made by another
// generator version, wholly in a worker thread (install-worker.ts) so the event loop of the
// process that asked keeps serving; and the site list the `demo sites` command prints.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { plotRef } from './plot-book.ts';
import { DEMO_SEED, siteModels } from './world.ts';
import type { DemoSiteSummary } from './sites.ts';

export class DemoArchiveError extends Error {
  readonly code: 'archive_not_demo' | 'generation_locked' | 'disk_full';
  constructor(code: DemoArchiveError['code'], message: string) {
    super(message);
    this.name = 'DemoArchiveError';
    this.code = code;
  }
}

export function demoArchiveDir(dataDir: string): string {
  return join(dataDir, 'archive');
}

export function demoPlotBookPath(dataDir: string): string {
  return join(dataDir, 'demo', 'plots.geojson');
}

export interface DemoArchiveState {
  generated: boolean;
  version: string;
}

/** What the install thread is given: the data folder, and the demo sites to hold (null: every one). */
export interface InstallTask {
  dataDir: string;
  sites: string[] | null;
}

/** What the install thread posts back: the state, or why it failed. */
export type InstallOutcome = { state: DemoArchiveState } | { error: { code?: string; message: string } };

/**
 * Makes sure `<dataDir>/archive` holds the current demo world and `<dataDir>/demo/plots.geojson`
 * its plot book, in a worker thread; `sites` narrows the world to those demo sites (a smaller world
 * for a quick look; the default is every site). Idempotent; several processes starting at once generate it
 * once (a lock file makes the others wait). A non-empty archive folder that is not a demo world
 * is never touched.
 */
export function ensureDemoArchive(dataDir: string, sites?: readonly string[]): Promise<DemoArchiveState> {
  return new Promise((resolve, reject) => {
    const task: InstallTask = { dataDir, sites: sites ? [...sites] : null };
    const thread = new Worker(new URL('./install-worker.ts', import.meta.url), { workerData: task });
    let outcome: InstallOutcome | null = null;
    thread.once('message', (o: InstallOutcome) => (outcome = o));
    thread.once('error', reject);
    thread.once('exit', (code) => {
      if (outcome === null) return reject(new Error(`the demo archive thread exited with code ${code} before it answered`));
      if ('state' in outcome) return resolve(outcome.state);
      const { code: errorCode, message } = outcome.error;
      reject(errorCode === 'archive_not_demo' || errorCode === 'generation_locked' || errorCode === 'disk_full' ? new DemoArchiveError(errorCode, message) : new Error(message));
    });
  });
}

/** Every demo site with its bounds, plot, and the verdict and reason its truth implies. */
export function demoSites(): DemoSiteSummary[] {
  return siteModels(DEMO_SEED).map((m, i) => {
    const lons = m.lonLatRing.map((p) => p[0]);
    const lats = m.lonLatRing.map((p) => p[1]);
    // The bounds reach a little past the plot: the ground its instruments read around it.
    const pad = 0.005;
    const [w, s, e, n] = [Math.min(...lons) - pad, Math.min(...lats) - pad, Math.max(...lons) + pad, Math.max(...lats) + pad].map((v) => Math.round(v * 1e6) / 1e6);
    return {
      name: m.spec.name,
      title: m.spec.title,
      country: m.spec.country,
      commodity: m.spec.commodity,
      bounds: { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] },
      plot_ref: plotRef(m, i),
      verdict: m.spec.truth.verdict,
      reason: m.spec.truth.reason,
      reasons: m.spec.truth.reasons,
      variants: m.spec.truth.variants ?? [],
      intended: m.spec.intended,
      story: m.spec.story,
    };
  });
}
