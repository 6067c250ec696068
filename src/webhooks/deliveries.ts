/**
 * The delivery log (spec 2.13, 3.3, 4.8): one row per event per endpoint, and the statements that
 * move it. This module owns the `webhook_deliveries` table.
 *
 * `pending` waits for its next attempt; an attempt claims it (`sending`) under a lease id until
 * `lease_until`, and its outcome is written only while that lease still holds it. A worker that dies
 * mid-attempt leaves the lease to run out, and the delivery is claimed again: delivery is at least
 * once (receivers deduplicate on the event id) and the log records `delivered` once.
 */
import { randomUUID } from 'node:crypto';
import { inFlight, invalid, notFound } from '../errors.ts';
import type { DeliveryStatus } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { writeDispatchedEvent, eventById, lockUndispatched, markDispatched, type OutboxEventRow } from '../store/outbox.ts';
import { nextAttemptAt } from './retry-schedule.ts';
import type { AttemptResult, AttemptTarget } from './send.ts';

/** A delivery held by one attempt: what to send, where, and the lease that lets the attempt record its outcome. */
export interface ClaimedDelivery extends AttemptTarget {
  leaseId: string;
  /** Attempts of this round, this one included. */
  attempts: number;
  endpointId: string;
}

interface ClaimedRow {
  id: string;
  lease_id: string;
  attempts: number;
  endpoint_id: string;
  url: string;
  secret: string;
  event_id: string;
  type: string;
  workspace_id: string;
  created_at: Date;
  data: object;
}

const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/**
 * Fans up to `limit` new outbox events out to the active endpoints of their workspace that take
 * their type, one `pending` delivery each, due at once; answers how many events it took.
 */
export async function fanOut(em: Em, now: Date, limit: number): Promise<number> {
  return em.transactional(async (tx) => {
    const ids = await lockUndispatched(tx, limit);
    if (ids.length === 0) return 0;
    await tx.execute(
      `insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
        select gen_random_uuid(), o.workspace_id, w.id, o.id, o.type, 'pending', 0, ?, ?
        from outbox o join webhook_endpoints w on w.workspace_id = o.workspace_id and w.active and w.events @> jsonb_build_array(o.type)
        where o.id = any(?::text[])
        on conflict (endpoint_id, event_id) do nothing`,
      [now, now, `{${ids.join(',')}}`],
      'run',
    );
    await markDispatched(tx, ids, now);
    return ids.length;
  });
}

const DUE = `((d.status = 'pending' and d.next_attempt_at <= ?) or (d.status = 'sending' and d.lease_until <= ?))`;
/** Rows looked at per slot claimed: enough to find other endpoints' deliveries behind one endpoint's backlog. */
const CANDIDATES_PER_SLOT = 8;

export interface ClaimOptions {
  limit: number;
  /** At most this many attempts open to one endpoint, so one receiver cannot take every slot. */
  perEndpoint: number;
  /** Attempts this worker has open, by endpoint id. */
  inFlight: ReadonlyMap<string, number>;
  leaseMs: number;
}

/**
 * Claims due deliveries of active endpoints, oldest due first, skipping rows another worker holds:
 * `pending` ones whose time has come and `sending` ones whose lease ran out (their worker died).
 * Each claim counts an attempt and takes the endpoint's URL and secret as they are now. Only the
 * oldest due rows are ranked, through the status index, so a claim costs the same however long the backlog.
 */
export async function claimDue(em: Em, now: Date, o: ClaimOptions): Promise<ClaimedDelivery[]> {
  const leaseUntil = new Date(now.getTime() + o.leaseMs);
  const open = [...o.inFlight];
  const busy = uuidArray(open.filter(([, n]) => n >= o.perEndpoint).map(([id]) => id));
  const candidates = o.limit * CANDIDATES_PER_SLOT;
  const rows = await em.execute<ClaimedRow[]>(
    `with candidates as (
        (select id, endpoint_id, next_attempt_at as due_at from webhook_deliveries
          where status = 'pending' and next_attempt_at <= ? and not (endpoint_id = any(?::uuid[])) order by next_attempt_at limit ?)
        union all
        (select id, endpoint_id, lease_until as due_at from webhook_deliveries
          where status = 'sending' and lease_until <= ? and not (endpoint_id = any(?::uuid[])) order by lease_until limit ?)
      ), due as (
        select c.id, c.due_at, row_number() over (partition by c.endpoint_id order by c.due_at, c.id) + coalesce(f.open, 0) as n
        from candidates c join webhook_endpoints w on w.id = c.endpoint_id and w.active
          left join unnest(?::uuid[], ?::int[]) as f(endpoint_id, open) on f.endpoint_id = c.endpoint_id
      ), picked as (
        select d.id from webhook_deliveries d join due on due.id = d.id
        where due.n <= ? and ${DUE}
        order by due.due_at, d.id limit ? for update of d skip locked
      ), claimed as (
        update webhook_deliveries d set status = 'sending', attempts = d.attempts + 1, lease_id = gen_random_uuid(), lease_until = ?, last_attempt_at = ?,
          last_error = case when d.status = 'sending' then 'the worker making the previous attempt stopped before it ended' else d.last_error end
        from picked where d.id = picked.id
        returning d.id, d.lease_id, d.attempts, d.endpoint_id, d.event_id
      )
      select c.id, c.lease_id, c.attempts, c.endpoint_id, w.url, w.secret, o.id as event_id, o.type, o.workspace_id, o.created_at, o.data
      from claimed c join webhook_endpoints w on w.id = c.endpoint_id join outbox o on o.id = c.event_id`,
    [now, busy, candidates, now, busy, candidates, uuidArray(open.map(([id]) => id)), `{${open.map(([, n]) => n).join(',')}}`, o.perEndpoint, now, now, o.limit, leaseUntil, now],
  );
  return rows.map(claimedOf);
}

function claimedOf(r: ClaimedRow): ClaimedDelivery {
  return {
    deliveryId: r.id,
    leaseId: r.lease_id,
    attempts: Number(r.attempts),
    endpointId: r.endpoint_id,
    url: r.url,
    secret: r.secret,
    event: { id: r.event_id, type: r.type, workspace_id: r.workspace_id, created_at: r.created_at, data: r.data },
  };
}

/** An attempt's outcome, to be written. */
export interface Outcome {
  claimed: ClaimedDelivery;
  result: AttemptResult;
  at: Date;
}

/**
 * Writes attempts' outcomes, each only if its attempt still holds the delivery: `delivered` on a
 * 2xx, else the next attempt on the schedule, or `failed` after the seventh. One statement for all
 * of them, so finishing attempts cost one round trip together. Answers the ids written; an attempt
 * that outlived its lease (taken over meanwhile) is not among them.
 */
export async function recordAttempts(em: Em, outcomes: Outcome[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  const rows = outcomes.map(({ claimed, result, at }) => {
    const next = result.delivered ? null : nextAttemptAt(claimed.attempts, at);
    const status: DeliveryStatus = result.delivered ? 'delivered' : next === null ? 'failed' : 'pending';
    return [claimed.deliveryId, claimed.leaseId, status, result.statusCode, result.error, next, result.delivered ? at : null];
  });
  const updated = await em.execute<{ id: string }[]>(
    `update webhook_deliveries d set status = v.status, last_status_code = v.code, last_error = v.error, next_attempt_at = v.next_at,
        delivered_at = coalesce(v.delivered_at, d.delivered_at), lease_id = null, lease_until = null
      from (values ${rows.map(() => '(?::uuid, ?::uuid, ?, ?::int, ?::text, ?::timestamptz, ?::timestamptz)').join(', ')})
        as v(id, lease_id, status, code, error, next_at, delivered_at)
      where d.id = v.id and d.lease_id = v.lease_id
      returning d.id`,
    rows.flat(),
  );
  return new Set(updated.map((r) => r.id));
}

/**
 * The test route's delivery (spec 4.8): a `webhook.test` event for this endpoint alone, claimed for
 * an attempt made at once by the caller. Its data: the endpoint and a line saying what it is.
 */
export async function claimTestDelivery(em: Em, workspaceId: string, endpoint: { id: string; url: string; secret: string }, now: Date, leaseMs: number): Promise<ClaimedDelivery> {
  return em.transactional(async (tx) => {
    const data = { endpoint_id: endpoint.id, message: 'A test event sent from the webhook settings; it reports nothing.' };
    const eventId = await writeDispatchedEvent(tx, workspaceId, 'webhook.test', data, now);
    const id = randomUUID();
    const leaseId = randomUUID();
    await tx.execute(
      `insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, status, attempts, last_attempt_at, lease_id, lease_until, created_at)
        values (?, ?, ?, ?, 'webhook.test', 'sending', 1, ?, ?, ?, ?)`,
      [id, workspaceId, endpoint.id, eventId, now, leaseId, new Date(now.getTime() + leaseMs), now],
      'run',
    );
    return {
      deliveryId: id,
      leaseId,
      attempts: 1,
      endpointId: endpoint.id,
      url: endpoint.url,
      secret: endpoint.secret,
      event: { id: eventId, type: 'webhook.test', workspace_id: workspaceId, created_at: now, data },
    };
  });
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, endpoint_id, event_id, event_type, status, attempts, last_status_code, last_error, last_attempt_at, next_attempt_at, delivered_at, created_at';
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function describeDelivery(r: DeliveryRow) {
  return {
    id: r.id,
    endpoint_id: r.endpoint_id,
    event_id: r.event_id,
    event_type: r.event_type,
    status: r.status,
    attempts: Number(r.attempts),
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    last_attempt_at: iso(r.last_attempt_at),
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    delivered_at: iso(r.delivered_at),
    created_at: iso(r.created_at)!,
  };
}

/** The event as the receiver gets it (spec 6.1). */
export function describeEvent(e: OutboxEventRow) {
  return { id: e.id, type: e.type, created: iso(e.created_at)!, workspace_id: e.workspace_id, data: e.data };
}

export interface DeliveryFilter {
  endpointId: string | null;
  status: DeliveryStatus | null;
  limit: number;
  cursor: string | null;
}

/** A page's position: the created time and id of the last row shown, opaque to the caller. */
const encodeCursor = (r: DeliveryRow) => Buffer.from(JSON.stringify([iso(r.created_at), r.id])).toString('base64url');

function decodeCursor(cursor: string): [string, string] {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return [at, id];
  } catch {
    // Falls through to the refusal.
  }
  throw invalid('bad_cursor', 'cursor must be the next_cursor of an earlier page, passed unchanged');
}

/** The log, newest first, a page at a time; `next_cursor` is null on the last page. */
export async function listDeliveries(em: Em, workspaceId: string, f: DeliveryFilter) {
  const where = ['workspace_id = ?'];
  const params: unknown[] = [workspaceId];
  if (f.endpointId !== null) (where.push('endpoint_id = ?'), params.push(f.endpointId));
  if (f.status !== null) (where.push('status = ?'), params.push(f.status));
  if (f.cursor !== null) {
    const [at, id] = decodeCursor(f.cursor);
    where.push('(created_at, id) < (?::timestamptz, ?::uuid)');
    params.push(at, id);
  }
  const rows = await em.execute<DeliveryRow[]>(
    `select ${COLUMNS} from webhook_deliveries where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
    [...params, f.limit + 1],
  );
  const page = rows.slice(0, f.limit);
  return { deliveries: page.map(describeDelivery), next_cursor: rows.length > f.limit ? encodeCursor(page[page.length - 1]) : null };
}

async function deliveryRow(em: Em, workspaceId: string, id: string): Promise<DeliveryRow> {
  const [row] = await em.execute<DeliveryRow[]>(`select ${COLUMNS} from webhook_deliveries where id = ? and workspace_id = ?`, [id, workspaceId]);
  if (!row) throw notFound(`no webhook delivery ${id} in this workspace`);
  return row;
}

/** One delivery with the event it carries. */
export async function getDelivery(em: Em, workspaceId: string, id: string) {
  const row = await deliveryRow(em, workspaceId, id);
  const event = await eventById(em, row.event_id);
  return { ...describeDelivery(row), event: event === null ? null : describeEvent(event) };
}

/**
 * Sends a finished delivery again (spec 3.3): due at once, with a new round of seven attempts on the
 * schedule. Refused with `in_flight` while it is still `pending` or `sending`.
 */
export async function retryDelivery(em: Em, workspaceId: string, id: string, now: Date) {
  const [row] = await em.execute<DeliveryRow[]>(
    `update webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = ?, delivered_at = null
      where id = ? and workspace_id = ? and status in ('delivered', 'failed') returning ${COLUMNS}`,
    [now, id, workspaceId],
  );
  if (row) return describeDelivery(row);
  const current = await deliveryRow(em, workspaceId, id);
  throw inFlight(`delivery ${id} is still ${current.status === 'pending' ? 'waiting for its next attempt' : 'being tried'}; retry it once it is delivered or failed`);
}

export async function deleteEndpointDeliveries(tx: Em, endpointId: string): Promise<void> {
  await tx.execute('delete from webhook_deliveries where endpoint_id = ?', [endpointId], 'run');
}

/** Deletes finished deliveries whose last attempt was before `before` (spec 6.4: 30 days); answers how many. */
export async function pruneDeliveries(em: Em, before: Date): Promise<number> {
  const result = await em.execute(
    `delete from webhook_deliveries where status in ('delivered', 'failed') and coalesce(last_attempt_at, created_at) < ?`,
    [before],
    'run',
  );
  return Number((result as { affectedRows?: number }).affectedRows ?? 0);
}
