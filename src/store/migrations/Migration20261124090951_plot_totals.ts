import { Migration } from '@mikro-orm/migrations';
import { PLOT_TOTALS_DELETE, PLOT_TOTALS_INSERT } from '../entities/plot.ts';

/**
 * Each workspace's number of plots, kept by the database in the transaction that adds or removes
 * them, so the register's unfiltered list reads its total instead of counting the workspace's plots
 * on every page (src/store/register/plot-totals.ts). Triggers rather than the register's own writes:
 * every statement that changes `plots` keeps the total, whichever module or operator runs it. They
 * fire once per statement over its transition table, so a batch of 5,000 plots costs one upsert per
 * workspace it touched; the upserts go in workspace order, so two statements over the same
 * workspaces lock their totals in one order. A plot never changes workspace, so updates are not
 * watched (a trigger on every update would cost each evidence transition).
 */
export class Migration20261124090951_plot_totals extends Migration {

  override name = 'Migration20261124090951_plot_totals';

  override up(): void | Promise<void> {
    this.addSql(`create table "plot_totals" ("workspace_id" uuid not null, "plots" bigint not null, primary key ("workspace_id"));`);
    this.addSql(`create function plot_totals_count() returns trigger language plpgsql as $$
      begin
        insert into plot_totals (workspace_id, plots)
          select workspace_id, case when TG_OP = 'INSERT' then count(*) else -count(*) end
            from changed_plots group by workspace_id order by workspace_id
          on conflict (workspace_id) do update set plots = plot_totals.plots + excluded.plots;
        return null;
      end $$;`);
    this.addSql(`create function plot_totals_clear() returns trigger language plpgsql as $$
      begin
        delete from plot_totals;
        return null;
      end $$;`);
    this.addSql(PLOT_TOTALS_INSERT);
    this.addSql(PLOT_TOTALS_DELETE);
    this.addSql(`create trigger plot_totals_truncate after truncate on "plots" for each statement execute function plot_totals_clear();`);
    // After the triggers: creating them waits for writes in flight and holds off new ones until this
    // migration commits, so the count below sees every plot written before and none twice.
    this.addSql(`insert into "plot_totals" ("workspace_id", "plots") select "workspace_id", count(*) from "plots" group by "workspace_id";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists plot_totals_insert on "plots";`);
    this.addSql(`drop trigger if exists plot_totals_delete on "plots";`);
    this.addSql(`drop trigger if exists plot_totals_truncate on "plots";`);
    this.addSql(`drop function if exists plot_totals_count();`);
    this.addSql(`drop function if exists plot_totals_clear();`);
    this.addSql(`drop table if exists "plot_totals" cascade;`);
  }

}
