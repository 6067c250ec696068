import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const MONITOR_SCOPES = ['all', 'plots'] as const;
export type MonitorScope = (typeof MONITOR_SCOPES)[number];

/**
 * A workspace's watch over its plots for newly published alerts (spec 6.2 `alert.opened`): every
 * plot of the register, or a list. The scheduled run scans them from `since` and opens a case on
 * the alert queue for each alert cluster no case holds yet (src/alerts/monitor-run.ts).
 */
export const AlertMonitor = defineEntity({
  name: 'AlertMonitor',
  tableName: 'alert_monitors',
  indexes: [{ properties: ['workspaceId', 'createdAt'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    label: p.text().nullable(),
    scope: p.enum(MONITOR_SCOPES),
    /** The watched plots when `scope` is `plots`; null otherwise. */
    plotIds: p.json<string[]>().nullable(),
    /** `integrated` or `radd`. */
    product: p.text(),
    minAreaHa: p.double(),
    /** Alerts detected from this date (YYYY-MM-DD) on are watched. */
    since: p.string().length(10),
    active: p.boolean().default(true),
    lastRunAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type AlertMonitor = InferEntity<typeof AlertMonitor>;
