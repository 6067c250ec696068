import type { Em } from '../store/orm.ts';
import { tooManyAttempts } from '../errors.ts';
import { normalEmail } from './emails.ts';
import { sha256Hex } from './tokens.ts';

/**
 * Failed sign-ins, counted in the database so the counts hold across processes. They limit the rate
 * of guessing, not the owner:
 * - `pair`, per account and client address: one client's guesses (or its owner's typos) at one account;
 * - `address`, per client address: one address guessing across many accounts;
 * - `account`, per account from every address together: the ceiling on guessing from many addresses.
 *   It holds back only clients that have not signed in to the account before (within
 *   KNOWN_CLIENT_DAYS), so while strangers are paced, the right password from the owner's usual
 *   client still works.
 * The account is the email, known or not, and every sign-in runs the same queries, so neither the
 * answer nor its time says which accounts exist. Past its free failures a key is refused for a time
 * that doubles with each further failure, up to a cap. A success clears its pair's count and
 * remembers the client; the address's and the account's counts stand, so one success neither resets
 * guessing at other accounts nor the ceiling. A count idle for an hour starts again at one.
 */
export const FREE_FAILURES = { pair: 5, address: 20, account: 20 } as const;
export const FIRST_BLOCK_SECONDS = 30;
export const MAX_BLOCK_SECONDS = 15 * 60;
export const KNOWN_CLIENT_DAYS = 90;
const FORGET_AFTER_SECONDS = 60 * 60;

type Kind = keyof typeof FREE_FAILURES;

export type ThrottleKeys = Record<Kind, string> & { client: string };

export function throttleKeys(email: string, address: string): ThrottleKeys {
  const hash = sha256Hex(email);
  return { pair: `pair:${hash}:${address}`, address: `address:${address}`, account: `account:${hash}`, client: address };
}

/** Refuses with too_many_attempts (and the seconds to wait) while a key that applies to this client is blocked. */
export async function refuseIfThrottled(em: Em, keys: ThrottleKeys): Promise<void> {
  const [row] = await em.execute<{ wait: number | string | null }[]>(
    `select ceil(extract(epoch from max(blocked_until) - now()))::int as wait
       from sign_in_failures
      where blocked_until > now()
        and (key in (?, ?)
             or (key = ? and not exists (select 1 from sign_in_clients
                                          where account = ? and address = ? and last_signed_in_at > now() - make_interval(days => ?))))`,
    [keys.pair, keys.address, keys.account, keys.account, keys.client, KNOWN_CLIENT_DAYS],
  );
  const wait = Number(row?.wait ?? 0);
  if (wait > 0) throw tooManyAttempts(`too many failed sign-ins; try again in ${wait} s`, wait);
}

export async function recordFailure(em: Em, keys: ThrottleKeys): Promise<void> {
  await em.execute('delete from sign_in_failures where last_failed_at < now() - make_interval(secs => ?)', [FORGET_AFTER_SECONDS]);
  for (const kind of Object.keys(FREE_FAILURES) as Kind[]) await countFailure(em, keys[kind], FREE_FAILURES[kind]);
}

/** After a success: the pair's count is cleared and the client is remembered as the account's own. */
export async function recordSuccess(em: Em, keys: ThrottleKeys): Promise<void> {
  await em.execute('delete from sign_in_failures where key = ?', [keys.pair]);
  await em.execute('delete from sign_in_clients where last_signed_in_at < now() - make_interval(days => ?)', [KNOWN_CLIENT_DAYS]);
  await em.execute(
    `insert into sign_in_clients (account, address, last_signed_in_at) values (?, ?, now())
     on conflict (account, address) do update set last_signed_in_at = now()`,
    [keys.account, keys.client],
  );
}

/**
 * The operator's reset (`sign-in clear`): forgets every failure counted at the account, from every
 * client, so its owner can sign in from anywhere at once. Answers how many counts were cleared.
 */
export async function clearAccountFailures(em: Em, email: string): Promise<number> {
  // The pair key with no address is the start of every client's pair key at this account.
  const { account, pair } = throttleKeys(normalEmail(email), '');
  const cleared = await em.execute<{ key: string }[]>('delete from sign_in_failures where key = ? or starts_with(key, ?) returning key', [account, pair]);
  return cleared.length;
}

async function countFailure(em: Em, key: string, free: number): Promise<void> {
  await em.execute(
    `insert into sign_in_failures (key, failures, last_failed_at, blocked_until) values (?, 1, now(), null)
     on conflict (key) do update set failures = sign_in_failures.failures + 1, last_failed_at = now()`,
    [key],
  );
  // Reads the row's count as it stands after every concurrent failure, so the longest block wins.
  await em.execute(
    `update sign_in_failures set blocked_until = now() + make_interval(secs => least(? * power(2, failures - ?), ?))
      where key = ? and failures >= ?`,
    [FIRST_BLOCK_SECONDS, free, MAX_BLOCK_SECONDS, key, free],
  );
}
