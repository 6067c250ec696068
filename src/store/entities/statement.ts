import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A stored due diligence statement (spec 4.9): an internal reference linked to the shipment it is
 * built from, and its own species when the caller set them. Its files are built from the batch as it
 * stands when they are asked for. A deleted shipment leaves its statements with `shipmentId` null and
 * `facts` holding the batch as it stood then, which they are served from from then on (spec 4.9).
 */
export const Statement = defineEntity({
  name: 'Statement',
  tableName: 'statements',
  uniques: [{ properties: ['workspaceId', 'internalReference'] }],
  properties: {
    id: p.uuid().primary(),
    seq: p.bigint('number').autoincrement(),
    workspaceId: p.uuid(),
    shipmentId: p.uuid().nullable().index(),
    internalReference: p.text(),
    /** `[{scientific_name, common_name}]`; null: the shipment's species. */
    species: p.json<object>().nullable(),
    /** The operator an authorised representative files for (src/statements/filing-options.ts); null: the operator files. */
    representedOperator: p.json<object>().nullable(),
    /** V3 `geoLocationConfidential`. */
    geolocationConfidential: p.boolean().default(false),
    /** The statement's facts (src/statements/payload.ts) frozen when its shipment was deleted; null while it has one. */
    facts: p.json<object>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type Statement = InferEntity<typeof Statement>;
