import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One issued evidence object (spec 2.6, 2.7) per finished read: the object exactly as served, its
 * integrity block, and beside it (outside the signed object) what the document's map needs. A
 * superseded read stays stored with `current = false`; the register row points at no row, the
 * plot's `evidence_state` decides whether the current one is served.
 */
export const Evidence = defineEntity({
  name: 'Evidence',
  tableName: 'evidence',
  indexes: [{ properties: ['plotId', 'current'] }, { properties: ['workspaceId', 'issued'] }],
  properties: {
    /** The read id: the allowance unit that pays for it carries the same id. */
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    plotId: p.uuid(),
    /** The evidence job that read it. */
    jobId: p.uuid().nullable(),
    issued: p.datetime(),
    /** The evidence object of spec 2.7 as served and signed. */
    object: p.json<object>(),
    /** `{canonicalization, digest, signature, key_id}` from sealEvidence(). */
    integrity: p.json<object>(),
    current: p.boolean(),
    /** The footprint read (WGS 84 GeoJSON) and the chip's bbox and scene; the chip's PNG is `chipPng`. */
    map: p.json<object>(),
    chipPng: p.blob().nullable(),
  },
});
export type Evidence = InferEntity<typeof Evidence>;
