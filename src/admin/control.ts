import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Logger } from '../log.ts';
import type { Store } from '../store/orm.ts';
import { runAdminCommand, type AdminSigning, type Flags } from './commands.ts';

/**
 * The embedded database admits one process, so a running service answers admin commands for it over a
 * Unix socket in its data directory (owner-only); when nothing listens there, the CLI opens the database itself.
 */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'control.sock');
}

export interface AdminReply {
  ok: boolean;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

export async function serveControlSocket(dataDir: string, store: Store, signing: AdminSigning, log: Logger): Promise<() => Promise<void>> {
  const socket = controlSocketPath(dataDir);
  fs.rmSync(socket, { force: true });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let reply: AdminReply;
    try {
      const { words, flags } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { words: string[]; flags: Flags };
      reply = { ok: true, result: await runAdminCommand(store, words, flags, signing) };
      log.info({ command: words.join(' ') }, 'admin command run');
    } catch (err) {
      const e = err as { code?: string; message: string };
      reply = { ok: false, error: { code: typeof e.code === 'string' ? e.code : 'internal', message: e.message } };
    }
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(reply));
  });
  // Owner-only from the moment it exists: the umask in force at bind (listen binds synchronously, so it is set
  // only for that call), rather than a chmod after, which left a moment when any user could connect.
  const umask = process.umask(0o177);
  const listening = new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
  process.umask(umask);
  await listening;
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socket, { force: true });
    });
}

/** Sends a command to a running service; null when no service listens. */
export function sendToService(dataDir: string, words: string[], flags: Flags): Promise<AdminReply | null> {
  const socketPath = controlSocketPath(dataDir);
  if (!fs.existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'POST', path: '/admin' }, (res) => {
      const chunks: Buffer[] = [];
      // A service that stops mid-answer cuts the body; the command fails rather than the process.
      res.on('error', reject);
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdminReply);
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? resolve(null) : reject(err)));
    req.end(JSON.stringify({ words, flags }));
  });
}
