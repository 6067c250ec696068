import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    /** Lower-case hex SHA-256 of the cookie token. */
    hash: p.string().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
  },
});
export type Session = InferEntity<typeof Session>;
