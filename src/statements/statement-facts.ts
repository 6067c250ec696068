/**
 * The facts a due diligence statement is built from (src/statements/payload.ts): the batch's fields,
 * its plots and producers from the register, under an internal reference.
 */
import type { Em } from '../store/orm.ts';
import { batchProducers, filingPlots, shipmentStatements, type ShipmentRecord } from '../store/register/shipments.ts';
import type { StatementFacts } from './payload.ts';
import type { Species } from './species.ts';

/** The facts of a batch's statement under an internal reference and, when set, the statement's own species. */
export async function factsOf(em: Em, workspaceId: string, shipment: ShipmentRecord, internalReference: string, species: Species[] | null): Promise<StatementFacts> {
  return { ...await batchFacts(em, workspaceId, shipment, internalReference, species), plots: await filingPlots(em, shipment.id) };
}

/** The same facts but the plots, for a reader that pages through the batch's plots itself. */
export async function batchFacts(em: Em, workspaceId: string, shipment: ShipmentRecord, internalReference: string, species: Species[] | null): Promise<Omit<StatementFacts, 'plots'>> {
  const named = shipment.producer_ids.length === 0 ? [] : await batchProducers(em, workspaceId, shipment.id, shipment.producer_ids);
  return {
    internalReference,
    commodity: shipment.commodity,
    descriptionOfGoods: shipment.description_of_goods,
    hsCode: shipment.hs_code,
    quantity: shipment.quantity,
    unit: shipment.unit,
    netMassKg: shipment.net_mass_kg,
    supplementaryUnit: shipment.supplementary_unit,
    supplementaryUnitType: shipment.supplementary_unit_type,
    destinationCountry: shipment.destination_country,
    borderCrossCountry: shipment.border_cross_country,
    activityType: shipment.activity_type,
    species: species ?? (shipment.species as Species[] | null),
    namedProducers: named.filter((p) => shipment.producer_ids.includes(p.id)),
  };
}

/**
 * The facts of each statement stored from the batch, as it stands now: what each is served from once
 * the shipment is deleted, since statements stay (spec 4.9).
 */
export async function frozenStatements(em: Em, workspaceId: string, shipment: ShipmentRecord): Promise<{ id: string; facts: StatementFacts }[]> {
  const frozen = [];
  for (const s of await shipmentStatements(em, workspaceId, shipment.id)) {
    frozen.push({ id: s.id, facts: await factsOf(em, workspaceId, shipment, s.internal_reference, s.species as Species[] | null) });
  }
  return frozen;
}
