/**
 * Every statement over shipments, their plots and stored statements (spec 4.9): the rows, the counts
 * per batch, membership, the plots a statement files, and the batches a finished read completes.
 */
import { randomUUID } from 'node:crypto';
import { Shipment, Statement, type ActivityType, type ShipmentUnit } from '../entities/index.ts';
import { isUuid } from '../ids.ts';
import type { Em } from '../orm.ts';
import { READABLE } from './evidence.ts';
import type { PlotWithBoundary } from './plots.ts';
import { postCutoffLoss } from './stored-json.ts';

/** The caller's fields of a shipment, as stored. */
export interface ShipmentFields {
  reference: string;
  commodity: string | null;
  description_of_goods: string | null;
  hs_code: string | null;
  quantity: number | null;
  unit: ShipmentUnit | null;
  net_mass_kg: number | null;
  supplementary_unit: number | null;
  supplementary_unit_type: string | null;
  destination_country: string | null;
  border_cross_country: string | null;
  activity_type: ActivityType;
  shipped_on: string | null;
  arrives_on: string | null;
  producer_ids: string[];
  species: object | null;
  note: string | null;
}

export interface ShipmentRecord extends ShipmentFields {
  id: string;
  created_at: Date;
  updated_at: Date;
}

/** How a batch's plots stand (spec 4.9's list). */
export interface BatchCounts {
  plots: number;
  read: number;
  with_finding: number;
  withheld: number;
  not_read: number;
  failed: number;
}

const POSITIVE = `'prior_management_evidenced'`;

const COUNT_COLUMNS = `count(p.id) as plots,
  count(p.id) filter (where p.evidence_state = 'done') as read,
  count(p.id) filter (where p.evidence_state = 'done' and p.verdict = ${POSITIVE}) as with_finding,
  count(p.id) filter (where p.evidence_state = 'done' and p.verdict is distinct from ${POSITIVE}) as withheld,
  count(p.id) filter (where p.evidence_state in ('none', 'queued', 'running')) as not_read,
  count(p.id) filter (where p.evidence_state = 'failed') as failed`;

type CountRow = Record<keyof BatchCounts, number | string>;
const countsOf = (r: CountRow): BatchCounts => ({
  plots: Number(r.plots),
  read: Number(r.read),
  with_finding: Number(r.with_finding),
  withheld: Number(r.withheld),
  not_read: Number(r.not_read),
  failed: Number(r.failed),
});

function recordOf(s: Shipment): ShipmentRecord {
  return {
    id: s.id,
    reference: s.reference,
    commodity: s.commodity ?? null,
    description_of_goods: s.descriptionOfGoods ?? null,
    hs_code: s.hsCode ?? null,
    quantity: s.quantity === null || s.quantity === undefined ? null : Number(s.quantity),
    unit: s.unit ?? null,
    net_mass_kg: s.netMassKg === null || s.netMassKg === undefined ? null : Number(s.netMassKg),
    supplementary_unit: s.supplementaryUnit === null || s.supplementaryUnit === undefined ? null : Number(s.supplementaryUnit),
    supplementary_unit_type: s.supplementaryUnitType ?? null,
    destination_country: s.destinationCountry ?? null,
    border_cross_country: s.borderCrossCountry ?? null,
    activity_type: s.activityType,
    shipped_on: s.shippedOn ?? null,
    arrives_on: s.arrivesOn ?? null,
    producer_ids: s.producerIds,
    species: s.species ?? null,
    note: s.note ?? null,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

const columnsOf = (f: Partial<ShipmentFields>) => ({
  ...(f.reference !== undefined && { reference: f.reference }),
  ...(f.commodity !== undefined && { commodity: f.commodity }),
  ...(f.description_of_goods !== undefined && { descriptionOfGoods: f.description_of_goods }),
  ...(f.hs_code !== undefined && { hsCode: f.hs_code }),
  ...(f.quantity !== undefined && { quantity: f.quantity }),
  ...(f.unit !== undefined && { unit: f.unit }),
  ...(f.net_mass_kg !== undefined && { netMassKg: f.net_mass_kg }),
  ...(f.supplementary_unit !== undefined && { supplementaryUnit: f.supplementary_unit }),
  ...(f.supplementary_unit_type !== undefined && { supplementaryUnitType: f.supplementary_unit_type }),
  ...(f.destination_country !== undefined && { destinationCountry: f.destination_country }),
  ...(f.border_cross_country !== undefined && { borderCrossCountry: f.border_cross_country }),
  ...(f.activity_type !== undefined && { activityType: f.activity_type }),
  ...(f.shipped_on !== undefined && { shippedOn: f.shipped_on }),
  ...(f.arrives_on !== undefined && { arrivesOn: f.arrives_on }),
  ...(f.producer_ids !== undefined && { producerIds: f.producer_ids }),
  ...(f.species !== undefined && { species: f.species }),
  ...(f.note !== undefined && { note: f.note }),
});

/** Stores a new shipment; the unique index refuses a second reference (UniqueConstraintViolationException). */
export async function insertShipment(em: Em, workspaceId: string, fields: ShipmentFields): Promise<ShipmentRecord> {
  const s = em.create(Shipment, { id: randomUUID(), workspaceId, ...columnsOf(fields) } as never) as Shipment;
  await em.flush();
  return recordOf(s);
}

/** One shipment; null outside the workspace or for text that is no id. */
export async function shipmentRecord(em: Em, workspaceId: string, id: string): Promise<ShipmentRecord | null> {
  if (!isUuid(id)) return null;
  const s = await em.findOne(Shipment, { id, workspaceId });
  return s === null ? null : recordOf(s);
}

/** The workspace's shipments in creation order. */
export async function shipmentRecords(em: Em, workspaceId: string): Promise<ShipmentRecord[]> {
  return (await em.find(Shipment, { workspaceId }, { orderBy: { seq: 'asc' } })).map(recordOf);
}

/** Changes the given fields; false when no such shipment. */
export async function updateShipment(em: Em, workspaceId: string, id: string, fields: Partial<ShipmentFields>): Promise<boolean> {
  const s = await em.findOne(Shipment, { id, workspaceId });
  if (s === null) return false;
  em.assign(s, { ...columnsOf(fields), updatedAt: new Date() } as never);
  await em.flush();
  return true;
}

/**
 * Removes the batch and its membership rows; its plots and statements stay: a statement keeps no
 * shipment, and keeps the facts `frozen` gives it (by statement id), which it is served from.
 */
export async function deleteShipment(em: Em, workspaceId: string, id: string, frozen: { id: string; facts: object }[]): Promise<boolean> {
  return em.transactional(async (tx) => {
    const gone = await tx.execute('delete from shipments where id = ? and workspace_id = ?', [id, workspaceId], 'run');
    if (Number((gone as { affectedRows?: number }).affectedRows ?? 0) === 0) return false;
    await tx.execute('delete from shipment_plots where shipment_id = ?', [id], 'run');
    for (const f of frozen) await tx.execute('update statements set facts = ?::jsonb where id = ? and shipment_id = ?', [JSON.stringify(f.facts), f.id, id], 'run');
    await tx.execute('update statements set shipment_id = null, updated_at = now() where shipment_id = ?', [id], 'run');
    return true;
  });
}

/** Counts per batch for the named shipments (a batch with no plot counts zeros). */
export async function batchCounts(em: Em, workspaceId: string, shipmentIds: string[]): Promise<Map<string, BatchCounts>> {
  const rows = await em.execute<(CountRow & { shipment_id: string })[]>(
    `select sp.shipment_id, ${COUNT_COLUMNS} from shipment_plots sp join plots p on p.id = sp.plot_id
      where sp.workspace_id = ? and sp.shipment_id = any(?::uuid[]) group by sp.shipment_id`,
    [workspaceId, `{${shipmentIds.join(',')}}`],
  );
  const zero = countsOf({ plots: 0, read: 0, with_finding: 0, withheld: 0, not_read: 0, failed: 0 });
  const counts = new Map(shipmentIds.map((id) => [id, zero]));
  for (const r of rows) counts.set(r.shipment_id, countsOf(r));
  return counts;
}

/** The batch's plot ids in the order they were added. */
export async function shipmentPlotIds(em: Em, shipmentId: string): Promise<string[]> {
  const rows = await em.execute<{ plot_id: string }[]>('select plot_id from shipment_plots where shipment_id = ? order by seq', [shipmentId]);
  return rows.map((r) => r.plot_id);
}

/** SQL: the plot `p` has a boundary that can be read and filed. */
export const FILEABLE = `(p.geometry is not null and p.validation_state not in ('rejected', 'pending'))`;

/** SQL narrowing `p` (plots) to one shipment's plots; its one parameter is the shipment id. */
export const ON_SHIPMENT = 'p.id in (select sp.plot_id from shipment_plots sp where sp.shipment_id = ?)';

export interface PlotSelection {
  plotIds: string[];
  refs: string[];
  producerId: string | null;
}

/** The workspace's plots the selection names, and the ids and references that name none. */
export async function selectPlots(em: Em, workspaceId: string, selection: PlotSelection): Promise<{ ids: string[]; notFound: string[] }> {
  const ids = selection.plotIds.filter(isUuid).map((id) => id.toLowerCase());
  const rows = await em.execute<{ id: string; external_ref: string | null }[]>(
    `select p.id, p.external_ref from plots p where p.workspace_id = ?
      and (p.id = any(?::uuid[]) or p.external_ref in (select jsonb_array_elements_text(?::jsonb)) or p.producer_id = ?::uuid) order by p.seq`,
    [workspaceId, `{${ids.join(',')}}`, JSON.stringify(selection.refs), selection.producerId],
  );
  const foundIds = new Set(rows.map((r) => r.id));
  const foundRefs = new Set(rows.map((r) => r.external_ref));
  const notFound = [
    ...selection.plotIds.filter((id) => !foundIds.has(id.toLowerCase())),
    ...selection.refs.filter((ref) => !foundRefs.has(ref)),
  ];
  return { ids: rows.map((r) => r.id), notFound };
}

/** Puts the plots on the batch in the given order; answers how many were new to it. */
export async function addShipmentPlots(em: Em, workspaceId: string, shipmentId: string, plotIds: string[]): Promise<number> {
  if (plotIds.length === 0) return 0;
  const added = await em.execute(
    `insert into shipment_plots (shipment_id, plot_id, workspace_id)
      select ?, ids.id, ? from unnest(?::uuid[]) with ordinality as ids(id, n) order by ids.n
      on conflict do nothing`,
    [shipmentId, workspaceId, `{${plotIds.join(',')}}`],
    'run',
  );
  return Number((added as { affectedRows?: number }).affectedRows ?? 0);
}

/** Takes the plots off the batch; answers how many were on it. */
export async function removeShipmentPlots(em: Em, shipmentId: string, plotIds: string[]): Promise<number> {
  const gone = await em.execute('delete from shipment_plots where shipment_id = ? and plot_id = any(?::uuid[])', [shipmentId, `{${plotIds.join(',')}}`], 'run');
  return Number((gone as { affectedRows?: number }).affectedRows ?? 0);
}

/** A plot as a statement files it. */
export type FilingPlot = Pick<PlotWithBoundary, 'id' | 'external_ref' | 'commodity' | 'country' | 'area_ha' | 'declared_area_ha' | 'validation_state' | 'geometry' | 'producer_id' | 'producer_name'> & {
  producer_country: string | null;
};

/**
 * The batch's plots with their boundaries and producers, in the order they were added. A boundary is
 * written only by an import, after intake validated it; it is not checked again here, where a batch
 * of 10,000 plots would hold the event loop for a tenth of a second doing so.
 */
export async function filingPlots(em: Em, shipmentId: string): Promise<FilingPlot[]> {
  return em.execute<FilingPlot[]>(
    `select p.id, p.external_ref, p.commodity, p.country, p.area_ha, p.declared_area_ha, p.validation_state, p.geometry,
        p.producer_id, pr.name as producer_name, pr.country as producer_country
       from shipment_plots sp join plots p on p.id = sp.plot_id left join producers pr on pr.id = p.producer_id
      where sp.shipment_id = ? order by sp.seq`,
    [shipmentId],
  );
}

/**
 * Up to `size` of a batch's filing plots after batch position `afterSeq`, each as the JSON text of a
 * FilingPlot made by the database: the boundaries pass through the API's thread as text, never parsed
 * there, and are read on the documents thread that lays out the statement page.
 */
export async function filingPlotsPage(em: Em, shipmentId: string, afterSeq: number, size: number): Promise<{ seq: number; json: string }[]> {
  const rows = await em.execute<{ seq: number | string; json: string }[]>(
    `select sp.seq, json_build_object('id', p.id, 'external_ref', p.external_ref, 'commodity', p.commodity, 'country', p.country,
        'area_ha', p.area_ha, 'declared_area_ha', p.declared_area_ha, 'validation_state', p.validation_state, 'geometry', p.geometry,
        'producer_id', p.producer_id, 'producer_name', pr.name, 'producer_country', pr.country)::text as json
       from shipment_plots sp join plots p on p.id = sp.plot_id left join producers pr on pr.id = p.producer_id
      where sp.shipment_id = ? and sp.seq > ? order by sp.seq limit ?`,
    [shipmentId, afterSeq, size],
  );
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** A plot of a batch (by its ids, in their order; a plot since deleted is left out) with what its served evidence says beside the verdict: loss after the cutoff, and whether it was read from the demo archive. */
export interface BatchEvidenceRow {
  id: string;
  external_ref: string | null;
  evidence_state: string;
  verdict: string | null;
  post_cutoff_loss: { share: number; area_ha: number; years: number[] } | null;
  synthetic: boolean | null;
}

/** The batch's plots in the order they were added, each with its served evidence's loss and synthetic flag (null while none is served). */
export async function batchEvidence(em: Em, workspaceId: string, plotIds: readonly string[]): Promise<BatchEvidenceRow[]> {
  const rows = await em.execute<(Omit<BatchEvidenceRow, 'post_cutoff_loss'> & { post_cutoff_loss: unknown })[]>(
    `select p.id, p.external_ref, p.evidence_state, p.verdict, e.object -> 'post_cutoff_loss' as post_cutoff_loss, (e.object ->> 'synthetic')::boolean as synthetic
       from unnest(?::uuid[]) with ordinality as ids(id, n) join plots p on p.id = ids.id and p.workspace_id = ?
       left join evidence e on e.plot_id = p.id and e.current and p.evidence_state = 'done'
      order by ids.n`,
    [`{${plotIds.join(',')}}`, workspaceId],
  );
  return rows.map((r) => ({ ...r, post_cutoff_loss: postCutoffLoss.parse(r.post_cutoff_loss ?? null) }));
}

/** A producer named on a batch, by its plots or by the batch itself. */
export interface BatchProducer {
  id: string;
  name: string;
  reference: string | null;
  country: string | null;
  /** The batch's plots attached to it. */
  plots: number;
}

export async function batchProducers(em: Em, workspaceId: string, shipmentId: string, namedIds: string[]): Promise<BatchProducer[]> {
  const rows = await em.execute<(Omit<BatchProducer, 'plots'> & { plots: number | string })[]>(
    `select pr.id, pr.name, pr.reference, pr.country,
        (select count(*) from shipment_plots sp join plots p on p.id = sp.plot_id where sp.shipment_id = ? and p.producer_id = pr.id) as plots
       from producers pr where pr.workspace_id = ?
        and (pr.id = any(?::uuid[]) or pr.id in (select p.producer_id from shipment_plots sp join plots p on p.id = sp.plot_id where sp.shipment_id = ?))
      order by pr.key, pr.id`,
    [shipmentId, workspaceId, `{${namedIds.join(',')}}`, shipmentId],
  );
  return rows.map((r) => ({ ...r, plots: Number(r.plots) }));
}

/** The producers of the workspace among `ids`. */
export async function knownProducerIds(em: Em, workspaceId: string, ids: string[]): Promise<Set<string>> {
  const rows = await em.execute<{ id: string }[]>('select id from producers where workspace_id = ? and id = any(?::uuid[])', [workspaceId, `{${ids.join(',')}}`]);
  return new Set(rows.map((r) => r.id));
}

/** A batch a finished read completed, with what `batch.completed` reports. */
export interface CompletedBatch {
  id: string;
  reference: string;
  commodity: string | null;
  counts: BatchCounts;
}

/**
 * The batches holding any of `plotIds` on which no plot that can be read waits for a finished read
 * (done or failed), each once. Called in the transaction that finishes the plots' reads, after their
 * rows are written, so the last plots read, and any plot read again later, complete the batch once.
 */
export async function batchesCompletedBy(tx: Em, workspaceId: string, plotIds: readonly string[]): Promise<CompletedBatch[]> {
  const rows = await tx.execute<(CountRow & { id: string; reference: string; commodity: string | null; waiting: number | string })[]>(
    `select s.id, s.reference, s.commodity, ${COUNT_COLUMNS},
        -- READABLE's columns are the plots' own: no other table joined here has them.
        count(p.id) filter (where p.evidence_state in ('none', 'queued', 'running') and ${READABLE}) as waiting
       from shipments s join shipment_plots sp on sp.shipment_id = s.id join plots p on p.id = sp.plot_id
      where s.workspace_id = ? and s.id in (select shipment_id from shipment_plots where plot_id = any(?::uuid[]))
      group by s.id, s.reference, s.commodity order by s.seq`,
    [workspaceId, `{${plotIds.join(',')}}`],
  );
  return rows.filter((r) => Number(r.waiting) === 0).map((r) => ({ id: r.id, reference: r.reference, commodity: r.commodity, counts: countsOf(r) }));
}

/** A stored statement as kept. */
export interface StatementRecord {
  id: string;
  shipment_id: string | null;
  internal_reference: string;
  species: object | null;
  represented_operator: object | null;
  geolocation_confidential: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A statement's fields as the caller sets them. */
export interface StatementFields {
  internal_reference: string;
  species: object | null;
  represented_operator: object | null;
  geolocation_confidential: boolean;
}

const statementOf = (s: Statement): StatementRecord => ({
  id: s.id,
  shipment_id: s.shipmentId ?? null,
  internal_reference: s.internalReference,
  species: s.species ?? null,
  represented_operator: s.representedOperator ?? null,
  geolocation_confidential: s.geolocationConfidential,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

/** Stores a statement; the unique index refuses a second reference (UniqueConstraintViolationException). */
export async function insertStatement(em: Em, workspaceId: string, fields: StatementFields & { shipment_id: string }): Promise<StatementRecord> {
  const s = em.create(Statement, {
    id: randomUUID(), workspaceId, shipmentId: fields.shipment_id, internalReference: fields.internal_reference, species: fields.species,
    representedOperator: fields.represented_operator, geolocationConfidential: fields.geolocation_confidential,
  } as never) as Statement;
  await em.flush();
  return statementOf(s);
}

export async function statementRecord(em: Em, workspaceId: string, id: string): Promise<StatementRecord | null> {
  const s = await em.findOne(Statement, { id, workspaceId });
  return s === null ? null : statementOf(s);
}

/** The statements stored from one shipment. */
export async function shipmentStatements(em: Em, workspaceId: string, shipmentId: string): Promise<StatementRecord[]> {
  return (await em.find(Statement, { workspaceId, shipmentId }, { orderBy: { seq: 'asc' } })).map(statementOf);
}

/** The facts a statement was frozen with when its shipment was deleted; null while it has one (or was left without them). */
export async function frozenFacts(em: Em, workspaceId: string, id: string): Promise<object | null> {
  const [row] = await em.execute<{ facts: object | null }[]>('select facts from statements where id = ? and workspace_id = ?', [id, workspaceId]);
  return row?.facts ?? null;
}

export async function statementRecords(em: Em, workspaceId: string): Promise<StatementRecord[]> {
  return (await em.find(Statement, { workspaceId }, { orderBy: { seq: 'asc' } })).map(statementOf);
}

export async function updateStatement(em: Em, workspaceId: string, id: string, fields: Partial<StatementFields>): Promise<boolean> {
  const s = await em.findOne(Statement, { id, workspaceId });
  if (s === null) return false;
  em.assign(s, {
    ...(fields.internal_reference !== undefined && { internalReference: fields.internal_reference }),
    ...(fields.species !== undefined && { species: fields.species }),
    ...(fields.represented_operator !== undefined && { representedOperator: fields.represented_operator }),
    ...(fields.geolocation_confidential !== undefined && { geolocationConfidential: fields.geolocation_confidential }),
    updatedAt: new Date(),
  } as never);
  await em.flush();
  return true;
}

