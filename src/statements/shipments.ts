/**
 * Shipments (spec 4.9): the batches a due diligence statement is built from, their plots and
 * producers. Fields are checked where they enter (shipment-fields.ts, species.ts); nothing left out
 * is defaulted except the activity, so the statement can name what it still waits on.
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { notFound } from '../intake/errors.ts';
import { registerRows } from '../store/register/plots.ts';
import { rowOf, type RegisterRow } from '../intake/register.ts';
import { isUuid } from '../store/ids.ts';
import type { Em } from '../store/orm.ts';
import type { ActivityType, ShipmentUnit } from '../store/entities/index.ts';
import { stopShipmentMonitors } from '../store/register/alert-queue.ts';
import { frozenStatements } from './statement-facts.ts';
import {
  addShipmentPlots,
  batchCounts,
  batchProducers,
  deleteShipment as deleteShipmentRow,
  insertShipment,
  knownProducerIds,
  removeShipmentPlots,
  selectPlots,
  shipmentPlotIds,
  shipmentRecord,
  shipmentRecords,
  updateShipment,
  type BatchCounts,
  type BatchProducer,
  type ShipmentFields,
  type ShipmentRecord,
} from '../store/register/shipments.ts';
import { duplicateReference, noPlots, tooManyPlotsInCall } from './errors.ts';
import { borderCrossCountry, checkDates, destinationCountry, hsCode, shipmentReference, supplementaryUnitType } from './shipment-fields.ts';
import { isWood, parseSpecies, type Species, type SpeciesEntry } from './species.ts';

/** Spec 4.9: the most plots one add call takes. */
export const MAX_PLOTS_PER_ADD = 5000;

/** A shipment as the API serves it. */
export interface ShipmentAnswer extends Omit<ShipmentRecord, 'species' | 'created_at' | 'updated_at'> {
  species: Species[] | null;
  /** Wood by commodity or HS heading (spec 4.10): the statement carries species. */
  wood: boolean;
  counts: BatchCounts;
  created_at: string;
  updated_at: string;
}

export interface ShipmentDetail extends ShipmentAnswer {
  plots: RegisterRow[];
  producers: BatchProducer[];
}

/** The fields a caller gives, as the body's schema passed them; undefined: not given, null: cleared. */
export interface ShipmentInput {
  reference?: string;
  commodity?: string | null;
  description_of_goods?: string | null;
  hs_code?: string | null;
  quantity?: number | null;
  unit?: ShipmentUnit | null;
  net_mass_kg?: number | null;
  supplementary_unit?: number | null;
  supplementary_unit_type?: string | null;
  destination_country?: string | null;
  border_cross_country?: string | null;
  activity_type?: ActivityType;
  shipped_on?: string | null;
  arrives_on?: string | null;
  producer_ids?: string[] | null;
  species?: SpeciesEntry[] | null;
  note?: string | null;
}

export interface PlotSelectionInput {
  plot_ids?: string[];
  refs?: string[];
  producer_id?: string;
}

export interface AddPlotsAnswer {
  added: number;
  already_in: number;
  not_found: string[];
  n_not_found: number;
  n_plots: number;
}

const blankless = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim());

/** The stored form of the given fields, each checked by its rule; producer ids must name producers of the workspace. */
async function fieldsOf(em: Em, workspaceId: string, input: ShipmentInput): Promise<Partial<ShipmentFields>> {
  const hs = blankless(input.hs_code);
  const destination = blankless(input.destination_country);
  const border = blankless(input.border_cross_country);
  const unitType = blankless(input.supplementary_unit_type);
  const producerIds = input.producer_ids === undefined ? undefined : [...new Set((input.producer_ids ?? []).map((id) => id.toLowerCase()))];
  if (producerIds !== undefined && producerIds.length > 0) {
    const known = producerIds.every((id) => isUuid(id)) ? await knownProducerIds(em, workspaceId, producerIds) : new Set<string>();
    const unknown = producerIds.find((id) => !known.has(id));
    if (unknown !== undefined) throw notFound('producer', unknown);
  }
  return {
    reference: input.reference === undefined ? undefined : shipmentReference(input.reference),
    commodity: blankless(input.commodity),
    description_of_goods: blankless(input.description_of_goods),
    hs_code: hs === undefined || hs === null ? hs : hsCode(hs),
    quantity: input.quantity,
    unit: input.unit,
    net_mass_kg: input.net_mass_kg,
    supplementary_unit: input.supplementary_unit,
    supplementary_unit_type: unitType === undefined || unitType === null ? unitType : supplementaryUnitType(unitType),
    destination_country: destination === undefined || destination === null ? destination : destinationCountry(destination),
    border_cross_country: border === undefined || border === null ? border : borderCrossCountry(border),
    activity_type: input.activity_type,
    shipped_on: input.shipped_on,
    arrives_on: input.arrives_on,
    producer_ids: producerIds,
    species: input.species === undefined ? undefined : input.species === null ? null : parseSpecies(input.species),
    note: blankless(input.note),
  };
}

async function answerOf(em: Em, workspaceId: string, records: ShipmentRecord[]): Promise<ShipmentAnswer[]> {
  const counts = await batchCounts(em, workspaceId, records.map((r) => r.id));
  return records.map((r) => ({
    ...r,
    species: r.species as Species[] | null,
    wood: isWood(r.commodity, r.hs_code),
    counts: counts.get(r.id)!,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

/** One shipment of the workspace; not_found otherwise. */
export async function shipmentOf(em: Em, workspaceId: string, id: string): Promise<ShipmentRecord> {
  const record = await shipmentRecord(em, workspaceId, id.toLowerCase());
  if (record === null) throw notFound('shipment', id);
  return record;
}

async function uniquely<T>(reference: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException && reference !== undefined) throw duplicateReference('shipment', reference);
    throw error;
  }
}

export async function listShipments(em: Em, workspaceId: string): Promise<ShipmentAnswer[]> {
  return answerOf(em, workspaceId, await shipmentRecords(em, workspaceId));
}

export async function shipmentDetail(em: Em, workspaceId: string, id: string): Promise<ShipmentDetail> {
  const record = await shipmentOf(em, workspaceId, id);
  const [answer] = await answerOf(em, workspaceId, [record]);
  const plots = (await registerRows(em, workspaceId, await shipmentPlotIds(em, record.id))).map(rowOf);
  return { ...answer, plots, producers: await batchProducers(em, workspaceId, record.id, record.producer_ids) };
}

/** Creates a shipment with the plots the body names (as the add route takes them). */
export async function createShipment(em: Em, workspaceId: string, input: ShipmentInput & PlotSelectionInput): Promise<ShipmentDetail & { plots_added: AddPlotsAnswer | null }> {
  const fields = await fieldsOf(em, workspaceId, input);
  checkDates(fields.shipped_on ?? null, fields.arrives_on ?? null);
  const selects = input.plot_ids !== undefined || input.refs !== undefined || input.producer_id !== undefined;
  const selection = selects ? await selectionOf(em, workspaceId, input) : null;
  const record = await uniquely(fields.reference, () => em.transactional(async (tx) => {
    const created = await insertShipment(tx, workspaceId, {
      reference: fields.reference!,
      commodity: fields.commodity ?? null,
      description_of_goods: fields.description_of_goods ?? null,
      hs_code: fields.hs_code ?? null,
      quantity: fields.quantity ?? null,
      unit: fields.unit ?? null,
      net_mass_kg: fields.net_mass_kg ?? null,
      supplementary_unit: fields.supplementary_unit ?? null,
      supplementary_unit_type: fields.supplementary_unit_type ?? null,
      destination_country: fields.destination_country ?? null,
      border_cross_country: fields.border_cross_country ?? null,
      activity_type: fields.activity_type ?? 'IMPORT',
      shipped_on: fields.shipped_on ?? null,
      arrives_on: fields.arrives_on ?? null,
      producer_ids: fields.producer_ids ?? [],
      species: fields.species ?? null,
      note: fields.note ?? null,
    });
    if (selection !== null) await addShipmentPlots(tx, workspaceId, created.id, selection.ids);
    return created;
  }));
  const added = selection === null ? null : { added: selection.ids.length, already_in: 0, not_found: selection.notFound, n_not_found: selection.notFound.length, n_plots: selection.ids.length };
  return { ...(await shipmentDetail(em, workspaceId, record.id)), plots_added: added };
}

/** Changes any field; the dates are checked against the stored ones. */
export async function changeShipment(em: Em, workspaceId: string, id: string, input: ShipmentInput): Promise<ShipmentDetail> {
  const record = await shipmentOf(em, workspaceId, id);
  const fields = await fieldsOf(em, workspaceId, input);
  checkDates(fields.shipped_on === undefined ? record.shipped_on : fields.shipped_on, fields.arrives_on === undefined ? record.arrives_on : fields.arrives_on);
  await uniquely(fields.reference, () => updateShipment(em, workspaceId, record.id, fields));
  return shipmentDetail(em, workspaceId, record.id);
}

/** Deletes the batch; the alert monitors watching it stop in the same transaction, and their cases stay on the queue. */
export async function deleteShipment(em: Em, workspaceId: string, id: string): Promise<void> {
  const record = await shipmentOf(em, workspaceId, id);
  await em.transactional(async (tx) => {
    await deleteShipmentRow(tx, workspaceId, record.id, await frozenStatements(tx, workspaceId, record));
    await stopShipmentMonitors(tx, workspaceId, record.id);
  });
}

async function selectionOf(em: Em, workspaceId: string, input: PlotSelectionInput): Promise<{ ids: string[]; notFound: string[] }> {
  const plotIds = input.plot_ids ?? [];
  const refs = input.refs ?? [];
  const producerId = input.producer_id ?? null;
  if (plotIds.length + refs.length === 0 && producerId === null) {
    throw noPlots('Name the plots to add: plot_ids, refs (your plot references) or producer_id, together if you wish.');
  }
  if (plotIds.length + refs.length > MAX_PLOTS_PER_ADD) throw tooManyPlotsInCall(MAX_PLOTS_PER_ADD);
  if (producerId !== null && (!isUuid(producerId) || (await knownProducerIds(em, workspaceId, [producerId.toLowerCase()])).size === 0)) {
    throw notFound('producer', producerId);
  }
  const selection = await selectPlots(em, workspaceId, { plotIds, refs, producerId: producerId?.toLowerCase() ?? null });
  if (selection.ids.length > MAX_PLOTS_PER_ADD) throw tooManyPlotsInCall(MAX_PLOTS_PER_ADD);
  return selection;
}

/** Puts plots on the batch by id, reference and producer; unknown ids and references are listed, never guessed. */
export async function addPlots(em: Em, workspaceId: string, id: string, input: PlotSelectionInput): Promise<AddPlotsAnswer> {
  const record = await shipmentOf(em, workspaceId, id);
  const selection = await selectionOf(em, workspaceId, input);
  const added = await addShipmentPlots(em, workspaceId, record.id, selection.ids);
  const counts = (await batchCounts(em, workspaceId, [record.id])).get(record.id)!;
  return { added, already_in: selection.ids.length - added, not_found: selection.notFound, n_not_found: selection.notFound.length, n_plots: counts.plots };
}

/** Takes plots off the batch; they stay in the register and in other batches. */
export async function removePlots(em: Em, workspaceId: string, id: string, plotIds: string[]): Promise<{ removed: number; n_plots: number }> {
  const record = await shipmentOf(em, workspaceId, id);
  if (plotIds.length === 0) throw noPlots('plot_ids is empty: name the plots to take off the batch.');
  if (plotIds.length > MAX_PLOTS_PER_ADD) throw tooManyPlotsInCall(MAX_PLOTS_PER_ADD);
  const removed = await removeShipmentPlots(em, record.id, plotIds.filter(isUuid).map((p) => p.toLowerCase()));
  const counts = (await batchCounts(em, workspaceId, [record.id])).get(record.id)!;
  return { removed, n_plots: counts.plots };
}

/** Takes one plot off the batch; not_found when it is not on it. */
export async function removePlot(em: Em, workspaceId: string, id: string, plotId: string): Promise<{ removed: number; n_plots: number }> {
  const answer = await removePlots(em, workspaceId, id, [plotId]);
  if (answer.removed === 0) throw notFound('plot on this shipment:', plotId);
  return answer;
}
