/**
 * Archive review readings beside the evidence (src/reading-service/archive-readings.ts): the reading served
 * with a plot's live evidence, the plot's record of readings, and the writes of filing and
 * withdrawing one. A reading is served while the evidence it was filed with is the plot's live
 * evidence and it has not been withdrawn; the register's copy of whether it supports cultivation
 * before the cutoff (`evidence_facts.archive_cultivation`) is written in the same transaction.
 */
import type { ArchiveReview } from '../../engine/archive-reading.ts';
import { ArchiveReading } from '../entities/index.ts';
import type { Em } from '../orm.ts';
import { archiveReview } from './stored-json.ts';

/** A reading on the plot's record, served or not. */
export interface ReadingRecord extends ArchiveReview {
  /** Served with the plot's live evidence: not withdrawn, and filed with the evidence the plot now holds. */
  served: boolean;
  filed_by: string;
  withdrawn: { at: string; by: string; reason: string | null } | null;
}

type Stamp = Date | string;
interface ReadingRow {
  reading: unknown;
  integrity: unknown;
  served: boolean;
  filed_by: string;
  withdrawn_at: Stamp | null;
  withdrawn_by: string | null;
  withdrawn_reason: string | null;
}

// A reading is served while its plot is `done` on the evidence row it was filed with.
const SERVED = `r.withdrawn_at is null and p.evidence_state = 'done' and e.current`;
const FROM = 'archive_readings r join plots p on p.id = r.plot_id join evidence e on e.id = r.evidence_id';
const RECORD_COLUMNS = `r.reading, r.integrity, (${SERVED}) as served, r.filed_by, r.withdrawn_at, r.withdrawn_by, r.withdrawn_reason`;

function recordOf(r: ReadingRow): ReadingRecord {
  return {
    ...archiveReview.parse({ reading: r.reading, integrity: r.integrity }),
    served: r.served,
    filed_by: r.filed_by,
    withdrawn: r.withdrawn_at === null ? null : { at: new Date(r.withdrawn_at).toISOString(), by: r.withdrawn_by ?? '', reason: r.withdrawn_reason },
  };
}

/** The reading served with the plot's live evidence; null when none is. */
export async function servedReading(em: Em, workspaceId: string, plotId: string): Promise<ArchiveReview | null> {
  const [r] = await em.execute<ReadingRow[]>(`select ${RECORD_COLUMNS} from ${FROM} where r.workspace_id = ? and r.plot_id = ? and ${SERVED}`, [workspaceId, plotId]);
  if (r === undefined) return null;
  const { reading, integrity } = recordOf(r);
  return { reading, integrity };
}

/** Every reading filed against the plot, withdrawn ones and those of earlier evidence included, newest first. */
export async function readingRecords(em: Em, workspaceId: string, plotId: string): Promise<ReadingRecord[]> {
  const rows = await em.execute<ReadingRow[]>(`select ${RECORD_COLUMNS} from ${FROM} where r.workspace_id = ? and r.plot_id = ? order by r.filed_at desc, r.id`, [workspaceId, plotId]);
  return rows.map(recordOf);
}

/** One reading of the plot with who filed it, locked until `tx` ends; null when the plot has no such reading. */
export async function readingForUpdate(tx: Em, workspaceId: string, plotId: string, readingId: string): Promise<ReadingRecord | null> {
  const [r] = await tx.execute<ReadingRow[]>(`select ${RECORD_COLUMNS} from ${FROM} where r.workspace_id = ? and r.plot_id = ? and r.id = ? for update of r`, [workspaceId, plotId, readingId]);
  return r === undefined ? null : recordOf(r);
}

/** The register's copy of whether a reading on record supports cultivation before the cutoff. */
async function setArchiveCultivation(tx: Em, plotId: string, supports: boolean): Promise<void> {
  await tx.execute(
    `update plots set evidence_facts = coalesce(evidence_facts, '{}'::jsonb) || jsonb_build_object('archive_cultivation', ?::boolean), updated_at = now() where id = ?`,
    [supports, plotId],
    'run',
  );
}

/** Files a reading against the evidence row `evidenceId`; the caller holds the plot's row lock. */
export async function insertReading(tx: Em, filing: { workspaceId: string; evidenceId: string; filedBy: string; review: ArchiveReview }): Promise<void> {
  const { reading, integrity } = filing.review;
  tx.create(ArchiveReading, {
    id: reading.id,
    workspaceId: filing.workspaceId,
    plotId: reading.plot_id,
    evidenceId: filing.evidenceId,
    reading,
    integrity,
    filedBy: filing.filedBy,
    filedAt: new Date(reading.filed_at),
    withdrawnAt: null,
    withdrawnBy: null,
    withdrawnReason: null,
  });
  await setArchiveCultivation(tx, reading.plot_id, reading.supports_pre_cutoff_cultivation);
}

/** Withdraws a reading; when it was the one served, the plot no longer shows what it supported. */
export async function markWithdrawn(tx: Em, record: ReadingRecord, withdrawal: { by: string; reason: string | null; at: Date }): Promise<void> {
  await tx.execute(
    'update archive_readings set withdrawn_at = ?::timestamptz, withdrawn_by = ?, withdrawn_reason = ? where id = ?',
    [withdrawal.at.toISOString(), withdrawal.by, withdrawal.reason, record.reading.id],
    'run',
  );
  if (record.served) await setArchiveCultivation(tx, record.reading.plot_id, false);
}
