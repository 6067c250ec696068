/**
 * The API process's pool for documents: each PDF is rendered on one of its threads from the stored
 * evidence (plain JSON and the stored map), and only the bytes come back. Threads start on the
 * first render and stop after a minute idle, so an API that renders nothing holds none. Requests
 * beyond the threads wait in the pool's queue, up to QUEUE_PER_THREAD a thread.
 */
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import { createPool, PoolError } from '../engine/worker/pool.ts';
import { busy } from '../errors.ts';
import type { ComplianceDocumentInput } from './compliance-pdf.ts';
import type { EvidenceDocumentInput, EvidenceDocumentOptions } from './evidence-pdf.ts';
import type { ReportPage, ReportQuestion, ShipmentReportTask } from './shipment-report.ts';
import type { DocumentTasks } from './render-task.ts';
import { portReadable } from './render-channel.ts';
import type { StatementResult, StatementTask } from '../statements/statement-task.ts';

/** A waiting render holds only its stored evidence (tens to hundreds of KB), so bursts of requests may queue deep. */
const QUEUE_PER_THREAD = 64;

export interface DocumentPool {
  evidencePdf(input: EvidenceDocumentInput, options: EvidenceDocumentOptions): Promise<Buffer>;
  compliancePdf(input: ComplianceDocumentInput, options: EvidenceDocumentOptions): Promise<Buffer>;
  /** A due diligence statement built and schema-checked (src/statements/statement-task.ts). */
  statement(task: StatementTask): Promise<StatementResult>;
  /** The report's bytes as the thread writes them, once the first have come, its rows read by `page` as the thread asks (render-channel.ts). */
  shipmentReportPdf(task: ShipmentReportTask, page: (question: ReportQuestion) => Promise<ReportPage>): Promise<Readable>;
  close(): Promise<void>;
}

export function createDocumentPool(size: number): DocumentPool {
  const pool = createPool<DocumentTasks>({
    size,
    minThreads: 0,
    maxQueue: QUEUE_PER_THREAD * size,
    filename: new URL('./render-task.ts', import.meta.url),
    name: 'documents',
  });
  const full = (error: unknown): never => {
    if (error instanceof PoolError && error.code === 'pool_full') throw busy('As many documents as the service renders at once are waiting; ask again shortly.', 5);
    throw error;
  };
  const render = async <T extends 'evidence' | 'compliance'>(task: T, params: DocumentTasks[T]['params']): Promise<Buffer> => {
    const pdf = await pool.run(task, params).catch(full);
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  };
  return {
    evidencePdf: (input, options) => render('evidence', { input, options }),
    compliancePdf: (input, options) => render('compliance', { input, options }),
    statement: (task) => pool.run('statement', task).catch(full),
    shipmentReportPdf(task, page) {
      const { port1, port2 } = new MessageChannel();
      return portReadable(port1, pool.run('shipmentReport', { ...task, out: port2 }, { transferList: [port2] }).catch(full), (q) => page(q as ReportQuestion));
    },
    close: () => pool.close(),
  };
}
