import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A workspace's number of plots, kept by the database itself: statement triggers on `plots` add
 * what each insert adds and take off what each delete removes, in the writing transaction
 * (migration plot_totals). Read by src/store/register/plot-totals.ts alone; declared here so the
 * schema diff behind new migrations (src/store/make-migration.ts) knows the table.
 */
export const PlotTotal = defineEntity({
  name: 'PlotTotal',
  tableName: 'plot_totals',
  properties: {
    workspaceId: p.uuid().primary(),
    plots: p.bigint('number'),
  },
});
export type PlotTotal = InferEntity<typeof PlotTotal>;
