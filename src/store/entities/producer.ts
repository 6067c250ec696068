import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A producer of a workspace (spec 2.4). Imports match plots to producers by `key` (the name with case
 * and spacing ignored) and never create them. The country (alpha-2) decides the calibration campaign
 * and the country classification a plot's evidence is reported against.
 */
export const Producer = defineEntity({
  name: 'Producer',
  tableName: 'producers',
  indexes: [{ properties: ['workspaceId', 'key'] }],
  uniques: [{ properties: ['workspaceId', 'reference'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    name: p.text(),
    /** producerKey(name): what an uploaded `producer` property is matched on. */
    key: p.text(),
    /** The caller's own reference for the producer; unique in the workspace when given. */
    reference: p.text().nullable(),
    country: p.string().length(2).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Producer = InferEntity<typeof Producer>;
