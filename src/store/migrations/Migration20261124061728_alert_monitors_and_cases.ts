import { Migration } from '@mikro-orm/migrations';

export class Migration20261124061728_alert_monitors_and_cases extends Migration {

  override name = 'Migration20261124061728_alert_monitors_and_cases';

  override up(): void | Promise<void> {
    this.addSql(`create table "alert_cases" ("id" uuid not null, "workspace_id" uuid not null, "monitor_id" uuid not null, "plot_id" uuid not null, "product" text not null, "first_date" varchar(10) not null, "last_date" varchar(10) not null, "confidence" text not null, "pixels" int not null, "area_ha" double precision not null, "flagged_area_km2" double precision not null, "severity" text not null, "centroid" jsonb null, "bbox" jsonb null, "source" jsonb not null, "status" text not null default 'open', "opened_at" timestamptz not null, "updated_at" timestamptz not null, "closed_at" timestamptz null, "close_note" text null, primary key ("id"));`);
    this.addSql(`create index "alert_cases_workspace_id_status_opened_at_index" on "alert_cases" ("workspace_id", "status", "opened_at");`);
    this.addSql(`create index "alert_cases_monitor_id_plot_id_index" on "alert_cases" ("monitor_id", "plot_id");`);

    this.addSql(`create table "alert_monitors" ("id" uuid not null, "workspace_id" uuid not null, "label" text null, "scope" text not null, "plot_ids" jsonb null, "product" text not null, "min_area_ha" double precision not null, "since" varchar(10) not null, "active" boolean not null default true, "last_run_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "alert_monitors_workspace_id_created_at_index" on "alert_monitors" ("workspace_id", "created_at");`);

    this.addSql(`alter table "alert_cases" add constraint "alert_cases_severity_check" check ("severity" in ('low', 'medium', 'high'));`);
    this.addSql(`alter table "alert_cases" add constraint "alert_cases_status_check" check ("status" in ('open', 'closed'));`);

    this.addSql(`alter table "alert_monitors" add constraint "alert_monitors_scope_check" check ("scope" in ('all', 'plots'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "alert_cases" cascade;`);
    this.addSql(`drop table if exists "alert_monitors" cascade;`);
  }

}
