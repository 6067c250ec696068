/** The events of spec 6, written into the outbox in the transaction of what they report; webhook delivery reads them from there. */
import { randomUUID } from 'node:crypto';
import { OutboxEvent } from '../entities/index.ts';
import type { Em } from '../orm.ts';

export function addEvent(tx: Em, workspaceId: string, type: string, data: object, at: Date): void {
  tx.create(OutboxEvent, { id: `evt_${randomUUID()}`, workspaceId, type, data, createdAt: at, dispatchedAt: null });
}
