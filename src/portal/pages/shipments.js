// Shipments and their statements (spec 4.9): each batch's counts, and its statement checked now.
import { api, apiUrl } from '../api.js';
import { showServed } from '../served.js';
import { announce, clear, errorNotice, facts, h, notice, number, table } from '../ui.js';

export async function shipmentsPage(main) {
  const list = h('div');
  const detail = h('div');
  clear(main, h('h1', {}, 'Shipments'), h('p', { class: 'muted' }, 'Batches of plots with their commercial facts, and the due diligence statement each can give.'), list, detail);
  await showServed(list, 'Shipments', '/portal/statements/shipments', (answer) =>
    table('Shipments', [
      { label: 'Reference', cell: (s) => h('button', { type: 'button', class: 'secondary', onclick: () => showStatement(detail, s) }, s.reference) },
      { label: 'Commodity', cell: (s) => s.commodity ?? '—' },
      { label: 'Plots', cell: (s) => number(s.counts?.plots, 0), num: true },
      { label: 'With a finding', cell: (s) => number(s.counts?.with_finding, 0), num: true },
      { label: 'Withheld', cell: (s) => number(s.counts?.withheld, 0), num: true },
      { label: 'Not read', cell: (s) => number(s.counts?.not_read, 0), num: true },
      { label: 'Register', cell: (s) => h('a', { href: `#/register/shipment/${encodeURIComponent(s.id)}` }, `Plots of ${s.reference}`) },
    ], answer.shipments ?? [], { empty: 'No shipments yet.' }),
  );
}

/**
 * Ready or not in the information system's terms; never a plain "Ready" while the evidence warns
 * (the service's own line: "Formally complete; 2 of 3 plots show forest loss after the cutoff").
 */
function readiness(check) {
  if (!check.ready) return notice(`Not ready yet: the problems below keep it from being filed.${check.evidence_summary ? ` ${check.evidence_summary}.` : ''}`, 'warn');
  if (check.evidence_summary) return h('div', { class: 'notice error', role: 'alert', id: 'statement-readiness' }, h('strong', {}, `${check.evidence_summary}.`), ' Nothing the information system would refuse, but read the evidence warnings below before filing.');
  return notice('Ready: the statement can be built and filed from your own account.', 'info');
}

/** A shipment's statement as checked now: ready or not, and each problem in the information system's terms. */
async function showStatement(box, s) {
  const base = `/portal/statements/shipments/${encodeURIComponent(s.id)}`;
  clear(box, h('p', {}, 'Checking the statement…'));
  try {
    const check = await api('GET', `${base}/statement`, { query: { format: 'json' } });
    clear(
      box,
      h('h2', { id: 'statement-title' }, `Statement of ${s.reference}`),
      readiness(check),
      facts([['Checked against the schema', check.schema_checked ? 'yes' : 'no'], ['Problems', number(check.problems.length, 0)], ['Evidence warnings', number(check.evidence_warnings.length, 0)]]),
      check.evidence_warnings.length === 0 ? null : table('Evidence warnings', [
        { label: 'Plot', cell: (w) => h('a', { href: `#/plots/${encodeURIComponent(w.plot_id)}` }, w.external_ref ?? w.plot_id) },
        { label: 'Warning', cell: (w) => h('code', {}, w.code) },
        { label: 'What the evidence says', cell: (w) => w.message },
      ], check.evidence_warnings),
      table('Problems of the statement', [
        { label: 'Field', cell: (p) => h('code', {}, p.field) },
        { label: 'Information system code', cell: (p) => p.eudr_code ?? '—' },
        { label: 'Problem', cell: (p) => p.message },
        { label: 'Plots', cell: (p) => number(p.plot_ids?.length ?? 0, 0), num: true },
      ], check.problems, { empty: 'No problems.' }),
      h('p', { class: 'row' },
        h('a', { href: apiUrl(`${base}/report.pdf`) }, 'Shipment report (PDF)'),
        ...['soap', 'xml', 'geojson'].map((f) => (check.ready ? h('a', { href: apiUrl(`${base}/statement`, { format: f }) }, `Statement as ${f.toUpperCase()}`) : null)),
      ),
    );
    box.querySelector('h2').focus?.();
    announce(`Statement of ${s.reference} checked`);
  } catch (err) {
    clear(box, errorNotice(err, 'The statement could not be checked'));
  }
}

