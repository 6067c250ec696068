import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Events (spec 6) written in the same transaction as what they report, and delivered later by the
 * webhook dispatcher, which sets `dispatchedAt` once it has fanned an event out to the endpoints.
 */
export const OutboxEvent = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox',
  indexes: [{ properties: ['dispatchedAt', 'createdAt'] }, { properties: ['workspaceId', 'createdAt'] }],
  properties: {
    /** `evt_` and a UUID: the event id every delivery carries. */
    id: p.string().primary(),
    workspaceId: p.uuid(),
    type: p.string(),
    /** The event's `data` (spec 6.2). */
    data: p.json<object>(),
    createdAt: p.datetime(),
    dispatchedAt: p.datetime().nullable(),
  },
});
export type OutboxEvent = InferEntity<typeof OutboxEvent>;
