/**
 * The one writer of the outbox (spec 6): an event is written in the same transaction as what it
 * reports, so it exists exactly when that did, and the webhook dispatcher delivers it later.
 */
import { randomUUID } from 'node:crypto';
import { OutboxEvent } from './entities/index.ts';
import type { Em } from './orm.ts';

/** Adds the event to `tx`'s unit of work; it is written when the transaction commits. */
export function writeEvent(tx: Em, workspaceId: string, type: string, data: object, at: Date): void {
  tx.create(OutboxEvent, { id: `evt_${randomUUID()}`, workspaceId, type, data, createdAt: at, dispatchedAt: null });
}
