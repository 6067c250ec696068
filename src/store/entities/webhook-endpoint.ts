import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A receiver of the workspace's events (spec 2.13, 4.8); at most five per workspace. */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid().index(),
    url: p.text(),
    /** The event types sent to it (spec 6.2 names). */
    events: p.json<string[]>(),
    label: p.string().nullable(),
    active: p.boolean(),
    /**
     * The signing secret, kept whole: each attempt signs with it (HMAC needs the secret itself, a
     * hash would not do). Shown once; lists show a hint.
     */
    secret: p.string(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
