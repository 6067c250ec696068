/**
 * Where issued evidence is served from and how a read's outcome is written (spec 3.1 through
 * src/store/register/transitions.ts): a finished read stores its object, moves the register row to
 * `done`, charges the allowance and writes the `plot.evidence.completed` event in one transaction;
 * a failed read records its reason and the `plot.evidence.failed` event, and charges nothing.
 */
import type { EvidenceMap } from '../documents/footprint-map.ts';
import { noEvidence, notFound } from '../errors.ts';
import type { EvidenceState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { liveEvidence, type PlotHold, type StoredEvidence } from '../store/register/evidence.ts';
import type { CompletedBatch } from '../store/register/shipments.ts';
import { completeAll, fail, type FailedRead, type FinishedRead, type WriteOutcome } from '../store/register/transitions.ts';
import type { ArchiveReview } from '../engine/archive-reading.ts';
import type { EvidenceObject } from '../engine/evidence-object.ts';
import type { Integrity } from '../engine/integrity.ts';
import { nextStep } from '../engine/next-step.ts';
import { plotState } from '../engine/plot-state.ts';

/** The wrapper of spec 2.6 with its integrity block (issue 5 item 4) and the archive reading filed with it. */
export interface EvidenceWrapper {
  plot_id: string;
  external_ref: string | null;
  state: EvidenceState;
  issued: string;
  evidence: EvidenceObject;
  integrity: Integrity;
  /** Signed on its own: filing or withdrawing it changes neither `evidence` nor `integrity`. */
  archive_review: ArchiveReview | null;
}

function missingEvidence(plot: PlotHold) {
  const why: Record<EvidenceState, string> = {
    none: 'it has not been read, or its evidence was withdrawn when its boundary changed; run evidence for it',
    queued: 'its read is queued',
    running: 'its read is under way',
    failed: `its last read failed (${plot.evidence_error ?? 'no reason recorded'}); ${nextStep({ evidence_state: 'failed', verdict: null, area_ha: plot.area_ha, error: plot.evidence_error })!.note}`,
    done: 'no stored evidence was found for it',
  };
  return noEvidence(`plot ${plot.id} has no evidence: its evidence state is ${plot.evidence_state}, ${why[plot.evidence_state]}`);
}

/** The plot's live evidence; not_found outside the workspace, `no_evidence` naming the state when none is served. */
export async function currentEvidence(em: Em, workspaceId: string, plotId: string): Promise<{ plot: PlotHold; stored: StoredEvidence }> {
  const live = await liveEvidence(em, workspaceId, plotId);
  if (live === null) throw notFound(`no plot ${plotId} in this workspace`);
  if (live.stored === null) throw missingEvidence(live.plot);
  return { plot: live.plot, stored: live.stored };
}

function wrapperOf(plot: PlotHold, stored: StoredEvidence): EvidenceWrapper {
  return {
    plot_id: plot.id,
    external_ref: plot.external_ref,
    state: plot.evidence_state,
    issued: stored.object.issued,
    evidence: stored.object,
    integrity: stored.integrity,
    archive_review: stored.review,
  };
}

/** The plot's live evidence as served (spec 2.6); not_found outside the workspace, `no_evidence` naming the state otherwise. */
export async function getEvidenceWrapper(em: Em, workspaceId: string, plotId: string): Promise<EvidenceWrapper> {
  const { plot, stored } = await currentEvidence(em, workspaceId, plotId);
  return wrapperOf(plot, stored);
}

/** What the evidence document is rendered from: the wrapper, the register's commodity and the stored map, under the same refusals. */
export interface EvidenceDocumentSource {
  wrapper: EvidenceWrapper;
  register: { commodity: string | null };
  map: EvidenceMap;
}

export async function getEvidenceDocument(em: Em, workspaceId: string, plotId: string): Promise<EvidenceDocumentSource> {
  const { plot, stored } = await currentEvidence(em, workspaceId, plotId);
  const { chip } = stored.map;
  return {
    wrapper: wrapperOf(plot, stored),
    register: { commodity: plot.commodity },
    map: { footprint: stored.map.footprint, chip: chip === null || stored.chipPng === null ? null : { ...chip, png: stored.chipPng } },
  };
}

/** The live evidence with the footprint it was read over, under the same refusals. */
export async function getEvidenceFootprint(em: Em, workspaceId: string, plotId: string): Promise<{ wrapper: EvidenceWrapper; footprint: EvidenceMap['footprint'] }> {
  const { plot, stored } = await currentEvidence(em, workspaceId, plotId);
  return { wrapper: wrapperOf(plot, stored), footprint: stored.map.footprint };
}

export interface EventLinks {
  /** The service's base URL, ending /api/v1. */
  baseUrl: string;
}

/** Stores a finished read with its `plot.evidence.completed` event; `superseded` when the job no longer holds the plot. */
export async function storeEvidence(em: Em, read: FinishedRead, links: EventLinks): Promise<WriteOutcome> {
  return (await storeEvidenceAll(em, [read], links))[0];
}

/** `storeEvidence` for several finished reads of one job, in one transaction; each read's outcome, in order. */
export async function storeEvidenceAll(em: Em, reads: readonly FinishedRead[], links: EventLinks): Promise<WriteOutcome[]> {
  const byPlot = new Map(reads.map((r) => [r.plotId, r]));
  return completeAll(em, reads, (plot) => {
    const read = byPlot.get(plot.id)!;
    const e = read.evidence;
    const evidenceUrl = `${links.baseUrl}/portal/plots/${plot.id}/evidence`;
    return {
      plot_id: plot.id,
      ref: plot.external_ref,
      commodity: plot.commodity,
      area_ha: plot.area_ha,
      state: plotState({ ...read.facts, evidence_state: 'done', area_ha: plot.area_ha, positive_finding: e.verdict === 'prior_management_evidenced' }),
      result: e.verdict,
      finding: e.verdict === 'prior_management_evidenced',
      reason: e.reason,
      reasons: e.reasons,
      next_step: e.next_step,
      issued_at: e.issued,
      evidence_url: evidenceUrl,
      document_url: `${evidenceUrl}.pdf`,
    };
  }, (batch) => batchCompletedEvent(batch, links));
}

/** Records a failed read (state `failed`, the reason in words) with the failed event; nothing is charged. */
export async function recordFailure(em: Em, failure: FailedRead, links: EventLinks): Promise<WriteOutcome> {
  return fail(em, failure, (plot) => failedEvent(plot, failure.error, failure.at), (batch) => batchCompletedEvent(batch, links));
}

/** The `data` of `batch.completed` (spec 6.2). */
export function batchCompletedEvent(batch: CompletedBatch, links: EventLinks): object {
  const shipmentUrl = `${links.baseUrl}/portal/statements/shipments/${batch.id}`;
  return {
    shipment_id: batch.id,
    reference: batch.reference,
    commodity: batch.commodity,
    plots: batch.counts.plots,
    read: batch.counts.read,
    failed: batch.counts.failed,
    findings: batch.counts.with_finding,
    without_finding: batch.counts.withheld,
    shipment_url: shipmentUrl,
    report_url: `${shipmentUrl}/report.pdf`,
  };
}

/** The `data` of `plot.evidence.failed` (spec 6.2). */
export function failedEvent(plot: PlotHold, error: string, at: Date): object {
  return {
    plot_id: plot.id,
    ref: plot.external_ref,
    error,
    next_step: nextStep({ evidence_state: 'failed', verdict: null, area_ha: plot.area_ha, error }),
    failed_at: at.toISOString(),
  };
}
