import type { Em, Store } from '../store/orm.ts';
import { keyLimit, notFound, unauthorized } from '../errors.ts';
import { ApiKey, type Plan, type SeatRole, Workspace } from '../store/entities/index.ts';
import { randomToken, sha256Hex } from './tokens.ts';

export const MAX_ACTIVE_KEYS = 5;
const KEY_PREFIX = 'pce';

export interface MintedKey {
  id: string;
  /** The whole key: shown once, never stored. */
  key: string;
  prefix: string;
  role: SeatRole;
  workspaceId: string;
  label: string | null;
  createdAt: Date;
}

export function describeKey(k: ApiKey) {
  return {
    id: k.id,
    prefix: k.prefix,
    role: k.role,
    label: k.label ?? null,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
    revoked_at: k.revokedAt ? k.revokedAt.toISOString() : null,
  };
}

/** Mints a key carrying the given seat role in the workspace; at most five active keys per workspace. */
export async function mintKey(
  em: Em,
  input: { workspaceId: string; role: SeatRole; createdBy: string | null; label?: string | null },
): Promise<MintedKey> {
  return em.transactional(async (tx) => {
    // Serialise minting per workspace so two concurrent calls cannot both pass the limit.
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`api-keys:${input.workspaceId}`]);
    const active = await tx.count(ApiKey, { workspaceId: input.workspaceId, revokedAt: null });
    if (active >= MAX_ACTIVE_KEYS) {
      throw keyLimit(
        `this workspace already has ${MAX_ACTIVE_KEYS} active API keys; revoke one (DELETE /portal/api-keys/{id}) before minting another`,
      );
    }
    const publicPart = randomToken(6);
    const key = `${KEY_PREFIX}_${publicPart}_${randomToken(24)}`;
    const row = tx.create(ApiKey, {
      id: crypto.randomUUID(),
      workspaceId: input.workspaceId,
      role: input.role,
      prefix: `${KEY_PREFIX}_${publicPart}`,
      hash: sha256Hex(key),
      label: input.label ?? null,
      createdBy: input.createdBy,
    });
    await tx.flush();
    return { id: row.id, key, prefix: row.prefix, role: row.role, workspaceId: row.workspaceId, label: row.label ?? null, createdAt: row.createdAt };
  });
}

export async function listKeys(em: Em, workspaceId: string) {
  const rows = await em.find(ApiKey, { workspaceId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
  return rows.map(describeKey);
}

export async function revokeKey(store: Store, workspaceId: string, id: string) {
  const em = store.em();
  const row = await em.findOne(ApiKey, { id, workspaceId });
  if (!row) throw notFound(`no API key ${id} in this workspace`);
  if (!row.revokedAt) {
    row.revokedAt = new Date();
    await em.flush();
  }
  forgetSeats(store, (seat) => seat.keyId === row.id);
  return describeKey(row);
}

/** What a valid key acts as: its seat in its workspace, and the workspace's plan. */
export interface KeySeat {
  keyId: string;
  workspaceId: string;
  role: SeatRole;
  plan: Plan;
}

/**
 * How long a verified key is believed without asking the database again. A map opens with dozens
 * of tile requests at once, all with one key; checking each through the ORM cost the API's thread
 * about 0.2 ms a request, every one in the turn the requests landed in. A revocation or plan change
 * made through this process forgets the key at once; one made through another process sharing the
 * database is seen within this time.
 */
const VERIFIED_TTL_MS = 5_000;
/** Keys kept per database; past this the oldest is forgotten first. */
const VERIFIED_KEPT = 10_000;

interface Verified {
  /** By the SHA-256 of the whole key, as stored. */
  seats: Map<string, { seat: KeySeat; until: number }>;
  /** Raised by every forgetting, so a check that began before a revocation does not keep what it read. */
  generation: number;
}
const VERIFIED = new WeakMap<Store, Verified>();

function verifiedOf(store: Store): Verified {
  let v = VERIFIED.get(store);
  if (v === undefined) VERIFIED.set(store, (v = { seats: new Map(), generation: 0 }));
  return v;
}

function forgetSeats(store: Store, which: (seat: KeySeat) => boolean): void {
  const v = verifiedOf(store);
  v.generation++;
  for (const [hash, kept] of v.seats) if (which(kept.seat)) v.seats.delete(hash);
}

/** A plan change reaches the workspace's keys at once. */
export function forgetWorkspaceSeats(store: Store, workspaceId: string): void {
  forgetSeats(store, (seat) => seat.workspaceId === workspaceId);
}

/** The key's seat, or null when the key is unknown or revoked. */
export async function verifyKey(store: Store, key: string): Promise<KeySeat | null> {
  if (!key.startsWith(`${KEY_PREFIX}_`)) return null;
  const hash = sha256Hex(key);
  const v = verifiedOf(store);
  const kept = v.seats.get(hash);
  if (kept !== undefined && kept.until > Date.now()) return kept.seat;
  const generation = v.generation;
  const em = store.em();
  const row = await em.findOne(ApiKey, { hash, revokedAt: null });
  if (!row) {
    v.seats.delete(hash);
    return null;
  }
  const workspace = await em.findOne(Workspace, { id: row.workspaceId });
  if (!workspace) throw unauthorized('the API key\'s workspace no longer exists');
  // Last use is informative; a coarse update keeps reads cheap.
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    row.lastUsedAt = now;
    await em.flush();
  }
  const seat: KeySeat = { keyId: row.id, workspaceId: row.workspaceId, role: row.role, plan: workspace.plan };
  if (v.generation === generation) {
    v.seats.delete(hash);
    if (v.seats.size >= VERIFIED_KEPT) v.seats.delete(v.seats.keys().next().value!);
    v.seats.set(hash, { seat, until: Date.now() + VERIFIED_TTL_MS });
  }
  return seat;
}
