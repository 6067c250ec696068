import { Migration } from '@mikro-orm/migrations';

export class Migration20261127090752_sign_in_clients extends Migration {

  override name = 'Migration20261127090752_sign_in_clients';

  override up(): void | Promise<void> {
    this.addSql(`create table "sign_in_clients" ("account" varchar(255) not null, "address" varchar(255) not null, "last_signed_in_at" timestamptz not null, primary key ("account", "address"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sign_in_clients" cascade;`);
  }

}
