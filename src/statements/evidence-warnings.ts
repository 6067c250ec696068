/**
 * What the evidence says about a batch the statement's formal check does not look at. `ready` and
 * `problems` stay the information system's formalities (spec 2.13); these warnings are added beside
 * them, per plot, so a formally complete statement is never shown as a plain "ready" while a plot
 * shows forest lost after the cutoff, has no positive finding, carries an open alert case, was not
 * read, or was read from the synthetic demo archive. They change no verdict and block no file.
 */
import { postCutoffLossHeadline, type PostCutoffLossFigures } from '../documents/meanings.ts';

export const EVIDENCE_WARNING_CODES = ['post_cutoff_loss', 'open_alert_case', 'no_positive_finding', 'not_read', 'synthetic_evidence'] as const;
export type EvidenceWarningCode = (typeof EVIDENCE_WARNING_CODES)[number];

export interface EvidenceWarning {
  code: EvidenceWarningCode;
  plot_id: string;
  external_ref: string | null;
  message: string;
}

/** A plot of the batch as the warnings read it: its register row and its served evidence. */
export interface BatchPlotEvidence {
  id: string;
  external_ref: string | null;
  evidence_state: string;
  verdict: string | null;
  /** The served evidence's `post_cutoff_loss`; null when none is dated or nothing is served. */
  post_cutoff_loss: PostCutoffLossFigures | null;
  /** The served evidence was read from the demo archive; null when nothing is served. */
  synthetic: boolean | null;
  open_alert_cases: number;
}

function warningsOf(p: BatchPlotEvidence): Array<[EvidenceWarningCode, string]> {
  if (p.evidence_state !== 'done') {
    return [['not_read', `Not read (${p.evidence_state === 'failed' ? 'the last read failed' : p.evidence_state === 'none' ? 'no read was run' : 'a read is in progress'}): there is no evidence on this plot.`]];
  }
  const out: Array<[EvidenceWarningCode, string]> = [];
  if (p.post_cutoff_loss !== null) out.push(['post_cutoff_loss', `${postCutoffLossHeadline(p.post_cutoff_loss)}.`]);
  if (p.open_alert_cases > 0) out.push(['open_alert_case', `${p.open_alert_cases} alert case${p.open_alert_cases === 1 ? ' is' : 's are'} open on this plot.`]);
  if (p.verdict !== 'prior_management_evidenced') out.push(['no_positive_finding', 'No positive finding: the evidence does not show the plot was under cultivation before the cutoff.']);
  if (p.synthetic === true) out.push(['synthetic_evidence', 'Read from the synthetic demo archive, not from observations.']);
  return out;
}

/** Every warning of the batch, plot by plot in the batch's order. */
export function evidenceWarnings(plots: readonly BatchPlotEvidence[]): EvidenceWarning[] {
  return plots.flatMap((p) => warningsOf(p).map(([code, message]) => ({ code, plot_id: p.id, external_ref: p.external_ref, message })));
}

const SAID: Record<EvidenceWarningCode, string> = {
  post_cutoff_loss: 'show forest loss after the cutoff',
  open_alert_case: 'have an open alert case',
  no_positive_finding: 'have no positive finding',
  not_read: 'are not read',
  synthetic_evidence: 'were read from the synthetic demo archive',
};

/** The plots each warning code stands on. */
export type WarnedPlots = Map<EvidenceWarningCode, Set<string>>;

/** `warnings` added to `into` by code and plot: a list read page by page is added a page at a time. */
export function warnedPlots(warnings: Iterable<EvidenceWarning>, into: WarnedPlots = new Map()): WarnedPlots {
  for (const w of warnings) {
    const on = into.get(w.code) ?? new Set<string>();
    on.add(w.plot_id);
    into.set(w.code, on);
  }
  return into;
}

/**
 * The line that replaces a plain "ready": "Formally complete; 2 of 3 plots show forest loss after the
 * cutoff; …" (or "Not ready; …"), each code counted by plots; null when there is no warning.
 */
export function evidenceSummary(ready: boolean, warned: WarnedPlots, plots: number): string | null {
  const counts = EVIDENCE_WARNING_CODES.map((code) => [code, warned.get(code)?.size ?? 0] as const).filter(([, n]) => n > 0);
  if (counts.length === 0) return null;
  return [ready ? 'Formally complete' : 'Not ready', ...counts.map(([code, n]) => `${n} of ${plots} plot${plots === 1 ? '' : 's'} ${SAID[code]}`)].join('; ');
}
