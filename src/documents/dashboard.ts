/**
 * The portal's dashboard (spec 4.10 names it among the portal key's routes; its shape is the
 * service's): what a compliance officer looks at first. The register's counts come from the book
 * summary's one pass over the plots, so the two agree; beside them the open alert cases, the
 * shipments and how far their plots are read, and the evidence allowance. It reads only: plots left
 * in flight by a job that died are resolved by the evidence summary route, not here.
 */
import { allowanceStatus } from '../accounts/allowance.ts';
import type { ArchiveReviewPrice } from '../accounts/archive-review-price.ts';
import { SEVERITIES, type Plan, type Severity } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { openCasesBySeverity } from '../store/register/alert-queue.ts';
import { batchCounts, shipmentRecords } from '../store/register/shipments.ts';
import { bookSummary, type BookSummary } from './book-summary.ts';

export interface Dashboard extends Omit<BookSummary, 'state_labels' | 'reasons' | 'archive_review_price'> {
  open_alert_cases: { total: number } & Record<Severity, number>;
  shipments: {
    total: number;
    /** Every plot read or failed (none waiting); a shipment with no plots is in neither count. */
    all_read: number;
    waiting_on_reads: number;
  };
  allowance: {
    plan: Plan;
    /** Reads in any 30 days; null on uncapped plans. */
    cap: number | null;
    used: number;
    /** Plots queued or being read: they count against the cap as they are admitted. */
    in_flight: number;
    /** What a run may still queue; null on uncapped plans. */
    remaining: number | null;
  };
  archive_review_price: ArchiveReviewPrice;
}

export async function dashboard(em: Em, workspace: { id: string; plan: Plan }, price: ArchiveReviewPrice): Promise<Dashboard> {
  const { state_labels: _labels, reasons: _reasons, ...book } = await bookSummary(em, workspace.id, price);
  const severities = await openCasesBySeverity(em, workspace.id);
  const counts = [...(await batchCounts(em, workspace.id, (await shipmentRecords(em, workspace.id)).map((s) => s.id))).values()];
  const allowance = await allowanceStatus(em, workspace);
  const inFlight = book.evidence_states.queued + book.evidence_states.running;
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, severities.get(s) ?? 0])) as Record<Severity, number>;
  return {
    ...book,
    open_alert_cases: { total: SEVERITIES.reduce((n, s) => n + bySeverity[s], 0), ...bySeverity },
    shipments: {
      total: counts.length,
      all_read: counts.filter((c) => c.plots > 0 && c.not_read === 0).length,
      waiting_on_reads: counts.filter((c) => c.not_read > 0).length,
    },
    allowance: {
      plan: allowance.plan,
      cap: allowance.cap,
      used: allowance.used,
      in_flight: inFlight,
      remaining: allowance.cap === null ? null : Math.max(0, allowance.cap - allowance.used - inFlight),
    },
    archive_review_price: price,
  };
}
