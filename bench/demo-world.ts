// `npm run bench -- demo-world`: how long generating the default demo world takes, on one
// thread and on all, against the floor of writing the same files' bytes with nothing computed.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { generateDemoWorld } from '../src/demo/world.ts';

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

export default async function demoWorldBench(): Promise<void> {
  const base = join(process.cwd(), 'data', 'bench-demo-world');
  rmSync(base, { recursive: true, force: true });
  const figures: Record<string, number> = {};
  for (const threads of [1, availableParallelism()]) {
    const root = join(base, `threads-${threads}`);
    const t = performance.now();
    await generateDemoWorld(root, { threads });
    figures[`seconds_threads_${threads}`] = Math.round(performance.now() - t) / 1000;
  }
  const root = join(base, `threads-${availableParallelism()}`);
  const files = filesUnder(root);
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  // The floor: the same files with the same bytes, copied as they are (no signal, no encoding).
  const copy = join(base, 'copy');
  const contents = files.map((f) => [f.slice(root.length), readFileSync(f)] as const);
  const t = performance.now();
  const made = new Set<string>();
  for (const [rel, data] of contents) {
    const to = join(copy, rel);
    if (!made.has(dirname(to))) {
      mkdirSync(dirname(to), { recursive: true });
      made.add(dirname(to));
    }
    writeFileSync(to, data);
  }
  figures.seconds_write_floor = Math.round(performance.now() - t) / 1000;
  rmSync(base, { recursive: true, force: true });
  figures.files = files.length;
  figures.megabytes = Math.round(bytes / 1e5) / 10;
  const best = Math.min(figures.seconds_threads_1, figures[`seconds_threads_${availableParallelism()}`]);
  figures.ratio_to_write_floor = Math.round((best / figures.seconds_write_floor) * 100) / 100;
  console.log(`demo world: ${figures.files} files, ${figures.megabytes} MB`);
  console.log(`generation: ${figures.seconds_threads_1} s on 1 thread, ${figures[`seconds_threads_${availableParallelism()}`]} s on ${availableParallelism()}`);
  console.log(`writing the same bytes alone: ${figures.seconds_write_floor} s (generation is ${figures.ratio_to_write_floor}x that)`);
  console.log(JSON.stringify({ bench: 'demo-world', ...figures, cores: availableParallelism(), node: process.version, cpu: cpus()[0]?.model ?? 'unknown' }));
}
