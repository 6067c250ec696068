import { Migration } from '@mikro-orm/migrations';

export class Migration20261124013915_sign_in_failures extends Migration {

  override name = 'Migration20261124013915_sign_in_failures';

  override up(): void | Promise<void> {
    this.addSql(`create table "sign_in_failures" ("key" varchar(255) not null, "failures" int not null, "last_failed_at" timestamptz not null, "blocked_until" timestamptz null, primary key ("key"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sign_in_failures" cascade;`);
  }

}
