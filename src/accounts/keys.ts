import type { Em } from '../store/orm.ts';
import { keyLimit, notFound } from '../errors.ts';
import { ApiKey, type Plan, type SeatRole } from '../store/entities/index.ts';
import { randomToken, sha256Hex } from './tokens.ts';
import type { VerifiedKeys } from './verified-keys.ts';

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

/**
 * Revokes the key; answers once no API process still takes it (src/accounts/verified-keys.ts), so a
 * request sent after the answer is refused whichever process it reaches.
 */
export async function revokeKey(em: Em, keys: VerifiedKeys, workspaceId: string, id: string) {
  const row = await em.findOne(ApiKey, { id, workspaceId });
  if (!row) throw notFound(`no API key ${id} in this workspace`);
  if (!row.revokedAt) {
    row.revokedAt = new Date();
    await em.flush();
  }
  await keys.revoked(row.id);
  return describeKey(row);
}

/** A key's seat, and its workspace's plan, which every call carries. */
export interface VerifiedKey {
  keyId: string;
  workspaceId: string;
  role: SeatRole;
  plan: Plan;
}

/** Last use is informative: it is written at most this often, so verifying stays a read. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * The key's seat and its workspace's plan in one read, or null when the key is unknown or revoked
 * (or its workspace is gone). Callers verify through VerifiedKeys, which keeps the answer a moment.
 */
export async function authenticateKey(em: Em, key: string): Promise<VerifiedKey | null> {
  if (!key.startsWith(`${KEY_PREFIX}_`)) return null;
  const [row] = await em.execute<{ id: string; workspace_id: string; role: SeatRole; plan: Plan; last_used_at: Date | string | null }[]>(
    `select k.id, k.workspace_id, k.role, w.plan, k.last_used_at
       from api_keys k join workspaces w on w.id = k.workspace_id
      where k.hash = ? and k.revoked_at is null`,
    [sha256Hex(key)],
  );
  if (row === undefined) return null;
  const now = new Date();
  if (row.last_used_at === null || now.getTime() - new Date(row.last_used_at).getTime() > LAST_USED_EVERY_MS) {
    await em.nativeUpdate(ApiKey, { id: row.id }, { lastUsedAt: now });
  }
  return { keyId: row.id, workspaceId: row.workspace_id, role: row.role, plan: row.plan };
}
