import { Migration } from '@mikro-orm/migrations';

export class Migration20261122035914_initial extends Migration {

  override name = 'Migration20261122035914_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_keys" ("id" uuid not null, "workspace_id" uuid not null, "role" text not null, "prefix" varchar(255) not null, "hash" varchar(255) not null, "label" varchar(255) null, "created_by" uuid null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "api_keys_workspace_id_index" on "api_keys" ("workspace_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_hash_unique" unique ("hash");`);

    this.addSql(`create table "evidence_units" ("id" uuid not null, "workspace_id" uuid not null, "plot_id" uuid not null, "read_id" uuid not null, "used_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "evidence_units" add constraint "evidence_units_read_id_unique" unique ("read_id");`);
    this.addSql(`create index "evidence_units_workspace_id_used_at_index" on "evidence_units" ("workspace_id", "used_at");`);

    this.addSql(`create table "members" ("id" uuid not null, "workspace_id" uuid not null, "user_id" uuid not null, "role" text not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "members_workspace_id_index" on "members" ("workspace_id");`);
    this.addSql(`create index "members_user_id_index" on "members" ("user_id");`);
    this.addSql(`alter table "members" add constraint "members_workspace_id_user_id_unique" unique ("workspace_id", "user_id");`);

    this.addSql(`create table "sessions" ("id" uuid not null, "user_id" uuid not null, "hash" varchar(255) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`alter table "sessions" add constraint "sessions_hash_unique" unique ("hash");`);

    this.addSql(`create table "users" ("id" uuid not null, "email" varchar(255) not null, "password_hash" varchar(255) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "workspaces" ("id" uuid not null, "name" varchar(255) not null, "plan" text not null, "created_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_role_check" check ("role" in ('member', 'portal'));`);

    this.addSql(`alter table "members" add constraint "members_role_check" check ("role" in ('member', 'portal'));`);

    this.addSql(`alter table "workspaces" add constraint "workspaces_plan_check" check ("plan" in ('standard', 'trial', 'professional', 'enterprise'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_keys" cascade;`);
    this.addSql(`drop table if exists "evidence_units" cascade;`);
    this.addSql(`drop table if exists "members" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "workspaces" cascade;`);
  }

}
