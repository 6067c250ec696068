/**
 * The book summary (spec 2.14, 4.2): every plot of a workspace with what the record shows on it,
 * as counts (JSON) or one CSV row per plot. Both forms read the same rows through the same
 * function, so their counts agree. Rows are read in keyset pages in the register's order, so a
 * book of any size streams without sitting in memory.
 */
import type { ArchiveReviewPrice } from '../accounts/archive-review-price.ts';
import type { ReasonCode, Verdict } from '../engine/decide.ts';
import { NEXT_STEP_CODES, nextStep, type NextStep, type NextStepCode } from '../engine/next-step.ts';
import { LABELS, plotStateOfRow, type PlotState, type PlotTone } from '../engine/plot-state.ts';
import { EVIDENCE_STATES, type EvidenceState } from '../store/entities/index.ts';
import type { Em } from '../store/orm.ts';
import { bookPage, type BookRecord } from '../store/register/plots.ts';
import { REASON_MEANINGS, VERDICT_MEANINGS } from './meanings.ts';

/** The first page is small so the answer starts at once; later pages are large so a big book takes few queries. */
const FIRST_PAGE = 250;
const PAGE = 5000;

/** A plot as the summary reads it. */
export interface BookEntry {
  row: BookRecord;
  state: PlotState;
  /** Null on a positive finding. */
  step: NextStep | null;
}

/** Every plot of the workspace in the register's order, a page at a time. */
export async function* bookEntries(em: Em, workspaceId: string): AsyncGenerator<BookEntry[]> {
  let after = 0;
  let size = FIRST_PAGE;
  for (;;) {
    const rows = await bookPage(em, workspaceId, after, size);
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      row,
      state: plotStateOfRow(row),
      step: nextStep({ evidence_state: row.evidence_state, error: row.evidence_error, verdict: row.verdict, reasons: row.reasons, area_ha: row.area_ha, readable: row.readable }),
    }));
    if (rows.length < size) return;
    after = rows[rows.length - 1].seq;
    size = PAGE;
  }
}

export interface BookSummary {
  plots: number;
  evidence_states: Record<EvidenceState, number>;
  state_tones: Record<PlotTone, number>;
  state_labels: Record<string, number>;
  verdicts: Record<Verdict, number>;
  /** Plots by each code in their `reasons`: a plot under the floor counts under the floor and under its instruments' reason. */
  reasons: Record<ReasonCode, number>;
  /** Plots by their next step's code; a plot with a positive finding has none and is not counted here. */
  next_steps: Record<NextStepCode, number>;
  /** Plots whose Landsat record dates a loss of moist forest after the cutoff, and the hectares lost on them (it changes no verdict). */
  post_cutoff_loss: { plots: number; area_ha: number };
  archive_review_price: ArchiveReviewPrice;
}

const zeros = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export async function bookSummary(em: Em, workspaceId: string, price: ArchiveReviewPrice): Promise<BookSummary> {
  const summary: BookSummary = {
    plots: 0,
    evidence_states: zeros(EVIDENCE_STATES),
    state_tones: zeros<PlotTone>(['finding', 'record', 'forest_mapped']),
    state_labels: zeros(Object.values(LABELS)),
    verdicts: zeros(Object.keys(VERDICT_MEANINGS) as Verdict[]),
    reasons: zeros(Object.keys(REASON_MEANINGS) as ReasonCode[]),
    next_steps: zeros(NEXT_STEP_CODES),
    post_cutoff_loss: { plots: 0, area_ha: 0 },
    archive_review_price: price,
  };
  for await (const page of bookEntries(em, workspaceId)) {
    for (const { row, state, step } of page) {
      summary.plots++;
      if (step !== null) summary.next_steps[step.code]++;
      summary.evidence_states[row.evidence_state]++;
      summary.state_tones[state.tone]++;
      summary.state_labels[state.label]++;
      if (row.verdict !== null) summary.verdicts[row.verdict]++;
      for (const code of row.reasons ?? []) summary.reasons[code]++;
      if (row.post_cutoff_loss_share !== null) {
        summary.post_cutoff_loss.plots++;
        summary.post_cutoff_loss.area_ha += row.post_cutoff_loss_share * (row.area_ha ?? 0);
      }
    }
  }
  summary.post_cutoff_loss.area_ha = Math.round(summary.post_cutoff_loss.area_ha * 100) / 100;
  return summary;
}

export const CSV_COLUMNS = [
  'plot_id', 'external_ref', 'commodity', 'country', 'area_ha', 'evidence_state', 'state', 'state_tone', 'record',
  'verdict', 'reason', 'reasons', 'post_cutoff_loss_share', 'evidence_at', 'next_step', 'document_url',
] as const;

/**
 * One CSV field (RFC 4180), quoted when it holds a quote, a line break, a comma or a semicolon (the
 * separator a spreadsheet in a decimal-comma locale reads). A text that a spreadsheet would run as a
 * formula (it starts with =, +, -, @, a tab or a carriage return) is written with a leading
 * apostrophe, so a reference cannot execute when the file is opened; numbers are written as they are.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(entry: BookEntry, baseUrl: string): string {
  const { row, state, step } = entry;
  const fields: Array<string | number | null> = [
    row.id,
    row.external_ref,
    row.commodity,
    row.country,
    row.area_ha,
    row.evidence_state,
    state.label,
    state.tone,
    state.summary,
    row.verdict,
    row.reason,
    row.reasons === null ? null : row.reasons.join(';'),
    row.post_cutoff_loss_share,
    row.evidence_at === null ? null : row.evidence_at.toISOString(),
    step?.code ?? null,
    row.evidence_state === 'done' ? `${baseUrl}/portal/plots/${row.id}/evidence.pdf` : null,
  ];
  return fields.map(csvField).join(',');
}

/** The CSV form: a header, then a chunk of lines per page read. */
export async function* bookSummaryCsv(em: Em, workspaceId: string, baseUrl: string): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  for await (const page of bookEntries(em, workspaceId)) {
    yield page.map((entry) => `${csvLine(entry, baseUrl)}\r\n`).join('');
  }
}
