import { spawn } from 'node:child_process';

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
