import { api, apiUrl } from '../api.js';
import { meanings } from '../meanings.js';
import { allowanceUse, clear, coded, h, number, table, words } from '../ui.js';

/** Counts as a table of label and plots, the non-zero ones first; an empty count is left out. */
function counts(caption, record, label = words) {
  const rows = Object.entries(record ?? {}).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  return table(caption, [
    { label: caption, cell: ([k]) => label(k) },
    { label: 'Plots', cell: ([, n]) => number(n, 0), num: true },
  ], rows, { empty: 'None yet.' });
}

/** Finished plots by reason, under the bucket that says what the reason did (issued, withheld and by what, refused). */
function reasonBuckets(buckets, texts) {
  const used = Object.entries(buckets ?? {}).filter(([, reasons]) => Object.values(reasons).some((n) => n > 0));
  if (used.length === 0) return h('p', { class: 'muted' }, 'No plot has finished yet.');
  return used.map(([bucket, reasons]) => [h('h3', {}, words(bucket)), counts(`Reason (${words(bucket)})`, reasons, (k) => coded(texts.reasons[k], k))]);
}

/** The evidence summary (spec 4.2) and the book summary with its CSV. */
export async function summaryPage(main) {
  const [evidence, book, texts] = await Promise.all([api('GET', '/portal/plots/evidence/summary'), api('GET', '/portal/plots/summary', { query: { format: 'json' } }), meanings()]);
  const section = (id, title, ...body) => h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id }, title), ...body);
  clear(
    main,
    h('h1', {}, 'Summary'),
    h('p', {}, h('a', { href: apiUrl('/portal/plots/summary', { format: 'csv' }), id: 'book-csv', download: 'plots-summary.csv' }, 'Download the book summary (CSV)'), ' — one row per plot with its state, verdict, reasons and next step.'),
    h(
      'div',
      { class: 'grid' },
      section('sum-evidence', 'Evidence', counts('Evidence state', evidence.states), h('p', {}, `Allowance: ${allowanceUse(evidence.used, evidence.cap)} on the ${words(evidence.plan)} plan.`), evidence.recovered ? h('p', {}, `${evidence.recovered} plots left in flight by a stopped job were recovered.`) : null),
      section('sum-states', 'What the record shows', h('p', {}, `${number(book.plots, 0)} plots in the book.`), counts('State', book.state_labels, (k) => k), counts('Tone', book.state_tones)),
      section('sum-verdicts', 'Verdicts', counts('Verdict', evidence.verdicts, (k) => coded(texts.verdicts[k]?.title, k))),
      section('sum-reasons', 'Reasons of finished plots', reasonBuckets(evidence.reasons, texts)),
    ),
    h('p', { class: 'muted' }, book.archive_review_price?.line ?? ''),
  );
}
