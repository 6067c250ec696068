/**
 * The shipment report's facts, read from the batch and the register on the main thread; the
 * document is laid out and rendered on a documents thread (src/documents/shipment-report.ts).
 * A batch may hold 100,000 plots: the thread asks for its rows a page at a time as it writes, each
 * list once for each pass it makes, and each page crosses as JSON text rather than as a structured
 * clone. Neither thread holds the batch.
 */
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { caseRecord } from '../alerts/monitors.ts';
import type { DocumentPool } from '../documents/pool.ts';
import type { ReportPage, ReportPlot, ReportQuestion, ShipmentReportTask } from '../documents/shipment-report.ts';
import type { ReasonCode, Verdict } from '../engine/decide.ts';
import { nextStep } from '../engine/next-step.ts';
import { rowOf } from '../intake/register.ts';
import type { Em } from '../store/orm.ts';
import { openCasesOnShipment } from '../store/register/alert-queue.ts';
import { shipmentRowsPage, type ShipmentRow } from '../store/register/plots.ts';
import { batchCounts, filingPlotsPage } from '../store/register/shipments.ts';
import { shipmentOf } from './shipments.ts';
import { batchFacts } from './statement-facts.ts';
import { batchWarnings } from './statements.ts';

export interface ReportDeps {
  em: Em;
  documents: DocumentPool;
  baseUrl: string;
}

/**
 * Rows read at once. On PGlite the database runs on this thread and answers a query in one turn of
 * the loop: 2,000 rows with their boundaries held it 40 to 55 ms a query, so a page is 500 rows.
 */
export const REPORT_PAGE_ROWS = 500;

/** A query's answer, the loop turning once it is in: on PGlite a query and the work on its rows would otherwise share one turn. */
async function turnAfter<T>(query: Promise<T>): Promise<T> {
  const answer = await query;
  await nextTurn();
  return answer;
}

/** A register row of the batch as the report lists it. */
function reportPlot({ record, readable, evidence_error, reasons }: ShipmentRow): ReportPlot {
  const r = rowOf(record);
  return {
    id: r.id,
    external_ref: r.external_ref,
    area_ha: r.area_ha,
    producer_name: r.producer_name,
    evidence_state: r.evidence_state,
    verdict: r.verdict as Verdict | null,
    reason: r.reason as ReasonCode | null,
    state: r.state,
    // The register's own next step: a plot no archive covers checks its place, it is not read again.
    next_step: nextStep({ evidence_state: r.evidence_state, error: evidence_error, verdict: r.verdict as Verdict | null, reasons, area_ha: r.area_ha, readable }),
    post_cutoff_loss_share: r.post_cutoff_loss_share,
  };
}

const pageOf = (rows: { seq: number }[], text: string): ReportPage => ({ rows: text, next: rows.length < REPORT_PAGE_ROWS ? null : rows[rows.length - 1].seq });

/**
 * A page of one of the report's lists after a keyset position, as the documents thread asks for it:
 * the statement's plots in batch order; the plot table's rows and their evidence warnings in
 * register order.
 */
export async function reportPage(em: Em, workspaceId: string, shipmentId: string, { list, after }: ReportQuestion): Promise<ReportPage> {
  if (list === 'filing') {
    const page = await turnAfter(filingPlotsPage(em, shipmentId, after, REPORT_PAGE_ROWS));
    return pageOf(page, `[${page.map((p) => p.json).join(',')}]`);
  }
  const rows = await turnAfter(shipmentRowsPage(em, workspaceId, shipmentId, after, REPORT_PAGE_ROWS));
  if (list === 'plots') return pageOf(rows, JSON.stringify(rows.map(reportPlot)));
  return pageOf(rows, JSON.stringify((await batchWarnings(em, workspaceId, rows.map(({ record }) => record.id))).warnings));
}

/** What the report is made from beside its lists, which the documents thread reads with reportPage as it writes. */
export async function shipmentReportInput(em: Em, workspaceId: string, shipmentId: string, baseUrl: string): Promise<ShipmentReportTask> {
  const shipment = await shipmentOf(em, workspaceId, shipmentId);
  const counts = (await turnAfter(batchCounts(em, workspaceId, [shipment.id]))).get(shipment.id)!;
  const openCases = (await turnAfter(openCasesOnShipment(em, workspaceId, shipment.id))).map(caseRecord);
  return {
    shipment: { id: shipment.id, reference: shipment.reference, shipped_on: shipment.shipped_on, arrives_on: shipment.arrives_on, note: shipment.note },
    counts,
    openCases,
    statement: await batchFacts(em, workspaceId, shipment, shipment.reference, null),
    generatedAt: new Date().toISOString(),
    baseUrl,
  };
}

/** The shipment report's PDF bytes as they are written. */
export async function shipmentReport(deps: ReportDeps, workspaceId: string, shipmentId: string): Promise<Readable> {
  const input = await shipmentReportInput(deps.em, workspaceId, shipmentId, deps.baseUrl);
  return deps.documents.shipmentReportPdf(input, (question) => reportPage(deps.em, workspaceId, input.shipment.id, question));
}
