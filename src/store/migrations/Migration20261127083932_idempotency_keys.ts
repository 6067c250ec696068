import { Migration } from '@mikro-orm/migrations';

export class Migration20261127083932_idempotency_keys extends Migration {

  override name = 'Migration20261127083932_idempotency_keys';

  override up(): void | Promise<void> {
    this.addSql(`create table "idempotency_keys" ("workspace_id" uuid not null, "key" varchar(255) not null, "request_digest" varchar(255) not null, "status" int null, "content_type" varchar(255) null, "answer" text null, "created_at" timestamptz not null, primary key ("workspace_id", "key"));`);
    this.addSql(`create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }

}
