import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { FIRST_BLOCK_SECONDS, FREE_FAILURES } from '../../src/accounts/sign-in-throttle.ts';
import { BACKENDS } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

for (const backend of BACKENDS) {
  describe(`sign-in against guessing (${backend})`, () => {
    let app: TestApp;
    let addresses = 0;
    /** Each call from its own client address (the app trusts one proxy), unless one is given. */
    const signIn = (email: string, password: string, address = `10.0.${Math.floor(++addresses / 250)}.${addresses % 250}`) =>
      app.call('POST', '/api/v1/auth/sign-in', { body: { email, password }, headers: { 'x-forwarded-for': address } });
    const account = async (email: string) => {
      await runAdminCommand(app.services.store, ['workspace', 'create'], { name: email, plan: 'trial', email, password: 'right password' });
      return email;
    };

    before(async () => {
      app = await startTestApp(backend, { TRUST_PROXY: '1' });
    });
    after(() => app.close());

    test('an unknown email takes as long to refuse as a wrong password', async () => {
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 10; i++) {
        const email = await account(`timed-${i}@acme.test`);
        for (const [times, who] of [[known, email], [unknown, `nobody-${i}@acme.test`]] as const) {
          const started = performance.now();
          const r = await signIn(who, 'wrong password');
          times.push(performance.now() - started);
          assert.equal(r.status, 401);
        }
      }
      // Each kind's fastest call, the two kinds taken in turn: a busy machine only ever slows a call,
      // so the fastest is the least disturbed, and both kinds met the same load. An unknown email
      // that skipped the password hash (scrypt, N = 32768: tens of milliseconds) would be refused
      // over ten times faster than a wrong password; no load makes the fastest calls differ fivefold.
      const ratio = Math.min(...known) / Math.min(...unknown);
      assert.ok(ratio > 1 / 5 && ratio < 5, `fastest wrong password ${Math.min(...known).toFixed(1)} ms, unknown email ${Math.min(...unknown).toFixed(1)} ms`);
    });

    test(`after ${FREE_FAILURES.account} failures an account is refused 429 with Retry-After, even with the right password`, async () => {
      const email = await account('guessed@acme.test');
      for (let i = 0; i < FREE_FAILURES.account; i++) assert.equal((await signIn(email, `guess ${i}`)).status, 401);
      const refused = await signIn(email, 'right password');
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 'too_many_attempts');
      const wait = Number(refused.headers.get('retry-after'));
      assert.ok(wait >= 1 && wait <= FIRST_BLOCK_SECONDS, `Retry-After ${refused.headers.get('retry-after')}`);
    });

    test('each failure past the free ones doubles the wait', async () => {
      const email = await account('persistent@acme.test');
      for (let i = 0; i < FREE_FAILURES.account; i++) await signIn(email, `guess ${i}`);
      // The first block runs out; the next failure blocks for twice as long.
      await app.services.store.em().execute('update sign_in_failures set blocked_until = now() where blocked_until is not null');
      assert.equal((await signIn(email, 'one more guess')).status, 401);
      const wait = Number((await signIn(email, 'right password')).headers.get('retry-after'));
      assert.ok(wait > FIRST_BLOCK_SECONDS && wait <= 2 * FIRST_BLOCK_SECONDS, `Retry-After ${wait}`);
    });

    test('a success clears the account\'s failures', async () => {
      const email = await account('forgetful@acme.test');
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < FREE_FAILURES.account - 1; i++) assert.equal((await signIn(email, `slip ${i}`)).status, 401);
        assert.equal((await signIn(email, 'right password')).status, 200, `round ${round}`);
      }
    });

    test(`after ${FREE_FAILURES.address} failures from one address, any sign-in from it is refused and other addresses go on`, async () => {
      const email = await account('bystander@acme.test');
      for (let i = 0; i < FREE_FAILURES.address; i++) assert.equal((await signIn(`sprayed-${i}@acme.test`, 'password1', '192.0.2.7')).status, 401);
      const refused = await signIn(email, 'right password', '192.0.2.7');
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal((await signIn(email, 'right password', '192.0.2.8')).status, 200);
    });
  });
}
