/**
 * The outbox: every event of spec 6.2 is written here in the same transaction as what it reports,
 * and delivered later by the webhook dispatcher (src/webhooks/dispatcher.ts), which fans each event
 * out to the endpoints that take its type and marks it dispatched. This module owns the table's SQL.
 *
 * Adding an event is one line in EVENT_TYPES and one `writeEvent` where it happens.
 */
import { randomUUID } from 'node:crypto';
import { OutboxEvent } from './entities/index.ts';
import type { Em } from './orm.ts';

/** The event types of spec 6.2, in its order; an endpoint's `events` names some of them. */
export const EVENT_TYPES = [
  'plot.evidence.completed',
  'plot.evidence.failed',
  'batch.completed',
  'alert.opened',
  'archive.reading.filed',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as it is sent (spec 6.1), less nothing. */
export interface OutboxEventRow {
  id: string;
  type: string;
  workspace_id: string;
  created_at: Date;
  data: object;
}

/** An event's id: `evt_` and a UUID, the id every delivery of it carries. */
const newEventId = () => `evt_${randomUUID()}`;

/**
 * Adds the event to `tx`'s unit of work; it is written when the transaction commits, so it exists
 * exactly when what it reports does. Answers the event id (`evt_…`). `data` is the event's `data` of
 * spec 6.2, links built from the service's BASE_URL.
 */
export function writeEvent(tx: Em, workspaceId: string, type: EventType, data: object, at: Date): string {
  const id = newEventId();
  tx.create(OutboxEvent, { id, workspaceId, type, data, createdAt: at, dispatchedAt: null });
  return id;
}

/** An event `writeEvents` writes. */
export interface OutboxEventInput {
  workspaceId: string;
  type: EventType;
  data: object;
  at: Date;
}

/**
 * Several events written at once, in one statement of `tx` (its own, not its unit of work): a job
 * reports a group of reads together. Answers the event ids, in order.
 */
export async function writeEvents(tx: Em, events: readonly OutboxEventInput[]): Promise<string[]> {
  const rows: OutboxEvent[] = events.map((e) => ({ id: newEventId(), workspaceId: e.workspaceId, type: e.type, data: e.data, createdAt: e.at, dispatchedAt: null }));
  if (rows.length > 0) await tx.getKysely<{ outbox: OutboxEvent }>({ columnNamingStrategy: 'property', convertValues: true }).insertInto('outbox').values(rows).execute();
  return rows.map((r) => r.id);
}

/** Writes an event that goes to one endpoint only (the test route), already counted as dispatched, at once. */
export async function writeDispatchedEvent(em: Em, workspaceId: string, type: EventType, data: object, at: Date): Promise<string> {
  const id = newEventId();
  await em.execute(
    'insert into outbox (id, workspace_id, type, data, created_at, dispatched_at) values (?, ?, ?, ?::jsonb, ?, ?)',
    [id, workspaceId, type, JSON.stringify(data), at, at],
    'run',
  );
  return id;
}

/**
 * Locks up to `limit` events not yet fanned out, oldest first, skipping those another worker holds;
 * the caller fans them out and marks them in the same transaction.
 */
export async function lockUndispatched(tx: Em, limit: number): Promise<string[]> {
  const rows = await tx.execute<{ id: string }[]>(
    'select id from outbox where dispatched_at is null order by created_at, id limit ? for update skip locked',
    [limit],
  );
  return rows.map((r) => r.id);
}

export async function markDispatched(tx: Em, ids: string[], at: Date): Promise<void> {
  await tx.execute('update outbox set dispatched_at = ? where id = any(?::text[])', [at, `{${ids.join(',')}}`], 'run');
}

export async function eventById(em: Em, id: string): Promise<OutboxEventRow | null> {
  const [row] = await em.execute<OutboxEventRow[]>('select id, type, workspace_id, created_at, data from outbox where id = ?', [id]);
  return row ?? null;
}

/** Removes dispatched events older than `before` that no delivery carries any more (spec 6.4: 30 days). */
export async function pruneEvents(em: Em, before: Date): Promise<number> {
  const result = await em.execute(
    `delete from outbox o where o.dispatched_at is not null and o.created_at < ?
      and not exists (select 1 from webhook_deliveries d where d.event_id = o.id)`,
    [before],
    'run',
  );
  return Number((result as { affectedRows?: number }).affectedRows ?? 0);
}
