import { Migration } from '@mikro-orm/migrations';

export class Migration20261124090909_alert_monitor_shipments extends Migration {

  override name = 'Migration20261124090909_alert_monitor_shipments';

  override up(): void | Promise<void> {
    this.addSql(`alter table "alert_monitors" drop constraint "alert_monitors_scope_check";`);
    this.addSql(`alter table "alert_monitors" add "shipment_id" uuid null;`);
    this.addSql(`create index "alert_monitors_shipment_id_index" on "alert_monitors" ("shipment_id");`);
    this.addSql(`alter table "alert_monitors" add constraint "alert_monitors_scope_check" check ("scope" in ('all', 'plots', 'shipment'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "alert_monitors_shipment_id_index";`);
    this.addSql(`alter table "alert_monitors" drop constraint "alert_monitors_scope_check";`);
    this.addSql(`alter table "alert_monitors" drop column "shipment_id";`);
    this.addSql(`alter table "alert_monitors" add constraint "alert_monitors_scope_check" check ("scope" in ('all', 'plots'));`);
  }

}
