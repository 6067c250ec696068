import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const CASE_STATUSES = ['open', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const SEVERITIES = ['low', 'medium', 'high'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * A case on a workspace's alert queue: one published alert cluster a monitor found on one plot.
 * A later run that finds the same cluster grown updates its figures; a person closes it with a note.
 */
export const AlertCase = defineEntity({
  name: 'AlertCase',
  tableName: 'alert_cases',
  indexes: [{ properties: ['workspaceId', 'status', 'openedAt'] }, { properties: ['monitorId', 'plotId'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    monitorId: p.uuid(),
    plotId: p.uuid(),
    product: p.text(),
    firstDate: p.string().length(10),
    lastDate: p.string().length(10),
    confidence: p.text(),
    pixels: p.integer(),
    areaHa: p.double(),
    flaggedAreaKm2: p.double(),
    severity: p.enum(SEVERITIES),
    /** GeoJSON Point; null when the product's licence withholds the alert's place. */
    centroid: p.json<object>().nullable(),
    /** [min lon, min lat, max lon, max lat]; null when withheld. */
    bbox: p.json<number[]>().nullable(),
    /** The scan's `source` block (spec 2.12). */
    source: p.json<object>(),
    status: p.enum(CASE_STATUSES).default('open'),
    openedAt: p.datetime(),
    updatedAt: p.datetime(),
    closedAt: p.datetime().nullable(),
    closeNote: p.text().nullable(),
  },
});
export type AlertCase = InferEntity<typeof AlertCase>;
