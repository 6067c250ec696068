import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../fixtures/webhook_receiver.py', import.meta.url));

/** What the Python receiver concluded about one request. */
export type Verdict = { signed: boolean; fresh: boolean; event_id?: string; duplicate?: boolean; header_matches?: boolean };

export interface PythonReceiver {
  port: number;
  /** Every verdict so far, in arrival order. */
  verdicts: Verdict[];
  /** Resolves with the first `n` verdicts once they have come. */
  waitForVerdicts(n: number): Promise<Verdict[]>;
  /** Gives the receiver the endpoint's secret (once, before the first delivery). */
  trust(secret: string): void;
  /** Sets the time the receiver measures timestamps against; resolves once it has taken it. */
  setClock(at: Date): Promise<void>;
  stop(): Promise<void>;
}

/** A free loopback port, to bring a receiver up on later (nothing listens there meanwhile). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts test/fixtures/webhook_receiver.py (Python's standard library only), on `port` or any free one. */
export async function startPythonReceiver(port = 0): Promise<PythonReceiver> {
  const python: ChildProcessWithoutNullStreams = spawn('python3', [SCRIPT, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const verdicts: Verdict[] = [];
  let listening: (p: number) => void = () => {};
  let clockTaken: (() => void) | null = null;
  let verdictCame: (() => void) | null = null;
  const ready = new Promise<number>((resolve) => (listening = resolve));
  let buffer = '';
  python.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = JSON.parse(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
      if ('port' in line) listening(line.port);
      else if ('clock' in line) clockTaken?.();
      else (verdicts.push(line), verdictCame?.());
    }
  });
  const exited = new Promise<void>((resolve) => python.once('exit', () => resolve()));
  return {
    port: await ready,
    verdicts,
    async waitForVerdicts(n) {
      while (verdicts.length < n) await new Promise<void>((resolve) => (verdictCame = resolve));
      return verdicts.slice(0, n);
    },
    trust: (secret) => void python.stdin.write(`${secret}\n`),
    setClock(at) {
      const taken = new Promise<void>((resolve) => (clockTaken = resolve));
      python.stdin.write(`clock ${at.getTime() / 1000}\n`);
      return taken;
    },
    async stop() {
      python.kill();
      await exited;
    },
  };
}
