import { Migration } from '@mikro-orm/migrations';

export class Migration20261127120000_statement_filing_options extends Migration {

  override name = 'Migration20261127120000_statement_filing_options';

  override up(): void | Promise<void> {
    this.addSql(`alter table "statements" add "represented_operator" jsonb null, add "geolocation_confidential" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "statements" drop column "represented_operator", drop column "geolocation_confidential";`);
  }

}
