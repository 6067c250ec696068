import { Migration } from '@mikro-orm/migrations';

export class Migration20261124060147_shipments_and_statements extends Migration {

  override name = 'Migration20261124060147_shipments_and_statements';

  override up(): void | Promise<void> {
    this.addSql(`create table "shipments" ("id" uuid not null, "seq" bigserial, "workspace_id" uuid not null, "reference" text not null, "commodity" text null, "description_of_goods" text null, "hs_code" text null, "quantity" double precision null, "unit" text null, "destination_country" varchar(2) null, "activity_type" text not null default 'IMPORT', "shipped_on" varchar(10) null, "arrives_on" varchar(10) null, "producer_ids" jsonb not null, "species" jsonb null, "note" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "shipments" add constraint "shipments_workspace_id_reference_unique" unique ("workspace_id", "reference");`);

    this.addSql(`create table "shipment_plots" ("shipment_id" uuid not null, "plot_id" uuid not null, "workspace_id" uuid not null, "seq" bigserial not null, primary key ("shipment_id", "plot_id"));`);
    this.addSql(`create index "shipment_plots_plot_id_index" on "shipment_plots" ("plot_id");`);
    this.addSql(`create index "shipment_plots_shipment_id_seq_index" on "shipment_plots" ("shipment_id", "seq");`);

    this.addSql(`create table "statements" ("id" uuid not null, "seq" bigserial, "workspace_id" uuid not null, "shipment_id" uuid null, "internal_reference" text not null, "species" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "statements_shipment_id_index" on "statements" ("shipment_id");`);
    this.addSql(`alter table "statements" add constraint "statements_workspace_id_internal_reference_unique" unique ("workspace_id", "internal_reference");`);

    this.addSql(`alter table "shipments" add constraint "shipments_unit_check" check ("unit" in ('kg', 't', 'm3'));`);
    this.addSql(`alter table "shipments" add constraint "shipments_activity_type_check" check ("activity_type" in ('IMPORT', 'EXPORT', 'DOMESTIC', 'TRADE'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "shipments" cascade;`);
    this.addSql(`drop table if exists "shipment_plots" cascade;`);
    this.addSql(`drop table if exists "statements" cascade;`);
  }

}
