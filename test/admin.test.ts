import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BACKENDS, scratchDatabase } from './support/db.ts';
import { roleDataDir } from './support/processes.ts';

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');

function cli(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const admin = (env: Record<string, string>, ...args: string[]) => cli(env, 'admin', ...args);

/** stdout must be exactly one JSON object on one line. */
function onlyJson(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `expected one line on stdout, got: ${stdout}`);
  return JSON.parse(lines[0]);
}

function startServe(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'serve'], { env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const match = /"url":"([^"]+)"/.exec(buffer);
      if (match && /worker ready/.test(buffer)) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${buffer}`)));
  });
}

for (const backend of BACKENDS) {
  describe(`admin commands (${backend})`, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    before(async () => {
      // The demo world linked in: the service started below would otherwise generate one first.
      const dataDir = await roleDataDir('admin', true);
      env = { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
      cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
      if (backend === 'postgresql') {
        const db = await scratchDatabase();
        env.DATABASE_URL = db.url;
        const rm = cleanup;
        cleanup = async () => {
          await db.drop();
          await rm();
        };
      }
    });
    after(() => cleanup());

    test('with the service stopped, workspace create and key mint print one JSON object each', async () => {
      const created = await admin(env, 'workspace', 'create', '--name', 'Offline', '--plan', 'trial', '--email', 'off@line.test', '--password', 'longenough', '--json');
      assert.equal(created.code, 0, created.stderr);
      const ws = onlyJson(created.stdout);
      assert.match(String(ws.workspace_id), /^[0-9a-f-]{36}$/);
      assert.match(String(ws.api_key), /^pce_/);
      assert.equal(ws.api_key_role, 'portal');
      const minted = await admin(env, 'key', 'mint', '--workspace', String(ws.workspace_id), '--role', 'member', '--json');
      assert.equal(minted.code, 0, minted.stderr);
      const key = onlyJson(minted.stdout);
      assert.match(String(key.api_key), /^pce_/);
      assert.equal(key.role, 'member');
      const plan = onlyJson((await admin(env, 'plan', 'set', '--workspace', String(ws.workspace_id), '--plan', 'professional', '--json')).stdout);
      assert.deepEqual(plan, { workspace_id: ws.workspace_id, plan: 'professional', previous: 'trial' });
    });

    test('with the service running, the same commands work and the service accepts the key at once', async () => {
      const { child, url } = await startServe(env);
      try {
        const created = await admin(env, 'workspace', 'create', '--name', 'Online', '--plan', 'standard', '--email', 'on@line.test', '--password', 'longenough', '--json');
        assert.equal(created.code, 0, created.stderr);
        const ws = onlyJson(created.stdout);
        const member = onlyJson((await admin(env, 'key', 'mint', '--workspace', String(ws.workspace_id), '--role', 'member', '--json')).stdout);
        const res = await fetch(`${url}/workspace`, { headers: { authorization: `Bearer ${member.api_key}` } });
        assert.equal(res.status, 200);
        assert.equal(((await res.json()) as { plan: string }).plan, 'standard');
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    });

    if (backend === 'pglite') {
      test('with the service running, its files are owner-only and migrate answers one line naming the holder', async () => {
        const { child } = await startServe(env);
        try {
          assert.equal(fs.statSync(path.join(env.DATA_DIR, 'db')).mode & 0o777, 0o700);
          assert.equal(fs.statSync(path.join(env.DATA_DIR, 'control.sock')).mode & 0o777, 0o600);
          assert.equal(fs.statSync(path.join(env.DATA_DIR, 'keys', 'evidence-signing.pem')).mode & 0o777, 0o600);
          const migrated = await cli(env, 'migrate');
          assert.equal(migrated.code, 1);
          assert.equal(migrated.stdout, '');
          assert.deepEqual(migrated.stderr.split('\n').filter(Boolean), [migrated.stderr.trim()]);
          assert.match(migrated.stderr, new RegExp(`^migrate: the embedded database is in use by another service \\(pid ${child.pid} on host [^;]+; still held after 5 s; lock `));
        } finally {
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
        }
      });
    }

    test('a wrong command or a missing flag answers one JSON error object and a non-zero exit', async () => {
      const missing = await admin(env, 'key', 'mint', '--json');
      assert.equal(missing.code, 2);
      assert.equal((onlyJson(missing.stdout).error as { code: string }).code, 'usage');
      const unknown = await admin(env, 'key', 'mint', '--workspace', crypto.randomUUID(), '--json');
      assert.equal(unknown.code, 1);
      assert.equal((onlyJson(unknown.stdout).error as { code: string }).code, 'not_found');
    });
  });
}
