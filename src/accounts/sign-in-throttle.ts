import type { Em } from '../store/orm.ts';
import { tooManyAttempts } from '../errors.ts';
import { sha256Hex } from './tokens.ts';

/**
 * Failed sign-ins, counted in the database so the count holds across processes: per account (the
 * email, known or not, so the answer says nothing about which accounts exist) and per client address
 * (one address guessing across many accounts). Past its free failures a key is refused for a time that
 * doubles with each further failure, up to a cap; a success clears the account's count but not the
 * address's, so signing in to one's own account does not reset guessing at others. A key idle for an
 * hour starts again at one.
 */
export const FREE_FAILURES = { account: 5, address: 20 } as const;
export const FIRST_BLOCK_SECONDS = 30;
export const MAX_BLOCK_SECONDS = 15 * 60;
const FORGET_AFTER_SECONDS = 60 * 60;

type Kind = keyof typeof FREE_FAILURES;

export interface ThrottleKeys {
  account: string;
  address: string;
}

export function throttleKeys(email: string, address: string): ThrottleKeys {
  return { account: `account:${sha256Hex(email)}`, address: `address:${address}` };
}

/** Refuses with too_many_attempts (and the seconds to wait) while either key is blocked. */
export async function refuseIfThrottled(em: Em, keys: ThrottleKeys): Promise<void> {
  const [row] = await em.execute<{ wait: number | string | null }[]>(
    `select ceil(extract(epoch from max(blocked_until) - now()))::int as wait
       from sign_in_failures where key in (?, ?) and blocked_until > now()`,
    [keys.account, keys.address],
  );
  const wait = Number(row?.wait ?? 0);
  if (wait > 0) throw tooManyAttempts(`too many failed sign-ins; try again in ${wait} s`, wait);
}

export async function recordFailure(em: Em, keys: ThrottleKeys): Promise<void> {
  await em.execute('delete from sign_in_failures where last_failed_at < now() - make_interval(secs => ?)', [FORGET_AFTER_SECONDS]);
  for (const kind of Object.keys(FREE_FAILURES) as Kind[]) await countFailure(em, keys[kind], FREE_FAILURES[kind]);
}

export async function forgetAccountFailures(em: Em, keys: ThrottleKeys): Promise<void> {
  await em.execute('delete from sign_in_failures where key = ?', [keys.account]);
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
