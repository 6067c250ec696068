import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A person who signs in; seats (memberships) give them access to workspaces. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    email: p.string().unique(),
    /** scrypt$N$r$p$salt$hash, all base64url */
    passwordHash: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type User = InferEntity<typeof User>;
