import type { Em } from '../store/orm.ts';
import { keyLimit, notFound } from '../errors.ts';
import { ApiKey, type SeatRole } from '../store/entities/index.ts';
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

export async function revokeKey(em: Em, workspaceId: string, id: string) {
  const row = await em.findOne(ApiKey, { id, workspaceId });
  if (!row) throw notFound(`no API key ${id} in this workspace`);
  if (!row.revokedAt) {
    row.revokedAt = new Date();
    await em.flush();
  }
  return describeKey(row);
}

/** The key's workspace and seat role, or null when the key is unknown or revoked. */
export async function authenticateKey(em: Em, key: string) {
  if (!key.startsWith(`${KEY_PREFIX}_`)) return null;
  const row = await em.findOne(ApiKey, { hash: sha256Hex(key), revokedAt: null });
  if (!row) return null;
  // Last use is informative; a coarse update keeps reads cheap.
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    row.lastUsedAt = now;
    await em.flush();
  }
  return { keyId: row.id, workspaceId: row.workspaceId, role: row.role };
}
