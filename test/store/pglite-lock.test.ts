import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireLock, DatabaseBusyError } from '../../src/store/pglite-lock.ts';
import { openStore } from '../../src/store/orm.ts';

const LOCK_MODULE = path.resolve(import.meta.dirname, '../../src/store/pglite-lock.ts');

const scratchDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'pce-lock-'));

/**
 * A process that takes the lock on `dir` (waiting `waitMs`) and prints `held <pid>`, then holds it until killed, or
 * for `holdMs` and exits; or prints the refusal's code and message. `pidNamespace` starts it as pid 1 of a new PID
 * namespace, as a container is.
 */
function locker(dir: string, opts: { waitMs: number; holdMs?: number; pidNamespace?: boolean }) {
  const script = `
    const { acquireLock } = await import(${JSON.stringify(LOCK_MODULE)});
    try {
      await acquireLock(${JSON.stringify(dir)}, ${opts.waitMs});
      console.log('held ' + process.pid);
      ${opts.holdMs === undefined ? 'setInterval(() => {}, 1000);' : `setTimeout(() => {}, ${opts.holdMs});`}
    } catch (err) {
      console.log(err.code + ' ' + err.message);
    }`;
  const node = [process.execPath, '--input-type=module', '-e', script];
  const [cmd, ...args] = opts.pidNamespace ? ['unshare', '--pid', '--fork', '--kill-child', ...node] : node;
  const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const firstLine = new Promise<string>((resolve) => {
    child.stdout!.on('data', () => out.includes('\n') && resolve(out.split('\n')[0]!));
    child.once('exit', () => resolve(out.split('\n')[0]!));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, firstLine, exited };
}

/** Ends a locker: SIGKILL, since `unshare --fork` ignores SIGTERM (its child, a namespace's pid 1, dies with it). */
async function kill(child: ChildProcess, exited: Promise<void>) {
  child.kill('SIGKILL');
  await exited;
}

describe('the embedded database lock', () => {
  test('a second service in the same PID namespace is refused with one line naming the holder', async () => {
    const dir = scratchDir();
    const first = locker(dir, { waitMs: 0 });
    try {
      const held = await first.firstLine;
      assert.equal(held, `held ${first.child.pid}`);
      await assert.rejects(acquireLock(dir, 300), (err: unknown) => {
        assert.ok(err instanceof DatabaseBusyError);
        assert.equal(err.code, 'database_busy');
        assert.doesNotMatch(err.message, /\n/);
        assert.match(err.message, new RegExp(`in use by another service \\(pid ${first.child.pid} on host ${os.hostname()} since [0-9T:.Z-]+; still held after 0.3 s; lock ${dir}/db.lock\\)`));
        return true;
      });
    } finally {
      await kill(first.child, first.exited);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('two services in separate PID namespaces, both pid 1: the second is refused and the first keeps the lock', async () => {
    const dir = scratchDir();
    const first = locker(dir, { waitMs: 0, pidNamespace: true });
    try {
      assert.equal(await first.firstLine, 'held 1');
      const second = locker(dir, { waitMs: 300, pidNamespace: true });
      assert.match(await second.firstLine, /^database_busy the embedded database is in use by another service \(pid 1 on host /);
      await second.exited;
      // The first still holds it: a third, in this namespace, is refused as well.
      await assert.rejects(acquireLock(dir, 0), DatabaseBusyError);
    } finally {
      await kill(first.child, first.exited);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a holder killed outright, in its own PID namespace or not, leaves a lock the next start takes', async () => {
    for (const pidNamespace of [false, true]) {
      const dir = scratchDir();
      const crashed = locker(dir, { waitMs: 0, pidNamespace });
      assert.match(await crashed.firstLine, /^held \d+$/);
      await kill(crashed.child, crashed.exited);
      // The lock file stays, naming the dead holder: it is the kernel's lock that counts, and that went with it.
      assert.match(fs.readFileSync(path.join(dir, 'db.lock'), 'utf8'), /^pid \d+ on host /);
      const release = await acquireLock(dir);
      await release();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a lock file left by the pid-file lock (reading 1) does not hold the database', async () => {
    const dir = scratchDir();
    fs.writeFileSync(path.join(dir, 'db.lock'), '1');
    const release = await acquireLock(dir, 0);
    assert.match(fs.readFileSync(path.join(dir, 'db.lock'), 'utf8'), new RegExp(`^pid ${process.pid} on host `));
    await release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a restart waits for a holder that is still exiting, then takes the lock', async () => {
    const dir = scratchDir();
    const exiting = locker(dir, { waitMs: 0, holdMs: 400 });
    assert.match(await exiting.firstLine, /^held /);
    await assert.rejects(acquireLock(dir, 0), DatabaseBusyError);
    const release = await acquireLock(dir, 10_000);
    assert.match(fs.readFileSync(path.join(dir, 'db.lock'), 'utf8'), new RegExp(`^pid ${process.pid} on host `));
    await exiting.exited;
    await release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('once released, the lock is free at once', async () => {
    const dir = scratchDir();
    const release = await acquireLock(dir, 0);
    await assert.rejects(acquireLock(dir, 0), DatabaseBusyError);
    await release();
    const again = await acquireLock(dir, 0);
    await again();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the embedded database directory is owner-only, also when it existed with a wider mode', async () => {
    const dir = scratchDir();
    const dbDir = path.join(dir, 'db');
    fs.mkdirSync(dbDir, { mode: 0o755 });
    fs.chmodSync(dbDir, 0o755);
    const store = await openStore({ databaseUrl: null, pgliteDir: dbDir });
    try {
      assert.equal(fs.statSync(dbDir).mode & 0o777, 0o700);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
