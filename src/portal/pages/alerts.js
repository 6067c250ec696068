// Alert cases and the monitors that open them (spec 4.4, 4.5).
import { api } from '../api.js';
import { showServed } from '../served.js';
import { clear, errorNotice, h, notice, number, table, when, words } from '../ui.js';

/** What a monitor watches; a shipment's monitor stops when the shipment is deleted. */
function watches(m) {
  if (m.plot_ids) return `${m.plot_ids.length} plots`;
  if (m.shipment_id === null) return words(m.scope);
  if (!m.active) return 'a deleted shipment (stopped)';
  return h('a', { href: `#/register/shipment/${encodeURIComponent(m.shipment_id)}` }, 'the plots of a shipment');
}

export async function alertsPage(main) {
  const cases = h('div');
  const monitors = h('div');
  const status = h('div');
  const drawCases = () =>
    showServed(cases, 'Alert cases', '/eudr/alerts/cases', (answer) =>
      table('Alert cases', [
        { label: 'Plot', cell: (c) => h('a', { href: `#/plots/${encodeURIComponent(c.plot_id)}` }, c.ref ?? c.plot_id) },
        { label: 'Product', cell: (c) => c.product },
        { label: 'First seen', cell: (c) => c.first_date },
        { label: 'Confidence', cell: (c) => c.confidence },
        { label: 'Area (ha)', cell: (c) => number(c.area_ha, 2), num: true },
        { label: 'Severity', cell: (c) => c.severity },
        { label: 'Status', cell: (c) => (c.status === 'open' ? 'open' : `${c.status}: ${c.note ?? ''}`) },
        { label: 'Action', cell: (c) => (c.status === 'open' ? closeForm(c) : '') },
      ], answer.cases ?? [], { empty: 'No cases: no monitor has found an alert on your plots.' }),
    );
  const closeForm = (c) => {
    const note = h('input', { name: 'note', required: true, 'aria-label': `What was found on ${c.ref ?? c.plot_id}` });
    return h('form', {
      class: 'row',
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          await api('POST', `/eudr/alerts/cases/${encodeURIComponent(c.alert_id)}/close`, { body: { note: note.value } });
          clear(status, notice('Case closed.'));
          await drawCases();
        } catch (err) {
          clear(status, errorNotice(err, 'The case was not closed'));
        }
      },
    }, note, h('button', { type: 'submit', class: 'secondary' }, 'Close with this note'));
  };
  clear(main, h('h1', {}, 'Alerts'), h('p', { class: 'muted' }, 'Published canopy-change alerts found over your plots by monitors, as cases to review; an alert is adjudicated against the record before the cutoff.'), status, h('h2', {}, 'Cases'), cases, h('h2', {}, 'Monitors'), monitors);
  await Promise.all([
    drawCases(),
    showServed(monitors, 'Alert monitors', '/eudr/alerts/monitors', (answer) =>
      table('Alert monitors', [
        { label: 'Label', cell: (m) => m.label ?? m.id },
        { label: 'Watches', cell: watches },
        { label: 'Product', cell: (m) => m.product },
        { label: 'Since', cell: (m) => m.since },
        { label: 'Open cases', cell: (m) => number(m.open_cases, 0), num: true },
        { label: 'Last run', cell: (m) => when(m.last_run_at) },
      ], answer.monitors ?? [], { empty: 'No monitors yet.' }),
    ),
  ]);
}

