import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A dated reading of a sub-metre archive scene filed against a plot's evidence (src/engine/archive-reading.ts):
 * the reading exactly as signed and served, and its own integrity block. It is served with the
 * evidence it was filed with while not withdrawn; a withdrawn reading stays, with who withdrew it and why.
 * src/store/register/archive-readings.ts owns its SQL.
 */
export const ArchiveReading = defineEntity({
  name: 'ArchiveReading',
  tableName: 'archive_readings',
  indexes: [{ properties: ['workspaceId', 'plotId', 'filedAt'] }, { properties: ['evidenceId'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    plotId: p.uuid(),
    /** The evidence row (its read id) the reading was filed with. */
    evidenceId: p.uuid(),
    /** The reading as signed and served. */
    reading: p.json<object>(),
    /** `{canonicalization, digest, signature, key_id}` over `reading`. */
    integrity: p.json<object>(),
    /** Who filed it: `user:<id>` (a session), `key:<id>` (an API key) or `operator` (the admin command). */
    filedBy: p.text(),
    filedAt: p.datetime(),
    withdrawnAt: p.datetime().nullable(),
    withdrawnBy: p.text().nullable(),
    withdrawnReason: p.text().nullable(),
  },
});
export type ArchiveReading = InferEntity<typeof ArchiveReading>;
