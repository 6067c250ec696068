/**
 * Idempotency keys: the first request sent with a key claims it; its 2xx answer is kept with it, so a
 * repeat of the same request is answered from here and does its work (and its charge) no second time.
 * Keys are the workspace's own and kept KEEP_MS. This module owns the table's SQL.
 */
import type { Em } from './orm.ts';

/** How long a key and its answer are kept from the first request. */
export const KEEP_MS = 24 * 3600_000;
/** A claim whose request never answered (its process stopped) is free again after this. */
export const CLAIM_LEASE_MS = 15 * 60_000;

export type Claim =
  /** The key is this request's: do the work, then record or release it. */
  | { kind: 'claimed' }
  /** The same request was answered before: this is its answer. */
  | { kind: 'answered'; status: number; contentType: string | null; answer: string }
  /** The key came with another request. */
  | { kind: 'other_request' }
  /** The same request holds the key and has not answered yet. */
  | { kind: 'in_flight' };

interface Row {
  request_digest: string;
  status: number | null;
  content_type: string | null;
  answer: string | null;
}

export async function claimKey(em: Em, workspaceId: string, key: string, requestDigest: string, at: Date): Promise<Claim> {
  await em.execute('delete from idempotency_keys where created_at < ?', [new Date(at.getTime() - KEEP_MS)], 'run');
  await em.execute('delete from idempotency_keys where workspace_id = ? and key = ? and status is null and created_at < ?', [workspaceId, key, new Date(at.getTime() - CLAIM_LEASE_MS)], 'run');
  for (;;) {
    const claimed = await em.execute<{ key: string }[]>(
      `insert into idempotency_keys (workspace_id, key, request_digest, status, content_type, answer, created_at)
       values (?, ?, ?, null, null, null, ?) on conflict (workspace_id, key) do nothing returning key`,
      [workspaceId, key, requestDigest, at],
    );
    if (claimed.length === 1) return { kind: 'claimed' };
    const [row] = await em.execute<Row[]>('select request_digest, status, content_type, answer from idempotency_keys where workspace_id = ? and key = ?', [workspaceId, key]);
    // Released between the two statements: claim it again.
    if (row === undefined) continue;
    if (row.request_digest !== requestDigest) return { kind: 'other_request' };
    if (row.status === null) return { kind: 'in_flight' };
    return { kind: 'answered', status: row.status, contentType: row.content_type, answer: row.answer ?? '' };
  }
}

/** Keeps the claimed request's answer with its key. */
export async function recordAnswer(em: Em, workspaceId: string, key: string, status: number, contentType: string | null, answer: string): Promise<void> {
  await em.execute('update idempotency_keys set status = ?, content_type = ?, answer = ? where workspace_id = ? and key = ?', [status, contentType, answer, workspaceId, key], 'run');
}

/** Frees a claim whose request was refused or failed: nothing was done, so the key may be used again. */
export async function releaseKey(em: Em, workspaceId: string, key: string): Promise<void> {
  await em.execute('delete from idempotency_keys where workspace_id = ? and key = ? and status is null', [workspaceId, key], 'run');
}
