/**
 * The value-import closure of source files, read from their text: `import`/`export … from`
 * specifiers, dynamic `import('…')` and the modules threads are started on; type-only imports are
 * left out unless asked for, since they vanish when the source runs. A relative specifier is followed into its file; a bare one names a package
 * (or a `node:` module) and ends the walk there.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const STATIC = /^\s*(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
/** A module a thread is started on: `new URL('./task.ts', import.meta.url)`. */
const WORKER_ENTRY = /new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/g;

/** Whether an import clause names types only: `type {…}`, or braces whose every name is `type X`. */
function typeOnly(typeKeyword: string | undefined, clause: string | undefined): boolean {
  if (typeKeyword !== undefined) return true;
  const braces = clause?.trim().match(/^\{([^}]*)\}$/);
  if (!braces) return false;
  const names = braces[1].split(',').map((s) => s.trim()).filter((s) => s !== '');
  return names.length > 0 && names.every((s) => s.startsWith('type '));
}

/** The specifiers one source text imports or re-exports: by value only, or with its type-only imports too. */
export function importSpecifiers(source: string, withTypes = false): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(STATIC)) if (withTypes || !typeOnly(m[1], m[2])) out.push(m[3]);
  for (const m of source.matchAll(DYNAMIC)) out.push(m[1]);
  for (const m of source.matchAll(WORKER_ENTRY)) out.push(m[1]);
  return out;
}

export interface ImportClosure {
  /** Every local file reached, each with the file that first imported it (null for an entry). */
  files: Map<string, string | null>;
  /** Every bare specifier reached, each with the first file importing it. */
  packages: Map<string, string>;
}

/** The files and packages reached from `entries` (absolute paths), breadth first; by value only unless `withTypes`. */
export function importClosure(entries: readonly string[], withTypes = false): ImportClosure {
  const files = new Map<string, string | null>();
  const packages = new Map<string, string>();
  const queue: Array<[string, string | null]> = entries.map((e) => [e, null]);
  for (let head = 0; head < queue.length; head++) {
    const [file, from] = queue[head];
    if (files.has(file)) continue;
    files.set(file, from);
    if (!/\.[cm]?[jt]s$/.test(file)) continue;
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'), withTypes)) {
      if (spec.startsWith('.')) queue.push([resolve(dirname(file), spec), file]);
      else if (!packages.has(spec)) packages.set(spec, file);
    }
  }
  return { files, packages };
}

/** The chain of imports from an entry to `file`, entry first. */
export function importPath(closure: ImportClosure, file: string): string[] {
  const chain: string[] = [];
  for (let at: string | null | undefined = file; at != null; at = closure.files.get(at)) chain.unshift(at);
  return chain;
}
