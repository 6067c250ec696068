import { Migration } from '@mikro-orm/migrations';

export class Migration20261124060153_webhooks extends Migration {

  override name = 'Migration20261124060153_webhooks';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhook_deliveries" ("id" uuid not null, "workspace_id" uuid not null, "endpoint_id" uuid not null, "event_id" varchar(255) not null, "event_type" varchar(255) not null, "status" text not null, "attempts" int not null, "last_status_code" int null, "last_error" text null, "last_attempt_at" timestamptz null, "next_attempt_at" timestamptz null, "lease_id" uuid null, "lease_until" timestamptz null, "delivered_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_status_next_attempt_at_index" on "webhook_deliveries" ("status", "next_attempt_at");`);
    this.addSql(`create index "webhook_deliveries_workspace_id_created_at_index" on "webhook_deliveries" ("workspace_id", "created_at");`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_event_id_unique" unique ("endpoint_id", "event_id");`);

    this.addSql(`create table "webhook_endpoints" ("id" uuid not null, "workspace_id" uuid not null, "url" text not null, "events" jsonb not null, "label" varchar(255) null, "active" boolean not null, "secret" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_workspace_id_index" on "webhook_endpoints" ("workspace_id");`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ('pending', 'sending', 'delivered', 'failed'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
  }

}
