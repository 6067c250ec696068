import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * An `Idempotency-Key` a workspace sent on a route that creates or charges, with the request it came
 * on and, once answered, the answer itself (src/store/idempotency-keys.ts owns its SQL).
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  indexes: [{ properties: ['createdAt'] }],
  properties: {
    workspaceId: p.uuid().primary(),
    key: p.string().length(255).primary(),
    /** SHA-256 of the method, path, query and body: the same key on another request is refused. */
    requestDigest: p.string(),
    /** The answer's status; null while the first request is still being answered. */
    status: p.integer().nullable(),
    contentType: p.string().nullable(),
    answer: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;
