import { Migration } from '@mikro-orm/migrations';

export class Migration20261127093615_statement_frozen_facts extends Migration {

  override name = 'Migration20261127093615_statement_frozen_facts';

  override up(): void | Promise<void> {
    this.addSql(`alter table "statements" add "facts" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "statements" drop column "facts";`);
  }

}
