import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;

// N=2^15, r=8, p=1: the interactive-login parameters RFC 7914 suggests; about 50 ms and 32 MiB a check.
const N = 32768;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAX_MEMORY });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * What an unknown account is checked against: the same parameters as a real hash, so a sign-in for an
 * email nobody has takes as long as a wrong password and the timing cannot tell which accounts exist.
 */
const UNKNOWN_ACCOUNT = ['scrypt', N, R, P, 'A'.repeat(22), 'A'.repeat(43)].join('$');

/** Whether the password matches the stored hash; a null hash (no such account) costs the same and never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? UNKNOWN_ACCOUNT).split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return timingSafeEqual(actual, expected) && stored !== null;
}
