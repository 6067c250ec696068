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

    test(`after ${FREE_FAILURES.pair} failures from one client, that client is refused 429 with Retry-After, even with the right password`, async () => {
      const email = await account('guessed@acme.test');
      for (let i = 0; i < FREE_FAILURES.pair; i++) assert.equal((await signIn(email, `guess ${i}`, '192.0.2.40')).status, 401);
      const refused = await signIn(email, 'right password', '192.0.2.40');
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 'too_many_attempts');
      const wait = Number(refused.headers.get('retry-after'));
      assert.ok(wait >= 1 && wait <= FIRST_BLOCK_SECONDS, `Retry-After ${refused.headers.get('retry-after')}`);
    });

    test(`${FREE_FAILURES.pair} wrong passwords from another client do not lock the owner out`, async () => {
      const email = await account('targeted@acme.test');
      assert.equal((await signIn(email, 'right password', '192.0.2.50')).status, 200);
      for (let i = 0; i < FREE_FAILURES.pair + 2; i++) assert.ok([401, 429].includes((await signIn(email, `guess ${i}`, '198.51.100.66')).status));
      assert.equal((await signIn(email, 'right password', '198.51.100.66')).status, 429, 'the guessing client is held back');
      assert.equal((await signIn(email, 'right password', '192.0.2.50')).status, 200, "the owner's usual client");
      assert.equal((await signIn(email, 'right password', '192.0.2.51')).status, 200, 'a client new to the account, while the ceiling is not reached');
    });

    test(`past ${FREE_FAILURES.account} failures from many clients, a client new to the account is paced and the owner's usual client still signs in`, async () => {
      const email = await account('besieged@acme.test');
      assert.equal((await signIn(email, 'right password', '192.0.2.60')).status, 200);
      // A client is the account's own only after signing in to that account, not to another.
      assert.equal((await signIn(await account('neighbour@acme.test'), 'right password', '192.0.2.63')).status, 200);
      // Two guesses from each of many addresses: no client and no address reaches its own limit.
      for (let i = 0; i < FREE_FAILURES.account; i++) assert.equal((await signIn(email, `guess ${i}`, `203.0.113.${Math.floor(i / 2)}`)).status, 401);
      const stranger = await signIn(email, 'right password', '192.0.2.61');
      assert.equal(stranger.status, 429);
      assert.equal(stranger.body.error.code, 'too_many_attempts');
      assert.ok(Number(stranger.headers.get('retry-after')) >= 1);
      assert.equal((await signIn(email, 'wrong again', '192.0.2.62')).status, 429, 'a guess from a new client is refused unread');
      assert.equal((await signIn(email, 'right password', '192.0.2.63')).status, 429, "another account's client");
      assert.equal((await signIn(email, 'right password', '192.0.2.60')).status, 200, "the owner's usual client");
      // Signing in does not reset the ceiling for everyone else.
      assert.equal((await signIn(email, 'right password', '192.0.2.61')).status, 429);
    });

    test('each failure past the free ones doubles the wait', async () => {
      const email = await account('persistent@acme.test');
      for (let i = 0; i < FREE_FAILURES.pair; i++) await signIn(email, `guess ${i}`, '192.0.2.80');
      // The first block runs out; the next failure blocks for twice as long.
      await app.services.store.em().execute('update sign_in_failures set blocked_until = now() where blocked_until is not null');
      assert.equal((await signIn(email, 'one more guess', '192.0.2.80')).status, 401);
      const wait = Number((await signIn(email, 'right password', '192.0.2.80')).headers.get('retry-after'));
      assert.ok(wait > FIRST_BLOCK_SECONDS && wait <= 2 * FIRST_BLOCK_SECONDS, `Retry-After ${wait}`);
    });

    test('a success clears its client\'s failures at the account', async () => {
      const email = await account('forgetful@acme.test');
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < FREE_FAILURES.pair - 1; i++) assert.equal((await signIn(email, `slip ${i}`, '192.0.2.90')).status, 401);
        assert.equal((await signIn(email, 'right password', '192.0.2.90')).status, 200, `round ${round}`);
      }
    });

    test('the operator\'s sign-in clear forgets the account\'s counts from every client, and no other account\'s', async () => {
      const email = await account('reset@acme.test');
      const bystander = await account('unreset@acme.test');
      for (let i = 0; i < FREE_FAILURES.pair; i++) {
        assert.equal((await signIn(email, `slip ${i}`, '192.0.2.110')).status, 401);
        assert.equal((await signIn(bystander, `slip ${i}`, '192.0.2.111')).status, 401);
      }
      assert.equal((await signIn(email, 'right password', '192.0.2.110')).status, 429);
      const cleared = await runAdminCommand(app.services.store, ['sign-in', 'clear'], { email: ' Reset@Acme.test ' });
      assert.equal(cleared.cleared, 2, 'its client\'s count and its own');
      assert.equal((await signIn(email, 'right password', '192.0.2.110')).status, 200);
      assert.equal((await signIn(bystander, 'right password', '192.0.2.111')).status, 429);
    });

    test('a sign-in from another site\'s page is refused 403 cross_site and counts nothing; the service\'s own pages and non-browser clients sign in', async () => {
      const email = await account('framed@acme.test');
      const from = (headers: Record<string, string>) =>
        app.call('POST', '/api/v1/auth/sign-in', { body: { email, password: 'right password' }, headers: { 'x-forwarded-for': '192.0.2.100', ...headers } });
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example' }, { origin: 'null' }] as Record<string, string>[]) {
        const r = await from(headers);
        assert.equal(r.status, 403, JSON.stringify(headers));
        assert.equal(r.body.error.code, 'cross_site');
        assert.match(r.body.error.message, /sign-in is accepted only from the service's own pages/);
        assert.equal(r.headers.get('set-cookie'), null);
      }
      const [{ n }] = await app.services.store.em().execute<{ n: string }[]>("select count(*) as n from sign_in_failures where key like 'address:192.0.2.100'");
      assert.equal(Number(n), 0);
      assert.equal((await from({ 'sec-fetch-site': 'same-origin' })).status, 200);
      assert.equal((await from({ origin: new URL(app.url).origin })).status, 200);
      assert.equal((await from({})).status, 200);
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
