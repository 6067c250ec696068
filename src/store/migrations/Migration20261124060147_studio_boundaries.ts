import { Migration } from '@mikro-orm/migrations';

export class Migration20261124060147_studio_boundaries extends Migration {

  override name = 'Migration20261124060147_studio_boundaries';

  override up(): void | Promise<void> {
    this.addSql(`create table "boundary_analyses" ("id" uuid not null, "workspace_id" uuid not null, "boundary_id" uuid not null, "half" text not null, "state" text not null, "job_id" uuid null, "error" text null, "issued" timestamptz null, "object" jsonb null, "integrity" jsonb null, "map" jsonb null, "chip_png" bytea null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "boundary_analyses_workspace_id_job_id_index" on "boundary_analyses" ("workspace_id", "job_id");`);
    this.addSql(`alter table "boundary_analyses" add constraint "boundary_analyses_boundary_id_half_unique" unique ("boundary_id", "half");`);

    this.addSql(`create table "studio_boundaries" ("id" uuid not null, "workspace_id" uuid not null, "name" text not null, "geometry" jsonb not null, "area_ha" double precision not null, "country" varchar(2) null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "studio_boundaries_workspace_id_created_at_index" on "studio_boundaries" ("workspace_id", "created_at");`);

    this.addSql(`alter table "boundary_analyses" add constraint "boundary_analyses_half_check" check ("half" in ('optical', 'merged'));`);
    this.addSql(`alter table "boundary_analyses" add constraint "boundary_analyses_state_check" check ("state" in ('queued', 'running', 'done', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "boundary_analyses" cascade;`);
    this.addSql(`drop table if exists "studio_boundaries" cascade;`);
  }

}
