/**
 * The local archive server in a process of its own, so a bench's main thread does only the
 * service's work, as it would against a remote archive. Started by `serveArchiveProcess` with IPC:
 * it answers `{ url }` once listening, the request log when sent 'requests', and exits on 'close'.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type ArchiveServerOptions, type RequestLog, serveDemoArchive } from '../test/support/archive-server.ts';

type Options = Omit<ArchiveServerOptions, 'root' | 'routes'>;

export interface ArchiveProcess {
  url: string;
  requests(): Promise<RequestLog[]>;
  clearRequests(): Promise<void>;
  close(): Promise<void>;
}

export async function serveArchiveProcess(root: string, options: Options): Promise<ArchiveProcess> {
  const child = fork(fileURLToPath(import.meta.url), [root, JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(message: string) => new Promise<T>((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string }));
    child.once('exit', (code) => reject(new Error(`the archive server process exited with ${code}`)));
  });
  return {
    url,
    requests: () => ask<RequestLog[]>('requests'),
    clearRequests: async () => void (await ask<null>('clear')),
    close: () => new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send('close');
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send !== undefined) {
  const server = await serveDemoArchive(process.argv[2], JSON.parse(process.argv[3]) as Options);
  process.on('message', async (m) => {
    if (m === 'requests') process.send!(server.requests());
    else if (m === 'clear') {
      server.clearRequests();
      process.send!(null);
    } else if (m === 'close') {
      await server.close();
      process.disconnect();
    }
  });
  process.send({ url: server.url });
}
