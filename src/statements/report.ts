/**
 * The shipment report's facts, gathered from the batch and the register on the main thread; the
 * document is laid out and rendered on a documents thread (src/documents/shipment-report.ts).
 * A batch may hold 100,000 plots: its rows are read a page at a time, the event loop turning between
 * pages, and cross to the thread as pages of JSON text rather than as one structured clone.
 */
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { caseRecord } from '../alerts/monitors.ts';
import type { DocumentPool } from '../documents/pool.ts';
import type { ReportPlot, ShipmentReportTask } from '../documents/shipment-report.ts';
import type { ReasonCode, Verdict } from '../engine/decide.ts';
import { nextStep } from '../engine/next-step.ts';
import { rowOf } from '../intake/register.ts';
import type { Em } from '../store/orm.ts';
import { openCasesOnShipment } from '../store/register/alert-queue.ts';
import { shipmentRowsPage } from '../store/register/plots.ts';
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

/** A query's answer, the loop turning once it is in (see keysetPages). */
async function turnAfter<T>(query: Promise<T>): Promise<T> {
  const answer = await query;
  await nextTurn();
  return answer;
}

/**
 * Every page `read` gives after a keyset position, in order, the event loop turning after each read
 * and after each page's use: on PGlite a query and the work on its rows would otherwise share one turn.
 */
async function* keysetPages<T extends { seq: number }>(read: (afterSeq: number) => Promise<T[]>): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const page = await turnAfter(read(after));
    if (page.length > 0) yield page;
    if (page.length < REPORT_PAGE_ROWS) return;
    after = page[page.length - 1].seq;
    await nextTurn();
  }
}

export async function shipmentReportInput(em: Em, workspaceId: string, shipmentId: string, baseUrl: string): Promise<ShipmentReportTask> {
  const shipment = await shipmentOf(em, workspaceId, shipmentId);
  // The statement page's plots are the batch's in batch order; the table's, the register's in register order.
  const filingPages: string[] = [];
  const readable = new Set<string>();
  for await (const page of keysetPages((after) => filingPlotsPage(em, shipment.id, after, REPORT_PAGE_ROWS))) {
    filingPages.push(`[${page.map((p) => p.json).join(',')}]`);
    for (const p of page) if (p.readable) readable.add(p.id);
  }
  const plotPages: string[] = [];
  const warningPages: string[] = [];
  for await (const page of keysetPages((after) => shipmentRowsPage(em, workspaceId, shipment.id, after, REPORT_PAGE_ROWS))) {
    plotPages.push(JSON.stringify(page.map(({ record }): ReportPlot => {
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
        next_step: nextStep({ evidence_state: r.evidence_state, verdict: r.verdict as Verdict | null, area_ha: r.area_ha, readable: readable.has(r.id) }),
        post_cutoff_loss_share: r.post_cutoff_loss_share,
      };
    })));
    warningPages.push(JSON.stringify((await batchWarnings(em, workspaceId, page.map(({ record }) => record.id))).warnings));
  }
  const counts = (await turnAfter(batchCounts(em, workspaceId, [shipment.id]))).get(shipment.id)!;
  const openCases = (await turnAfter(openCasesOnShipment(em, workspaceId, shipment.id))).map(caseRecord);
  return {
    shipment: { id: shipment.id, reference: shipment.reference, shipped_on: shipment.shipped_on, arrives_on: shipment.arrives_on, note: shipment.note },
    counts,
    plotPages,
    openCases,
    warningPages,
    statement: await batchFacts(em, workspaceId, shipment, shipment.reference, null),
    filingPages,
    generatedAt: new Date().toISOString(),
    baseUrl,
  };
}

/** The shipment report's PDF bytes as they are written. */
export async function shipmentReport(deps: ReportDeps, workspaceId: string, shipmentId: string): Promise<Readable> {
  return deps.documents.shipmentReportPdf(await shipmentReportInput(deps.em, workspaceId, shipmentId, deps.baseUrl));
}
