import type { Em } from '../orm.ts';

/**
 * The workspace's number of plots as the database keeps it (migration plot_totals: triggers on
 * `plots` add and take off in the writing transaction), so a total costs one row read whatever the
 * register's size. A workspace that never had a plot has no row: 0.
 */
export async function plotTotal(em: Em, workspaceId: string): Promise<number> {
  const [row] = await em.execute<{ plots: number | string }[]>('select plots from plot_totals where workspace_id = ?', [workspaceId]);
  return row === undefined ? 0 : Number(row.plots);
}
