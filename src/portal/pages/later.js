// Shipments, alerts and webhooks (spec 4.4, 4.8, 4.9): listed where the service serves them, and
// said plainly where it does not yet.
import { api, isMissingRoute } from '../api.js';
import { clear, errorNotice, h, notice, table, when, words } from '../ui.js';

async function listOrSay(main, title, intro, path, show) {
  clear(main, h('h1', {}, title), h('p', { class: 'muted' }, intro));
  try {
    main.append(show(await api('GET', path)));
  } catch (err) {
    main.append(isMissingRoute(err) ? notice(`${title} are not served by this service yet: ${path.replace(/\?.*/, '')} is not one of its routes.`) : errorNotice(err, `${title} could not be listed`));
  }
}

export function shipmentsPage(main) {
  return listOrSay(main, 'Shipments', 'Batches of plots with their commercial facts, and the due diligence statement each can give.', '/portal/statements/shipments', (answer) =>
    table('Shipments', [
      { label: 'Reference', cell: (s) => s.reference ?? s.id },
      { label: 'Commodity', cell: (s) => s.commodity ?? '—' },
      { label: 'Plots', cell: (s) => String(s.n_plots ?? s.plots ?? '—'), num: true },
      { label: 'Register', cell: (s) => h('a', { href: '#/register' }, 'Filter the register by it') },
    ], answer.shipments ?? [], { empty: 'No shipments yet.' }),
  );
}

export function webhooksPage(main) {
  return listOrSay(main, 'Webhooks', 'Signed notifications sent to your platform when work completes, and their delivery log.', '/portal/webhooks', (answer) =>
    h('div', {},
      table('Webhook endpoints', [
        { label: 'Address', cell: (w) => h('code', {}, w.url) },
        { label: 'Label', cell: (w) => w.label ?? '—' },
        { label: 'Events', cell: (w) => (w.events ?? []).join(', ') },
        { label: 'Active', cell: (w) => (w.active === false ? 'no' : 'yes') },
      ], answer.endpoints ?? [], { empty: 'No endpoints yet.' }),
    ),
  );
}

export function alertsPage(main) {
  return listOrSay(main, 'Alerts', 'Canopy-change alerts adjudicated against the record before the cutoff.', '/eudr/alerts', (answer) =>
    table('Alerts', [
      { label: 'Reference', cell: (a) => a.ref ?? a.plot_id },
      { label: 'Alert date', cell: (a) => a.alert?.alert_date ?? '—' },
      { label: 'Outcome', cell: (a) => words(a.adjudication?.outcome) },
      { label: 'Issued', cell: (a) => when(a.issued) },
    ], answer.alerts ?? [], { empty: 'No alerts yet.' }),
  );
}
