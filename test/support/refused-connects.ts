import { constants } from 'node:os';

type Connect = (this: unknown, req: unknown, address: string, port: number, ...rest: unknown[]) => number;
interface TcpWrap {
  TCP: { prototype: { connect: Connect; connect6: Connect } };
}

/**
 * Makes every TCP connect to `port` fail the way the kernel fails it at once, as connect(2) returning
 * `code` (ENETUNREACH for a host without a route, EPERM from an egress firewall): the error comes back
 * synchronously from the socket handle, inside net's own connect, as it does on such a host. Other
 * ports (the database, the API under test) connect as usual. Answers the function that undoes it.
 */
export function refuseConnects(port: number, code: 'ENETUNREACH' | 'EPERM'): () => void {
  // The handle's own connect is the only place where the kernel's answer can be replaced.
  const { TCP } = (process as unknown as { binding(name: string): TcpWrap }).binding('tcp_wrap');
  const { connect, connect6 } = TCP.prototype;
  const refusing = (original: Connect): Connect =>
    function (req, address, p, ...rest) {
      return p === port ? -constants.errno[code] : original.call(this, req, address, p, ...rest);
    };
  TCP.prototype.connect = refusing(connect);
  TCP.prototype.connect6 = refusing(connect6);
  return () => {
    TCP.prototype.connect = connect;
    TCP.prototype.connect6 = connect6;
  };
}

/** Collects the process's uncaught exceptions while `run` runs (node:test would otherwise end the test file on one). */
export async function uncaughtDuring(run: () => Promise<void>): Promise<Error[]> {
  const seen: Error[] = [];
  const listener = (err: Error) => seen.push(err);
  process.on('uncaughtException', listener);
  try {
    await run();
    // An 'error' nobody hears is emitted on a later turn than the code that caused it.
    for (let turn = 0; turn < 3; turn++) await new Promise(setImmediate);
  } finally {
    process.off('uncaughtException', listener);
  }
  return seen;
}
