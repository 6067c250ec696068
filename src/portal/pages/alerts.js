// Alert monitors and the queue of cases they open (spec 4.4, 4.5): start a monitor over every plot,
// a shipment's plots or the register's selection; work the cases, closing each with a note.
import { api } from '../api.js';
import { selection, selectionText } from '../selection.js';
import { showServed } from '../served.js';
import { actionForm, announce, clear, h, labelled, notice, number, table, when, words } from '../ui.js';

/** What a monitor watches, a shipment by its reference; a shipment's monitor stops when the shipment is deleted. */
function watches(m, shipments) {
  if (m.plot_ids) return `${m.plot_ids.length} plots`;
  if (m.shipment_id === null) return words(m.scope);
  if (!m.active) return 'a deleted shipment (stopped)';
  const reference = shipments.find((s) => s.id === m.shipment_id)?.reference;
  return h('a', { href: `#/register/shipment/${encodeURIComponent(m.shipment_id)}` }, reference ? `the plots of shipment ${reference}` : 'the plots of a shipment');
}

const CASE_VIEWS = { open: 'Open cases', closed: 'Closed cases', all: 'Every case' };

/** The form that starts a monitor; `started` runs once the service has made it. */
function monitorForm(shipments, status, started) {
  const scope = h('select', { name: 'scope', id: 'monitor-scope' },
    h('option', { value: 'all' }, 'Every plot of the register, as it grows'),
    selection.size ? h('option', { value: 'selection' }, `The register’s selection: ${selectionText(3)}`) : null,
    shipments.map((s) => h('option', { value: `shipment:${s.id}` }, `The plots of shipment ${s.reference}, as they stand at each run`)),
  );
  const product = h('select', { name: 'product' }, h('option', { value: 'integrated' }, 'Integrated alerts (radar and optical, 10 m)'), h('option', { value: 'radd' }, 'RADD (radar, 10 m, primary humid forest)'));
  const minArea = h('input', { name: 'min_area_ha', type: 'number', min: 0, step: 'any', value: '0' });
  const since = h('input', { name: 'since', type: 'date', min: '2021-01-01', value: new Date().toISOString().slice(0, 10) });
  const label = h('input', { name: 'label', maxlength: 100 });
  const form = actionForm({ class: 'facts-form', 'aria-labelledby': 'new-monitor' }, status, 'The monitor was not started', async () => {
    const body = { product: product.value, min_area_ha: Number(minArea.value || 0), since: since.value || undefined, label: label.value.trim() || undefined };
    if (scope.value === 'all') body.all = true;
    else if (scope.value === 'selection') body.plot_ids = [...selection.keys()];
    else body.shipment_id = scope.value.slice('shipment:'.length);
    const made = await api('POST', '/eudr/alerts/monitors', { body });
    const unwatchable = made.unwatchable?.count ? ` ${made.unwatchable.count} of its plots can never be read by this product (outside its band, or without a boundary) and open no case.` : '';
    clear(status, notice(`Monitor ${made.label ?? made.id} started: it opens a case for each ${made.product} alert from ${made.since} on of at least ${made.min_area_ha} ha.${unwatchable}`));
    announce('Monitor started');
    form.reset();
    await started();
  },
    h('div', { class: 'grid' }, labelled('Watch', scope), labelled('Alert product', product), labelled('Smallest alert that opens a case (ha)', minArea), labelled('Alerts detected from', since), labelled('Label (optional)', label)),
    h('div', {}, h('button', { type: 'submit' }, 'Start the monitor')),
  );
  return form;
}

export async function alertsPage(main) {
  const shipments = await api('GET', '/portal/statements/shipments').then((a) => a.shipments ?? []).catch(() => []);
  const cases = h('div');
  const monitors = h('div');
  const status = h('div');
  const making = h('div');
  const view = h('select', { id: 'case-view', onchange: () => drawCases() }, Object.entries(CASE_VIEWS).map(([k, v]) => h('option', { value: k }, v)));
  const drawCases = () =>
    showServed(cases, 'Alert cases', `/eudr/alerts/cases?status=${view.value}`, (answer) =>
      table('Alert cases', [
        { label: 'Plot', cell: (c) => h('a', { href: `#/plots/${encodeURIComponent(c.plot_id)}` }, c.ref ?? c.plot_id) },
        { label: 'Product', cell: (c) => c.product },
        { label: 'First seen', cell: (c) => c.first_date },
        { label: 'Confidence', cell: (c) => c.confidence },
        { label: 'Area (ha)', cell: (c) => number(c.area_ha, 2), num: true },
        { label: 'Severity', cell: (c) => c.severity },
        { label: 'Opened', cell: (c) => when(c.opened_at) },
        { label: 'Status', cell: (c) => (c.status === 'open' ? 'open' : `${c.status}: ${c.note ?? ''}`) },
        { label: 'Action', cell: (c) => (c.status === 'open' ? closeForm(c) : '') },
      ], answer.cases ?? [], { empty: view.value === 'open' ? 'No open cases: no monitor has found an alert on your plots that is still to be reviewed.' : 'No cases.' }),
    );
  const drawMonitors = () =>
    showServed(monitors, 'Alert monitors', '/eudr/alerts/monitors', (answer) =>
      table('Alert monitors', [
        { label: 'Label', cell: (m) => m.label ?? m.id },
        { label: 'Watches', cell: (m) => watches(m, shipments) },
        { label: 'Product', cell: (m) => m.product },
        { label: 'Smallest alert (ha)', cell: (m) => number(m.min_area_ha, 2), num: true },
        { label: 'Since', cell: (m) => m.since },
        { label: 'Open cases', cell: (m) => number(m.open_cases, 0), num: true },
        { label: 'Last run', cell: (m) => (m.last_run_at ? when(m.last_run_at) : 'not yet run') },
      ], answer.monitors ?? [], { empty: 'No monitors yet.' }),
    );
  const closeForm = (c) => {
    const note = h('input', { name: 'note', required: true, 'aria-label': `What was found on ${c.ref ?? c.plot_id}` });
    return actionForm({ class: 'row' }, status, 'The case was not closed', async () => {
      await api('POST', `/eudr/alerts/cases/${encodeURIComponent(c.alert_id)}/close`, { body: { note: note.value } });
      clear(status, notice('Case closed.'));
      await Promise.all([drawCases(), drawMonitors()]);
    }, note, h('button', { type: 'submit', class: 'secondary' }, 'Close with this note'));
  };
  clear(making, monitorForm(shipments, status, drawMonitors));
  clear(
    main,
    h('h1', {}, 'Alerts'),
    h('p', { class: 'muted' }, 'Published canopy-change alerts found over your plots by monitors, as cases to review; an alert is adjudicated against the record before the cutoff. Monitors run on the service’s schedule.'),
    status,
    h('h2', {}, 'Case queue'),
    h('div', { class: 'row' }, labelled('Show', view)),
    cases,
    h('h2', {}, 'Monitors'),
    monitors,
    h('h3', { id: 'new-monitor' }, 'Start a monitor'),
    making,
  );
  await Promise.all([drawCases(), drawMonitors()]);
}
