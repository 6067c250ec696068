import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The allowance ledger: one row per finished read (a rerun is another row); failed reads write none. */
export const EvidenceUnit = defineEntity({
  name: 'EvidenceUnit',
  tableName: 'evidence_units',
  indexes: [{ properties: ['workspaceId', 'usedAt'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    plotId: p.uuid(),
    /** The read this unit pays for; unique so a read is charged exactly once. */
    readId: p.uuid().unique(),
    usedAt: p.datetime(),
  },
});
export type EvidenceUnit = InferEntity<typeof EvidenceUnit>;
