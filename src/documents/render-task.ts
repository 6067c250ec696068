/**
 * The documents pool's task entry: a PDF rendered on a worker thread, so that pdfmake and sharp
 * (a few hundred milliseconds a document) never hold the API's event loop. The closure is the
 * renderer's alone: no database, Koa or HTTP module is loaded here.
 */
import { Buffer } from 'node:buffer';
import { answerMoving, ownBuffer } from '../engine/worker/transfer.ts';
import { compliancePdf, type ComplianceDocumentInput } from './compliance-pdf.ts';
import { evidencePdf, type EvidenceDocumentInput, type EvidenceDocumentOptions } from './evidence-pdf.ts';
import type { StatementResult, StatementTask } from '../statements/statement-task.ts';
import type { MessagePort } from 'node:worker_threads';
import { shipmentReportPdf, type ShipmentReportTask } from './shipment-report.ts';
import { renderChannel } from './render-channel.ts';

export { statement } from '../statements/statement-task.ts';

export interface EvidencePdfTask {
  input: EvidenceDocumentInput;
  options: EvidenceDocumentOptions;
}

export interface CompliancePdfTask {
  input: ComplianceDocumentInput;
  options: EvidenceDocumentOptions;
}

/** The shipment report's task: it asks for its rows and sends its bytes through `out` (render-channel.ts). */
export interface ShipmentReportStream extends ShipmentReportTask {
  out: MessagePort;
}

export interface DocumentTasks {
  evidence: { params: EvidencePdfTask; result: Uint8Array };
  statement: { params: StatementTask; result: StatementResult };
  shipmentReport: { params: ShipmentReportStream; result: { pages: number; bytes: number } };
  compliance: { params: CompliancePdfTask; result: Uint8Array };
}

/** A Buffer arrives as a plain Uint8Array; the chip is read as the Buffer it was sent as. */
function withChipBuffer<I extends EvidenceDocumentInput>(input: I): I {
  const map = input.map && { ...input.map, chip: input.map.chip && { ...input.map.chip, png: Buffer.from(input.map.chip.png) } };
  return { ...input, map };
}

/** The evidence PDF of a stored wrapper; its bytes move back to the caller. */
export async function evidence({ input, options }: EvidencePdfTask): Promise<Uint8Array> {
  const pdf = ownBuffer(await evidencePdf(withChipBuffer(input), options));
  return answerMoving(pdf, [pdf]);
}

/** The compliance document of a studio boundary (cover, then the evidence document). */
export async function compliance({ input, options }: CompliancePdfTask): Promise<Uint8Array> {
  const pdf = ownBuffer(await compliancePdf(withChipBuffer(input), options));
  return answerMoving(pdf, [pdf]);
}

/** The shipment report of a batch, its rows asked for and its bytes sent through its port as its parts are written; its pages and bytes. */
export async function shipmentReport({ out, ...task }: ShipmentReportStream): Promise<{ pages: number; bytes: number }> {
  try {
    return await shipmentReportPdf(task, renderChannel(out));
  } finally {
    out.close();
  }
}
