import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * `member`: a workspace member (studio and portal); `reviewer`: a workspace member who also files and
 * withdraws archive review readings; `portal`: a portal member (portal families and alerts only).
 */
export const SEAT_ROLES = ['member', 'reviewer', 'portal'] as const;
export type SeatRole = (typeof SEAT_ROLES)[number];

export const Member = defineEntity({
  name: 'Member',
  tableName: 'members',
  uniques: [{ properties: ['workspaceId', 'userId'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid().index(),
    userId: p.uuid().index(),
    role: p.enum(SEAT_ROLES),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Member = InferEntity<typeof Member>;
