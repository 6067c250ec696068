// The demo archive as the engine reads it: the generated world's files in place, and its
// API-shaped sources answered in-process by demoApi, labelled synthetic throughout.
import { type Archive, type ArchiveOptions, openArchive } from '../engine/archive.ts';
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
