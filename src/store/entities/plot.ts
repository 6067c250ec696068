import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const VALIDATION_STATES = ['valid', 'repaired', 'rejected', 'pending'] as const;
export type ValidationStateValue = (typeof VALIDATION_STATES)[number];

/** Spec 3.1. */
export const EVIDENCE_STATES = ['none', 'queued', 'running', 'done', 'failed'] as const;
export type EvidenceState = (typeof EVIDENCE_STATES)[number];

// The plot_totals triggers as migration plot_totals applies them: a change needs a new migration.
export const PLOT_TOTALS_INSERT = `create trigger plot_totals_insert after insert on "plots" referencing new table as changed_plots for each statement execute function plot_totals_count();`;
export const PLOT_TOTALS_DELETE = `create trigger plot_totals_delete after delete on "plots" referencing old table as changed_plots for each statement execute function plot_totals_count();`;

/**
 * A register row (spec 2.1). Every statement over it lives in src/store/register: imports write the
 * boundary and its report through batched SQL (imports.ts), so a column added here is added there
 * too; the evidence transitions write the evidence columns (transitions.ts).
 */
export const Plot = defineEntity({
  name: 'Plot',
  tableName: 'plots',
  indexes: [
    // The register's order and its paging.
    { properties: ['workspaceId', 'seq'] },
    { properties: ['workspaceId', 'evidenceState'] },
  ],
  // NULL refs are distinct in a unique index: plots uploaded without a ref never collide.
  uniques: [{ properties: ['workspaceId', 'externalRef'] }],
  // They keep plot_totals (entities/plot-total.ts); migration plot_totals makes their functions and a
  // truncate trigger, which the schema diff does not read. Declared as the DDL that made them so the
  // diff keeps them: a statement trigger reading a transition table has no other declared form.
  triggers: [
    { name: 'plot_totals_insert', timing: 'after', events: ['insert'], forEach: 'statement', expression: PLOT_TOTALS_INSERT },
    { name: 'plot_totals_delete', timing: 'after', events: ['delete'], forEach: 'statement', expression: PLOT_TOTALS_DELETE },
  ],
  properties: {
    id: p.uuid().primary(),
    /** Insertion order (file order within an import): the register's stable order. */
    seq: p.bigint('number').autoincrement(),
    workspaceId: p.uuid(),
    externalRef: p.text().nullable(),
    commodity: p.text().nullable(),
    /** ISO 3166-1 alpha-2. */
    country: p.string().length(2).nullable(),
    /** Measured on the boundary; for a point the declared area, else 4 ha (as the EU system takes it). */
    areaHa: p.double().nullable(),
    declaredAreaHa: p.double().nullable(),
    /** WGS84 GeoJSON Point, Polygon or MultiPolygon as stored after repair; null when none could be read. */
    geometry: p.json<object>().nullable(),
    /** `upload` for imported plots, `alert` for plots made from alerts. */
    geometrySource: p.text().default('upload'),
    validationState: p.enum(VALIDATION_STATES),
    /** `{findings, repairs, rejections}` of the last upload, each a list of `{code, message}`. */
    validationReport: p.json<object>(),
    plantedYear: p.integer().nullable(),
    producerId: p.uuid().nullable().index(),
    evidenceState: p.enum(EVIDENCE_STATES).default('none'),
    /** The evidence job holding the plot while it is queued or running (and the last one after). */
    evidenceJobId: p.uuid().nullable(),
    /** Why the last read failed, in words; null unless `evidenceState` is `failed`. */
    evidenceError: p.text().nullable(),
    verdict: p.text().nullable(),
    reason: p.text().nullable(),
    evidenceAt: p.datetime().nullable(),
    /** The few facts of the stored evidence that the plot's `state` needs (engine/plot-state.ts); null while unread. */
    evidenceFacts: p.json<object>().nullable(),
    postCutoffLossShare: p.double().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type Plot = InferEntity<typeof Plot>;
