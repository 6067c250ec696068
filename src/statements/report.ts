/**
 * The shipment report's facts, gathered from the batch and the register on the main thread; the
 * document is laid out and rendered on a documents thread (src/documents/shipment-report.ts).
 */
import { caseRecord } from '../alerts/monitors.ts';
import type { DocumentPool } from '../documents/pool.ts';
import type { ShipmentReportInput } from '../documents/shipment-report.ts';
import type { ReasonCode, Verdict } from '../engine/decide.ts';
import { nextStep } from '../engine/next-step.ts';
import { rowOf } from '../intake/register.ts';
import type { Em } from '../store/orm.ts';
import { openCasesOnShipment } from '../store/register/alert-queue.ts';
import { registerRows } from '../store/register/plots.ts';
import { batchCounts, shipmentPlotIds } from '../store/register/shipments.ts';
import { shipmentOf } from './shipments.ts';
import { factsOf } from './statement-facts.ts';
import { batchWarnings } from './statements.ts';

export interface ReportDeps {
  em: Em;
  documents: DocumentPool;
  baseUrl: string;
}

export async function shipmentReportInput(em: Em, workspaceId: string, shipmentId: string, baseUrl: string): Promise<ShipmentReportInput> {
  const shipment = await shipmentOf(em, workspaceId, shipmentId);
  const statement = await factsOf(em, workspaceId, shipment, shipment.reference, null);
  const filing = new Map(statement.plots.map((p) => [p.id, p]));
  const rows = (await registerRows(em, workspaceId, await shipmentPlotIds(em, shipment.id))).map(rowOf);
  return {
    shipment: { id: shipment.id, reference: shipment.reference, shipped_on: shipment.shipped_on, arrives_on: shipment.arrives_on, note: shipment.note },
    counts: (await batchCounts(em, workspaceId, [shipment.id])).get(shipment.id)!,
    plots: rows.map((r) => {
      const plot = filing.get(r.id);
      const readable = plot !== undefined && plot.geometry !== null && plot.validation_state !== 'rejected' && plot.validation_state !== 'pending';
      return {
        id: r.id,
        external_ref: r.external_ref,
        area_ha: r.area_ha,
        producer_name: r.producer_name,
        evidence_state: r.evidence_state,
        verdict: r.verdict as Verdict | null,
        reason: r.reason as ReasonCode | null,
        state: r.state,
        next_step: nextStep({ evidence_state: r.evidence_state, verdict: r.verdict as Verdict | null, area_ha: r.area_ha, readable }),
        post_cutoff_loss_share: r.post_cutoff_loss_share,
      };
    }),
    openCases: (await openCasesOnShipment(em, workspaceId, shipment.id)).map(caseRecord),
    warnings: (await batchWarnings(em, workspaceId, rows.map((r) => r.id))).warnings,
    statement,
    generatedAt: new Date().toISOString(),
    baseUrl,
  };
}

/** The shipment report's PDF bytes. */
export async function shipmentReport(deps: ReportDeps, workspaceId: string, shipmentId: string): Promise<Buffer> {
  return deps.documents.shipmentReportPdf(await shipmentReportInput(deps.em, workspaceId, shipmentId, deps.baseUrl));
}
