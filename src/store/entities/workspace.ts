import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const PLANS = ['standard', 'trial', 'professional', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const Workspace = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
    plan: p.enum(PLANS),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Workspace = InferEntity<typeof Workspace>;
