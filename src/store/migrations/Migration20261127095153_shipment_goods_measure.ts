import { Migration } from '@mikro-orm/migrations';

export class Migration20261127095153_shipment_goods_measure extends Migration {

  override name = 'Migration20261127095153_shipment_goods_measure';

  override up(): void | Promise<void> {
    this.addSql(`alter table "shipments" add "net_mass_kg" double precision null, add "supplementary_unit" double precision null, add "supplementary_unit_type" varchar(4) null, add "border_cross_country" varchar(2) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "shipments" drop column "net_mass_kg", drop column "supplementary_unit", drop column "supplementary_unit_type", drop column "border_cross_country";`);
  }

}
