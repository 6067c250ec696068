import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  body: Buffer;
}

/** What the receiver does with a request: answer it (or not, to hang) after reading the body. */
export type Handler = (req: Received, res: ServerResponse, n: number) => void;

export const answer = (status: number, headers: Record<string, string> = {}): Handler => (_req, res) => {
  res.writeHead(status, headers);
  res.end(status >= 200 && status < 300 ? 'ok' : 'no');
};

export interface Receiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  received: Received[];
  handler: Handler;
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback that keeps every request it gets. */
export async function startReceiver(handler: Handler = answer(200)): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const receiver = { handler } as Receiver;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(r);
      receiver.handler(r, res, received.length);
      for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    waitFor(n: number, timeoutMs = 20_000) {
      if (received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} requests, waited for ${n}`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
