import { Migration } from '@mikro-orm/migrations';

export class Migration20261124060134_archive_readings extends Migration {

  override name = 'Migration20261124060134_archive_readings';

  override up(): void | Promise<void> {
    this.addSql(`create table "archive_readings" ("id" uuid not null, "workspace_id" uuid not null, "plot_id" uuid not null, "evidence_id" uuid not null, "reading" jsonb not null, "integrity" jsonb not null, "filed_by" text not null, "filed_at" timestamptz not null, "withdrawn_at" timestamptz null, "withdrawn_by" text null, "withdrawn_reason" text null, primary key ("id"));`);
    this.addSql(`create index "archive_readings_workspace_id_plot_id_filed_at_index" on "archive_readings" ("workspace_id", "plot_id", "filed_at");`);
    this.addSql(`create index "archive_readings_evidence_id_index" on "archive_readings" ("evidence_id");`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_role_check";`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_role_check" check ("role" in ('member', 'reviewer', 'portal'));`);

    this.addSql(`alter table "members" drop constraint "members_role_check";`);
    this.addSql(`alter table "members" add constraint "members_role_check" check ("role" in ('member', 'reviewer', 'portal'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "archive_readings" cascade;`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_role_check";`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_role_check" check ("role" in ('member', 'portal'));`);

    this.addSql(`alter table "members" drop constraint "members_role_check";`);
    this.addSql(`alter table "members" add constraint "members_role_check" check ("role" in ('member', 'portal'));`);
  }

}
