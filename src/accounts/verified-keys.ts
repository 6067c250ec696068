/**
 * API keys this process verified a moment ago, so a client sending many calls with one key costs
 * one database read per `ttlMs` rather than one a call. Only keys found valid are kept: a key
 * minted a moment ago is read from the database on its first use.
 *
 * Revocation stays immediate across processes without any message between them. An entry is kept
 * `ttlMs` from the moment its read was sent, and revoking a key forgets it in this process, then
 * answers only `ttlMs` after the revocation committed: by then every process's entry for the key,
 * read before that commit, has expired, and any later read sees it revoked. So every API process
 * must run with the same KEY_CACHE_MS; revoking costs that long, and a key revoked in the
 * database by hand is refused everywhere within it, as is a plan change taken up.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Em } from '../store/orm.ts';
import { sha256Hex } from './tokens.ts';
import { authenticateKey, type VerifiedKey } from './keys.ts';

/** Entries kept at most (only valid keys get in: five a workspace); the oldest goes first. */
const MAX_ENTRIES = 10_000;

export interface VerifiedKeys {
  /** The key's seat: from memory when this process read it within `ttlMs`, else from the database. */
  verify(em: Em, key: string): Promise<VerifiedKey | null>;
  /** Forgets the key here, and resolves once no process still holds it as verified. */
  revoked(keyId: string): Promise<void>;
}

export function verifiedKeys(ttlMs: number): VerifiedKeys {
  const entries = new Map<string, { key: VerifiedKey; readAt: number }>();
  // Reads in flight: a map's burst of tiles with one key, landing together, waits on one read, as
  // long as it was sent within `ttlMs` (what an entry read then would still answer).
  const reading = new Map<string, { verified: Promise<VerifiedKey | null>; readAt: number }>();
  return {
    async verify(em, key) {
      const hash = sha256Hex(key);
      const now = performance.now();
      const entry = entries.get(hash);
      if (entry !== undefined && now - entry.readAt < ttlMs) return entry.key;
      entries.delete(hash);
      const inFlight = reading.get(hash);
      if (inFlight !== undefined && now - inFlight.readAt < ttlMs) return inFlight.verified;
      // Taken before the read is sent, so the entry never outlives a revocation the read missed.
      const readAt = now;
      const verified = authenticateKey(em, key);
      if (ttlMs > 0) reading.set(hash, { verified, readAt });
      try {
        const found = await verified;
        if (found !== null && ttlMs > 0) {
          if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
          entries.set(hash, { key: found, readAt });
        }
        return found;
      } finally {
        if (reading.get(hash)?.verified === verified) reading.delete(hash);
      }
    },
    async revoked(keyId) {
      for (const [hash, entry] of entries) if (entry.key.keyId === keyId) entries.delete(hash);
      // Timers may fire a little early against this clock: wait on the clock the entries use.
      const until = performance.now() + ttlMs;
      for (let left = ttlMs; left > 0; left = until - performance.now()) await sleep(Math.ceil(left));
    },
  };
}
