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

/** A shipment's statement as checked now: ready or not, and each problem in the information system's terms. */
async function showStatement(box, s) {
  const base = `/portal/statements/shipments/${encodeURIComponent(s.id)}`;
  clear(box, h('p', {}, 'Checking the statement…'));
  try {
    const check = await api('GET', `${base}/statement`, { query: { format: 'json' } });
    clear(
      box,
      h('h2', { id: 'statement-title' }, `Statement of ${s.reference}`),
      notice(check.ready ? 'Ready: the statement can be built and filed from your own account.' : 'Not ready yet: the problems below keep it from being filed.', check.ready ? 'info' : 'warn'),
      facts([['Checked against the schema', check.schema_checked ? 'yes' : 'no'], ['Problems', number(check.problems.length, 0)]]),
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

