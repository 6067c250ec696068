/**
 * Webhook endpoints (spec 4.8): five per workspace, each with its own signing secret, shown in full
 * only when made (create, rotate). Every URL passes the address guard when it is saved. This module
 * owns the `webhook_endpoints` table.
 */
import { randomUUID } from 'node:crypto';
import { invalid, notFound, webhookLimit } from '../errors.ts';
import { WebhookEndpoint } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { EVENT_TYPES, type EventType } from '../store/outbox.ts';
import type { AddressGuard } from './address-guard.ts';
import { deleteEndpointDeliveries, listDeliveries, type DeliveryFilter } from './deliveries.ts';
import { newSecret, secretHint } from './signature.ts';

export const MAX_ENDPOINTS = 5;

export function describeEndpoint(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    label: e.label ?? null,
    active: e.active,
    secret_hint: secretHint(e.secret),
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

function withSecret(e: WebhookEndpoint) {
  return { ...describeEndpoint(e), secret: e.secret, note: 'This secret is shown once. Store it now to verify X-Service-Signature; lists show only its hint.' };
}

/** The event names asked for: all when left out; an unknown name or an empty list is refused with `bad_events`. */
export function eventSelection(events: string[] | undefined): EventType[] {
  if (events === undefined) return [...EVENT_TYPES];
  if (events.length === 0) throw invalid('bad_events', 'events must name at least one event type; leave it out to receive every type');
  const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0) {
    throw invalid('bad_events', `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.map((e) => `"${e}"`).join(', ')}; the types are ${EVENT_TYPES.join(', ')}`);
  }
  return EVENT_TYPES.filter((t) => events.includes(t));
}

export interface EndpointInput {
  url: string;
  events?: string[];
  label?: string | null;
}

export async function createEndpoint(em: Em, guard: AddressGuard, workspaceId: string, input: EndpointInput) {
  const events = eventSelection(input.events);
  await guard.check(input.url);
  return em.transactional(async (tx) => {
    // One creation at a time per workspace, so two concurrent calls cannot both pass the limit.
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`webhooks:${workspaceId}`]);
    if ((await tx.count(WebhookEndpoint, { workspaceId })) >= MAX_ENDPOINTS) {
      throw webhookLimit(`this workspace already has ${MAX_ENDPOINTS} webhook endpoints; remove one (DELETE /portal/webhooks/{id}) or widen one's events instead`);
    }
    const now = new Date();
    const row = tx.create(WebhookEndpoint, {
      id: randomUUID(),
      workspaceId,
      url: input.url,
      events,
      label: input.label ?? null,
      active: true,
      secret: newSecret(),
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return withSecret(row);
  });
}

export async function listEndpoints(em: Em, workspaceId: string) {
  const rows = await em.find(WebhookEndpoint, { workspaceId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return rows.map(describeEndpoint);
}

/**
 * The delivery log (GET /portal/webhooks/deliveries); a filter naming no endpoint of the workspace
 * is not_found, as the other filters' ids are, rather than an empty log.
 */
export async function endpointDeliveries(em: Em, workspaceId: string, f: DeliveryFilter) {
  if (f.endpointId !== null) await endpointOf(em, workspaceId, f.endpointId);
  return listDeliveries(em, workspaceId, f);
}

/** The workspace's endpoint; not_found for another workspace's or none. */
async function endpointOf(em: Em, workspaceId: string, id: string): Promise<WebhookEndpoint> {
  const row = await em.findOne(WebhookEndpoint, { id, workspaceId });
  if (!row) throw notFound(`no webhook endpoint ${id} in this workspace`);
  return row;
}

export interface EndpointChange {
  url?: string;
  events?: string[];
  label?: string | null;
  active?: boolean;
}

export async function updateEndpoint(em: Em, guard: AddressGuard, workspaceId: string, id: string, change: EndpointChange) {
  const row = await endpointOf(em, workspaceId, id);
  if (change.events !== undefined) row.events = eventSelection(change.events);
  if (change.url !== undefined) {
    await guard.check(change.url);
    row.url = change.url;
  }
  if (change.label !== undefined) row.label = change.label;
  if (change.active !== undefined) row.active = change.active;
  row.updatedAt = new Date();
  await em.flush();
  return describeEndpoint(row);
}

/** Removes the endpoint and its delivery log (spec 4.8). */
export async function deleteEndpoint(em: Em, workspaceId: string, id: string) {
  return em.transactional(async (tx) => {
    const row = await endpointOf(tx, workspaceId, id);
    await deleteEndpointDeliveries(tx, id);
    const answer = describeEndpoint(row);
    tx.remove(row);
    return answer;
  });
}

/** A new secret, shown once; the old one stops verifying at once, from the next attempt on. */
export async function rotateSecret(em: Em, workspaceId: string, id: string) {
  const row = await endpointOf(em, workspaceId, id);
  row.secret = newSecret();
  row.updatedAt = new Date();
  await em.flush();
  return withSecret(row);
}

/** The endpoint's address and current secret, for an attempt made now. */
export async function endpointTarget(em: Em, workspaceId: string, id: string) {
  const row = await endpointOf(em, workspaceId, id);
  return { id: row.id, url: row.url, secret: row.secret };
}
