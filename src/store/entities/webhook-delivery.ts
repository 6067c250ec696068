import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to one endpoint (spec 2.13, 3.3): its id is the `X-Service-Delivery` header. `pending`
 * waits for `nextAttemptAt`; `sending` is held by one attempt until `leaseUntil`, after which a
 * worker that died mid-attempt is presumed gone and the delivery is tried again.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  indexes: [{ properties: ['status', 'nextAttemptAt'] }, { properties: ['workspaceId', 'createdAt'] }],
  uniques: [{ properties: ['endpointId', 'eventId'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    endpointId: p.uuid(),
    /** The outbox event carried. */
    eventId: p.string(),
    eventType: p.string(),
    status: p.enum(DELIVERY_STATUSES),
    /** Attempts of the current round (a retry by hand starts a new round of seven). */
    attempts: p.integer(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    nextAttemptAt: p.datetime().nullable(),
    /** The attempt holding a `sending` delivery; its outcome is recorded only while it still holds it. */
    leaseId: p.uuid().nullable(),
    leaseUntil: p.datetime().nullable(),
    deliveredAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;
