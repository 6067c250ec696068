import { Migration } from '@mikro-orm/migrations';

export class Migration20261122042615_plots_and_producers extends Migration {

  override name = 'Migration20261122042615_plots_and_producers';

  override up(): void | Promise<void> {
    this.addSql(`create table "plots" ("id" uuid not null, "seq" bigserial, "workspace_id" uuid not null, "external_ref" text null, "commodity" text null, "country" varchar(2) null, "area_ha" double precision null, "declared_area_ha" double precision null, "geometry" jsonb null, "geometry_source" text not null default 'upload', "validation_state" text not null, "validation_report" jsonb not null, "planted_year" int null, "producer_id" uuid null, "evidence_state" text not null default 'none', "verdict" text null, "reason" text null, "evidence_at" timestamptz null, "evidence_facts" jsonb null, "post_cutoff_loss_share" double precision null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "plots_producer_id_index" on "plots" ("producer_id");`);
    this.addSql(`create index "plots_workspace_id_seq_index" on "plots" ("workspace_id", "seq");`);
    this.addSql(`create index "plots_workspace_id_evidence_state_index" on "plots" ("workspace_id", "evidence_state");`);
    this.addSql(`alter table "plots" add constraint "plots_workspace_id_external_ref_unique" unique ("workspace_id", "external_ref");`);

    this.addSql(`create table "producers" ("id" uuid not null, "workspace_id" uuid not null, "name" text not null, "key" text not null, "reference" text null, "country" varchar(2) null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "producers_workspace_id_key_index" on "producers" ("workspace_id", "key");`);
    this.addSql(`alter table "producers" add constraint "producers_workspace_id_reference_unique" unique ("workspace_id", "reference");`);

    this.addSql(`alter table "plots" add constraint "plots_validation_state_check" check ("validation_state" in ('valid', 'repaired', 'rejected', 'pending'));`);
    this.addSql(`alter table "plots" add constraint "plots_evidence_state_check" check ("evidence_state" in ('none', 'queued', 'running', 'done', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "plots" cascade;`);
    this.addSql(`drop table if exists "producers" cascade;`);
  }

}
