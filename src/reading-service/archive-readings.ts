/**
 * Filing and withdrawing archive review readings (spec 2.7 `archive_review`, 6.2): a reviewer files
 * a dated reading of a sub-metre scene against a plot's live evidence; it is signed on its own,
 * stored beside the evidence with the register's copy of what it supports, and the
 * `archive.reading.filed` event is written in the same transaction. The evidence object, its
 * verdict and its signature are never touched. A reading is withdrawn by whoever filed it (or the
 * operator), and stays on the plot's record.
 */
import { randomUUID } from 'node:crypto';
import { alreadyWithdrawn, findingIssued, forbidden, invalid, notFound, readingOnRecord } from '../errors.ts';
import type { Em } from '../store/orm.ts';
import { writeEvent } from '../store/outbox.ts';
import { insertReading, markWithdrawn, readingForUpdate, readingRecords, type ReadingRecord } from '../store/register/archive-readings.ts';
import { plotHold } from '../store/register/evidence.ts';
import { sealReading, type ArchiveReview, type ReadingInput } from '../engine/archive-reading.ts';
import { currentEvidence, type EventLinks } from './evidence-store.ts';
import type { SigningKey } from '../engine/signing.ts';

export const ARCHIVE_READING_FILED = 'archive.reading.filed';

/** Who files or withdraws: `id` is recorded with the reading (`user:<id>`, `key:<id>` or OPERATOR). */
export interface Filer {
  id: string;
  /** A reviewer seat, or the operator. */
  reviewer: boolean;
}

/** The admin command's filer: an operator may file, and withdraw any reading. */
export const OPERATOR: Filer = { id: 'operator', reviewer: true };

function mustReview(filer: Filer, what: string): void {
  if (!filer.reviewer) {
    throw forbidden(`${what} an archive reading needs a reviewer seat: use a key minted by a reviewer (admin: key mint --role reviewer) or sign in with one`);
  }
}

/** Files the reading against the plot's live evidence and writes its event; answers the reading as the evidence route now serves it. */
export async function fileReading(
  em: Em,
  signing: { key: SigningKey; links: EventLinks },
  target: { workspaceId: string; plotId: string },
  filer: Filer,
  input: ReadingInput,
): Promise<ArchiveReview> {
  mustReview(filer, 'filing');
  const today = new Date().toISOString().slice(0, 10);
  if (input.acquired_on > today) throw invalid('bad_acquired_on', `acquired_on ${input.acquired_on} is after today (${today}): give the scene's acquisition date`);
  const { workspaceId, plotId } = target;
  return em.transactional(async (tx) => {
    // The plot's row lock orders this filing with a read finishing and with another filing.
    await plotHold(tx, workspaceId, plotId, true);
    const { plot, stored } = await currentEvidence(tx, workspaceId, plotId);
    if (stored.object.verdict === 'prior_management_evidenced') {
      throw findingIssued(`plot ${plotId} carries a positive finding; an archive reading is filed against a plot whose finding was withheld`);
    }
    if (stored.review !== null) {
      throw readingOnRecord(`plot ${plotId} already has archive reading ${stored.review.reading.id} on record; withdraw it (POST /portal/plots/${plotId}/archive-readings/${stored.review.reading.id}/withdraw) before filing another`);
    }
    const at = new Date();
    const review = sealReading(input, { id: randomUUID(), plotId, evidenceDigest: stored.integrity.digest, at }, signing.key);
    await insertReading(tx, { workspaceId, evidenceId: stored.id, filedBy: filer.id, review });
    const evidenceUrl = `${signing.links.baseUrl}/portal/plots/${plotId}/evidence`;
    writeEvent(tx, workspaceId, ARCHIVE_READING_FILED, { plot_id: plotId, ref: plot.external_ref, reading: review, evidence_url: evidenceUrl, document_url: `${evidenceUrl}.pdf` }, at);
    return review;
  });
}

/** Withdraws a reading, leaving it on the plot's record with who withdrew it, when and why. */
export async function withdrawReading(
  em: Em,
  target: { workspaceId: string; plotId: string; readingId: string },
  filer: Filer,
  reason: string | null,
): Promise<ReadingRecord> {
  mustReview(filer, 'withdrawing');
  const { workspaceId, plotId, readingId } = target;
  return em.transactional(async (tx) => {
    if ((await plotHold(tx, workspaceId, plotId, true)) === null) throw notFound(`no plot ${plotId} in this workspace`);
    const record = await readingForUpdate(tx, workspaceId, plotId, readingId);
    if (record === null) throw notFound(`no archive reading ${readingId} on plot ${plotId}`);
    if (record.withdrawn !== null) throw alreadyWithdrawn(`archive reading ${readingId} was withdrawn at ${record.withdrawn.at}`);
    if (record.filed_by !== filer.id && filer.id !== OPERATOR.id) {
      throw forbidden(`archive reading ${readingId} is withdrawn only by the reviewer who filed it, with the same key or session`);
    }
    const withdrawal = { by: filer.id, reason, at: new Date() };
    await markWithdrawn(tx, record, withdrawal);
    return { ...record, served: false, withdrawn: { at: withdrawal.at.toISOString(), by: withdrawal.by, reason } };
  });
}

/** Every reading filed against the plot, newest first; not_found outside the workspace. */
export async function plotReadings(em: Em, workspaceId: string, plotId: string): Promise<ReadingRecord[]> {
  if ((await plotHold(em, workspaceId, plotId)) === null) throw notFound(`no plot ${plotId} in this workspace`);
  return readingRecords(em, workspaceId, plotId);
}
