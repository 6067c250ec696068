import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { demoArchiveDir, demoPlotBookPath, ensureDemoArchive } from '../../src/demo/archive.ts';
import { DEMO_WORLD_VERSION } from '../../src/demo/world.ts';

const run = promisify(execFile);

export type Line = Record<string, unknown>;

/**
 * Runs a fixture script in its own Node process; resolves with the JSON lines it printed, once it
 * prints a line `until` accepts (the process is then left running for the test to kill) or when it exits.
 */
export function runFixture(file: string, mode: string, env: Record<string, string>, until?: (line: Line) => boolean) {
  const child = spawn(process.execPath, [file, mode], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Line[] = [];
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<Line[]>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      for (const l of d.toString().split('\n').filter(Boolean)) {
        const parsed = JSON.parse(l) as Line;
        lines.push(parsed);
        if (until?.(parsed)) resolve(lines);
      }
    });
    child.on('exit', (code) => (code === 0 || until ? resolve(lines) : reject(new Error(`${mode} exited ${code}: ${stderr}`))));
  });
  return { child, done };
}

type LogLine = { msg?: string; [k: string]: unknown };
const ROOT = resolve(import.meta.dirname, '../..');

/** A service process in one role (`node src/main.ts api|worker|serve`); its JSON log lines are kept for the caller to read. */
export function startRole(role: 'api' | 'worker' | 'serve', env: Record<string, string>) {
  const child = spawn(process.execPath, ['src/main.ts', role], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: LogLine[] = [];
  const watchers: Array<(line: LogLine) => void> = [];
  let rest = '';
  child.stdout.on('data', (d: Buffer) => {
    const parts = (rest + d.toString()).split('\n');
    rest = parts.pop()!;
    for (const l of parts.filter(Boolean)) {
      const line = JSON.parse(l) as LogLine;
      lines.push(line);
      for (const watch of watchers) watch(line);
    }
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child, lines, exited,
    said: (msg: string) => lines.some((l) => l.msg === msg),
    /** Calls `watch` with each line as it arrives (a test that must act within the process's next step). */
    onLine: (watch: (line: LogLine) => void) => void watchers.push(watch),
    async until(msg: string, timeoutMs = 90_000): Promise<LogLine> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = lines.find((l) => l.msg === msg);
        if (line) return line;
        if (child.exitCode !== null) throw new Error(`${role} exited ${child.exitCode} before "${msg}": ${stderr}`);
        if (Date.now() > deadline) throw new Error(`${role} did not log "${msg}" in ${timeoutMs} ms`);
        await sleep(100);
      }
    },
    /** SIGTERM (a clean stop) unless it has already gone; resolves once it has exited. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
export type RoleProcess = ReturnType<typeof startRole>;

/** A data folder holding the full demo world and its plot book, generated once per machine and version and only read. */
export async function sharedDemoData(): Promise<string> {
  const world = join(tmpdir(), `precutoff-portal-world-${DEMO_WORLD_VERSION}`);
  await ensureDemoArchive(world);
  return world;
}

/**
 * A fresh data directory for a service process; `withWorld` hard-links the full demo world into it
 * (generated once into the temporary folder), so a worker starts without generating its own.
 */
export async function roleDataDir(role: string, withWorld: boolean): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `pce-${role}-`));
  if (withWorld) {
    const world = await sharedDemoData();
    await run('cp', ['-al', demoArchiveDir(world), demoArchiveDir(dir)]);
    await cp(dirname(demoPlotBookPath(world)), dirname(demoPlotBookPath(dir)), { recursive: true });
  }
  return dir;
}
