// The demo archive as the engine reads it: the generated world's files in place, and its
// API-shaped sources answered in-process by demoApi, labelled synthetic throughout.
import { type Archive, type ArchiveOptions, openArchive } from '../engine/archive.ts';
import { type AlertsAdapter, createAlertsAdapter } from '../engine/sources/products/gfw-alerts/reader.ts';
import { demoApi, DEMO_GFW_API_KEY } from './api-transport.ts';
import { demoArchiveDir } from './archive.ts';

export interface DemoArchiveOptions extends Omit<ArchiveOptions, 'kind' | 'root' | 'api'> {
  /** The folder the world was generated into; default `<dataDir>/archive`. */
  root?: string;
}

export function openDemoArchive(options: DemoArchiveOptions): Promise<Archive> {
  const root = options.root ?? demoArchiveDir(options.dataDir);
  return openArchive({ ...options, kind: 'demo', root, api: demoApi(root), gfwApiKey: options.gfwApiKey ?? DEMO_GFW_API_KEY });
}

/** The demo world's published alerts alone, as an API process scans them: answered in-process from the world's tables. */
export function openDemoAlerts(dataDir: string, root = demoArchiveDir(dataDir)): AlertsAdapter {
  const api = demoApi(root);
  return createAlertsAdapter({ where: { root: api.root, synthetic: true }, http: api.http, apiKey: DEMO_GFW_API_KEY });
}
