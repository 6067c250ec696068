/**
 * The receiver the README shows, run as it is written (on a free port instead of 3000), against the
 * service's own sending code: it accepts a signed delivery, refuses a forged or stale one, and
 * handles an event sent twice once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { addressGuard } from '../../src/webhooks/address-guard.ts';
import { attemptDelivery, type Sender } from '../../src/webhooks/send.ts';
import { newSecret } from '../../src/webhooks/signature.ts';

const README = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function receiverSource(port: number): string {
  const after = README.slice(README.indexOf('A receiver in plain Node'));
  const code = /```js\n([\s\S]*?)```/.exec(after)?.[1] ?? '';
  assert.ok(code.includes('.listen(3000)'), 'the README shows a receiver listening on 3000');
  return code.replace('.listen(3000)', `.listen(${port}, () => console.log('listening'))`);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('the README\'s webhook receiver', () => {
  let child: ChildProcess;
  let port: number;
  let dir: string;
  const secret = newSecret();
  const printed: string[] = [];

  before(async () => {
    port = await freePort();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pce-readme-receiver-'));
    const file = path.join(dir, 'receiver.mjs');
    fs.writeFileSync(file, receiverSource(port));
    child = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (d: Buffer) => {
        printed.push(...d.toString().split('\n').filter(Boolean));
        if (printed.includes('listening')) resolve();
      });
    });
  });
  after(() => {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('accepts a signed delivery once, and refuses a forged or stale one', async () => {
    const event = { id: `evt_${randomUUID()}`, type: 'plot.evidence.failed', workspace_id: randomUUID(), created_at: new Date(), data: { plot_id: 'p-1' } };
    const target = { deliveryId: randomUUID(), url: `http://127.0.0.1:${port}/`, secret, event };
    const sender = (clock: () => Date): Sender => ({ guard: addressGuard({ allowLoopback: true }), clock, timeoutMs: 10_000 });
    const now = sender(() => new Date());
    assert.equal((await attemptDelivery(now, target)).statusCode, 204);
    assert.equal((await attemptDelivery(now, target)).statusCode, 204, 'a repeated event is acknowledged');
    assert.equal((await attemptDelivery(now, { ...target, secret: newSecret() })).statusCode, 401);
    assert.equal((await attemptDelivery(sender(() => new Date(Date.now() - 301_000)), target)).statusCode, 401);
    assert.equal(printed.filter((l) => l.startsWith('plot.evidence.failed')).length, 1, 'and handled once');
  });
});
