/**
 * The value-import graph of the sources, read as text: static `import`/`export … from` and dynamic
 * `import()` specifiers. Type-only imports are left out (they vanish when Node strips the types),
 * so the graph is what a thread actually loads.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface ModuleNode {
  /** Files of the tree this module loads. */
  files: Set<string>;
  /** Packages and node: built-ins it loads, by specifier. */
  packages: Set<string>;
}

export const SRC = resolve(import.meta.dirname, '../../src');

const STATIC = /^\s*(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"]([^'"]+)['"]\s*\)/g;

function typeOnly(typeKeyword: string | undefined, clause: string | undefined): boolean {
  if (typeKeyword) return true;
  // `import { type A, type B } from` loads nothing either.
  const named = clause?.trim().match(/^\{([^}]*)\}$/);
  return named !== null && named !== undefined && named[1].split(',').every((s) => s.trim() === '' || /^type\s/.test(s.trim()));
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export function importGraph(root = SRC): Map<string, ModuleNode> {
  const graph = new Map<string, ModuleNode>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const node: ModuleNode = { files: new Set(), packages: new Set() };
    const add = (spec: string) => (spec.startsWith('.') ? node.files.add(resolve(dirname(file), spec)) : node.packages.add(spec));
    for (const m of text.matchAll(STATIC)) if (!typeOnly(m[1], m[2])) add(m[3]);
    for (const m of text.matchAll(DYNAMIC)) add(m[1]);
    graph.set(file, node);
  }
  return graph;
}

/** Every file reached from the seeds by value imports, each with the chain that first reached it. */
export function closure(graph: Map<string, ModuleNode>, seeds: readonly string[]): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const queue = seeds.map((s) => [s]);
  while (queue.length > 0) {
    const chain = queue.shift()!;
    const file = chain[chain.length - 1];
    if (reached.has(file)) continue;
    reached.set(file, chain);
    for (const next of graph.get(file)?.files ?? []) if (!reached.has(next)) queue.push([...chain, next]);
  }
  return reached;
}

/** A chain of files as a reader follows it: paths relative to src/, joined by arrows. */
export const describeChain = (chain: readonly string[]) => chain.map((f) => relative(SRC, f)).join(' -> ');
