import { Migration } from '@mikro-orm/migrations';

export class Migration20261127090047_monitor_unwatchable_plots extends Migration {

  override name = 'Migration20261127090047_monitor_unwatchable_plots';

  override up(): void | Promise<void> {
    this.addSql(`alter table "alert_monitors" add "unwatchable" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "alert_monitors" drop column "unwatchable";`);
  }

}
