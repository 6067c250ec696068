/**
 * The API process's threads for the CPU work of requests, one pool per purpose: the event loop does
 * only I/O, persistence and signing, while PDFs render, uploads are judged and alert pixels are
 * clustered on these.
 */
import { createAlertPool, type AlertPool } from '../alerts/pool.ts';
import type { Config } from '../config.ts';
import { createDocumentPool, type DocumentPool } from '../documents/pool.ts';
import { createIntakePool, type IntakePool } from '../intake/pool.ts';

export interface RequestPools {
  documents: DocumentPool;
  intake: IntakePool;
  alerts: AlertPool;
  close(): Promise<void>;
}

export function openRequestPools(config: Config): RequestPools {
  const documents = createDocumentPool(config.documentPoolSize);
  const intake = createIntakePool(config.intakePoolSize, config.intakeQueue, config.intakeCaps, config.intakeFileBudgetMs);
  const alerts = createAlertPool(config.alertPoolSize);
  return {
    documents,
    intake,
    alerts,
    async close() {
      await Promise.all([documents.close(), intake.close(), alerts.close()]);
    },
  };
}
