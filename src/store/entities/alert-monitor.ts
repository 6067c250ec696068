import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const MONITOR_SCOPES = ['all', 'plots', 'shipment'] as const;
export type MonitorScope = (typeof MONITOR_SCOPES)[number];

/** The monitored plots its product can never be read over, as last found: how many, and the first of them with why. */
export interface Unwatchable {
  count: number;
  plots: { plot_id: string; ref: string | null; why: string }[];
}

/**
 * A workspace's watch over its plots for newly published alerts (spec 6.2 `alert.opened`): every
 * plot of the register, a list, or the plots of one shipment as it stands at each run. The scheduled
 * run scans them from `since` and opens a case on the alert queue for each alert cluster no case
 * holds yet (src/alerts/monitor-run.ts).
 */
export const AlertMonitor = defineEntity({
  name: 'AlertMonitor',
  tableName: 'alert_monitors',
  indexes: [{ properties: ['workspaceId', 'createdAt'] }, { properties: ['shipmentId'] }],
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    label: p.text().nullable(),
    scope: p.enum(MONITOR_SCOPES),
    /** The watched plots when `scope` is `plots`; null otherwise. */
    plotIds: p.json<string[]>().nullable(),
    /**
     * The watched shipment when `scope` is `shipment`; null otherwise. No foreign key, as with the
     * shipment's other rows: deleting the shipment stops its monitors in the same transaction.
     */
    shipmentId: p.uuid().nullable(),
    /** `integrated` or `radd`. */
    product: p.text(),
    minAreaHa: p.double(),
    /** Alerts detected from this date (YYYY-MM-DD) on are watched. */
    since: p.string().length(10),
    /** False once the watched shipment is deleted: the monitor scans no more, its cases stay. */
    active: p.boolean().default(true),
    lastRunAt: p.datetime().nullable(),
    /** Found when the monitor is made and again at each run (src/alerts/monitor-run.ts). */
    unwatchable: p.json<Unwatchable>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type AlertMonitor = InferEntity<typeof AlertMonitor>;
