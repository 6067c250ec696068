import { Migration } from '@mikro-orm/migrations';

export class Migration20261122044737_evidence_and_outbox extends Migration {

  override name = 'Migration20261122044737_evidence_and_outbox';

  override up(): void | Promise<void> {
    this.addSql(`create table "evidence" ("id" uuid not null, "workspace_id" uuid not null, "plot_id" uuid not null, "job_id" uuid null, "issued" timestamptz not null, "object" jsonb not null, "integrity" jsonb not null, "current" boolean not null, "map" jsonb not null, "chip_png" bytea null, primary key ("id"));`);
    this.addSql(`create index "evidence_plot_id_current_index" on "evidence" ("plot_id", "current");`);
    this.addSql(`create index "evidence_workspace_id_issued_index" on "evidence" ("workspace_id", "issued");`);

    this.addSql(`create table "outbox" ("id" varchar(255) not null, "workspace_id" uuid not null, "type" varchar(255) not null, "data" jsonb not null, "created_at" timestamptz not null, "dispatched_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "outbox_dispatched_at_created_at_index" on "outbox" ("dispatched_at", "created_at");`);
    this.addSql(`create index "outbox_workspace_id_created_at_index" on "outbox" ("workspace_id", "created_at");`);

    this.addSql(`alter table "plots" add "evidence_job_id" uuid null, add "evidence_error" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "evidence" cascade;`);
    this.addSql(`drop table if exists "outbox" cascade;`);

    this.addSql(`alter table "plots" drop column "evidence_job_id", drop column "evidence_error";`);
  }

}
