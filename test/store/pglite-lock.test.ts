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
const lockText = (dir: string) => fs.readFileSync(path.join(dir, 'db.lock'), 'utf8');

/** A process that runs until killed, or exits after `ms`; resolves once it is running. */
function liveProcess(ms?: number): Promise<ChildProcess> {
  const code = ms === undefined ? 'setInterval(() => {}, 1000); console.log("up")' : `setTimeout(() => {}, ${ms}); console.log("up")`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout!.once('data', () => resolve(child)));
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

/**
 * A process that tries for the lock without waiting and reports "won" (then holds it a while) or "busy". Each
 * pauses 50 ms after it reads the stale lock's pid, so every contender decides on what it saw while the others act.
 */
function contender(dir: string, stalePid: number, startAt: number): Promise<string> {
  const script = `
    import fs from 'node:fs';
    const read = fs.readFileSync;
    fs.readFileSync = (...args) => {
      const text = read(...args);
      if (String(args[0]).endsWith('db.lock') && String(text).trim() === '${stalePid}') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      return text;
    };
    const { acquireLock } = await import(${JSON.stringify(LOCK_MODULE)});
    await new Promise((r) => setTimeout(r, ${startAt} - Date.now()));
    try {
      await acquireLock(${JSON.stringify(dir)}, 0);
      console.log('won');
      await new Promise((r) => setTimeout(r, 1500));
    } catch (err) {
      console.log(err.code);
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  return new Promise((resolve) => child.once('exit', () => resolve(out.trim())));
}

describe('the embedded database lock', () => {
  test('of processes racing to take over a stale lock at the same instant, exactly one wins', async () => {
    for (let round = 0; round < 2; round++) {
      const dir = scratchDir();
      const stale = await deadPid();
      fs.writeFileSync(path.join(dir, 'db.lock'), String(stale));
      const startAt = Date.now() + 3000;
      const results = await Promise.all(Array.from({ length: 6 }, () => contender(dir, stale, startAt)));
      assert.equal(results.filter((r) => r === 'won').length, 1, results.join(','));
      assert.equal(results.filter((r) => r === 'database_busy').length, 5, results.join(','));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a restart after a crash takes over the lock the dead process left', async () => {
    const dir = scratchDir();
    fs.writeFileSync(path.join(dir, 'db.lock'), String(await deadPid()));
    const release = await acquireLock(dir, 0);
    assert.equal(lockText(dir), String(process.pid));
    release();
    assert.equal(fs.existsSync(path.join(dir, 'db.lock')), false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a restart waits for a holder that is still exiting, then takes the lock', async () => {
    const dir = scratchDir();
    const exiting = await liveProcess(400);
    fs.writeFileSync(path.join(dir, 'db.lock'), String(exiting.pid));
    const started = Date.now();
    const release = await acquireLock(dir, 10_000);
    assert.ok(Date.now() - started >= 200, 'took the lock while its holder still ran');
    assert.equal(lockText(dir), String(process.pid));
    release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a lock whose holder keeps running is refused after the wait with one line naming the holder', async () => {
    const dir = scratchDir();
    const holder = await liveProcess();
    try {
      fs.writeFileSync(path.join(dir, 'db.lock'), String(holder.pid));
      const started = Date.now();
      await assert.rejects(acquireLock(dir, 300), (err: unknown) => {
        assert.ok(err instanceof DatabaseBusyError);
        assert.equal(err.code, 'database_busy');
        assert.equal(err.pid, holder.pid);
        assert.doesNotMatch(err.message, /\n/);
        assert.match(err.message, new RegExp(`in use by process ${holder.pid} \\(still running after 0.3 s`));
        return true;
      });
      assert.ok(Date.now() - started >= 300);
      assert.equal(lockText(dir), String(holder.pid), 'the live holder keeps its lock');
    } finally {
      holder.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
