import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Spec 4.9: what a statement's activity may be; V3 refuses TRADE, which the statement reports rather than changes. */
export const ACTIVITY_TYPES = ['IMPORT', 'EXPORT', 'DOMESTIC', 'TRADE'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const SHIPMENT_UNITS = ['kg', 't', 'm3'] as const;
export type ShipmentUnit = (typeof SHIPMENT_UNITS)[number];

/**
 * A shipment (spec 4.9): the facts of one batch a due diligence statement is built from. Every field
 * but the reference and the activity stays null until the caller gives it, so the statement can
 * name what it still waits on. Its plots are rows of `shipment_plots`; its SQL is src/store/register/shipments.ts.
 */
export const Shipment = defineEntity({
  name: 'Shipment',
  tableName: 'shipments',
  uniques: [{ properties: ['workspaceId', 'reference'] }],
  properties: {
    id: p.uuid().primary(),
    /** Creation order: the list's stable order. */
    seq: p.bigint('number').autoincrement(),
    workspaceId: p.uuid(),
    reference: p.text(),
    commodity: p.text().nullable(),
    descriptionOfGoods: p.text().nullable(),
    /** Digits only, 2 to 8. */
    hsCode: p.text().nullable(),
    quantity: p.double().nullable(),
    unit: p.enum(SHIPMENT_UNITS).nullable(),
    /** V3's goods measure as the caller gives it: net mass in kg, and a supplementary unit with its type (MTQ, NAR, KSD…). */
    netMassKg: p.double().nullable(),
    supplementaryUnit: p.double().nullable(),
    supplementaryUnitType: p.string().length(4).nullable(),
    /** Alpha-2 of the EU member state of entry (IMPORT) or exit (EXPORT) at the customs border. */
    borderCrossCountry: p.string().length(2).nullable(),
    /** Alpha-2 of an EU member state. */
    destinationCountry: p.string().length(2).nullable(),
    activityType: p.enum(ACTIVITY_TYPES).default('IMPORT'),
    /** ISO dates, `YYYY-MM-DD`. */
    shippedOn: p.string().length(10).nullable(),
    arrivesOn: p.string().length(10).nullable(),
    /** Producers named on the batch beside those of its plots. */
    producerIds: p.json<string[]>(),
    /** `[{scientific_name, common_name}]` (spec 4.10); null until given. */
    species: p.json<object>().nullable(),
    note: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type Shipment = InferEntity<typeof Shipment>;

/** A plot on a shipment; a plot may be on several. Removing the shipment removes these rows, never the plot. */
export const ShipmentPlot = defineEntity({
  name: 'ShipmentPlot',
  tableName: 'shipment_plots',
  indexes: [{ properties: ['plotId'] }, { properties: ['shipmentId', 'seq'] }],
  properties: {
    shipmentId: p.uuid().primary(),
    plotId: p.uuid().primary(),
    workspaceId: p.uuid(),
    /** The order plots were added: the batch's order. */
    seq: p.bigint('number').autoincrement(),
  },
});
export type ShipmentPlot = InferEntity<typeof ShipmentPlot>;
