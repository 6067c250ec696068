import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SEAT_ROLES } from './member.ts';

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid().index(),
    role: p.enum(SEAT_ROLES),
    /** Shown in lists so a person can tell keys apart; the secret part is never stored. */
    prefix: p.string(),
    /** Lower-case hex SHA-256 of the whole key. */
    hash: p.string().unique(),
    label: p.string().nullable(),
    createdBy: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;
