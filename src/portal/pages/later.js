// Shipments and statements, alerts and cases, webhooks (spec 4.4, 4.8, 4.9): each page uses its
// routes where the service serves them and says plainly where it does not yet.
import { api, apiUrl, isMissingRoute } from '../api.js';
import { announce, clear, errorNotice, facts, h, labelled, notice, number, table, when, words } from '../ui.js';

/** Runs `show` with the answer of `path`, or says why there is none: not served yet, or refused. */
async function section(box, title, path, show) {
  try {
    clear(box, show(await api('GET', path)));
  } catch (err) {
    clear(box, isMissingRoute(err) ? notice(`${title} are not served by this service yet: ${path.replace(/\?.*/, '')} is not one of its routes.`) : errorNotice(err, `${title} could not be listed`));
  }
}

export async function shipmentsPage(main) {
  const list = h('div');
  const detail = h('div');
  clear(main, h('h1', {}, 'Shipments'), h('p', { class: 'muted' }, 'Batches of plots with their commercial facts, and the due diligence statement each can give.'), list, detail);
  await section(list, 'Shipments', '/portal/statements/shipments', (answer) =>
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

export async function alertsPage(main) {
  const cases = h('div');
  const monitors = h('div');
  const status = h('div');
  const drawCases = () =>
    section(cases, 'Alert cases', '/eudr/alerts/cases', (answer) =>
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
    section(monitors, 'Alert monitors', '/eudr/alerts/monitors', (answer) =>
      table('Alert monitors', [
        { label: 'Label', cell: (m) => m.label ?? m.id },
        { label: 'Watches', cell: (m) => (m.plot_ids ? `${m.plot_ids.length} plots` : words(m.scope)) },
        { label: 'Product', cell: (m) => m.product },
        { label: 'Since', cell: (m) => m.since },
        { label: 'Open cases', cell: (m) => number(m.open_cases, 0), num: true },
        { label: 'Last run', cell: (m) => when(m.last_run_at) },
      ], answer.monitors ?? [], { empty: 'No monitors yet.' }),
    ),
  ]);
}

export async function webhooksPage(main) {
  const status = h('div');
  const endpoints = h('div');
  const deliveries = h('div');
  const created = h('div');
  let eventTypes = [];

  const act = async (what, call) => {
    try {
      const answer = await call();
      await draw();
      return answer;
    } catch (err) {
      clear(status, errorNotice(err, what));
      return null;
    }
  };
  const showSecret = (title, answer) =>
    clear(created, h('section', { class: 'panel', 'aria-labelledby': 'secret-title' }, h('h2', { id: 'secret-title' }, title), notice(answer.note ?? 'This secret is shown once.', 'warn'), h('p', { class: 'secret' }, answer.secret)));

  const row = (w) => {
    const path = `/portal/webhooks/${encodeURIComponent(w.id)}`;
    const name = w.label ?? w.url;
    return h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Send a test event to ${name}`, onclick: () => act('The test was not sent', async () => {
        const r = await api('POST', `${path}/test`);
        clear(status, notice(r.delivered ? `Delivered: the receiver answered ${r.status_code}.` : `Not delivered: ${r.error ?? `the receiver answered ${r.status_code}`}.`, r.delivered ? 'info' : 'warn'));
      }) }, 'Test'),
      h('button', { type: 'button', class: 'secondary', 'aria-label': `${w.active ? 'Pause' : 'Resume'} ${name}`, onclick: () => act('The endpoint was not changed', () => api('PATCH', path, { body: { active: !w.active } })) }, w.active ? 'Pause' : 'Resume'),
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Rotate the secret of ${name}`, onclick: async () => {
        const r = await act('The secret was not rotated', () => api('POST', `${path}/rotate-secret`));
        if (r) showSecret('The new secret', r);
      } }, 'Rotate secret'),
      h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${name}`, onclick: () => confirm(`Delete ${w.url} and its delivery log?`) && act('The endpoint was not deleted', () => api('DELETE', path)) }, 'Delete'),
    );
  };

  async function draw() {
    await section(endpoints, 'Webhooks', '/portal/webhooks', (answer) => {
      eventTypes = answer.event_types ?? [];
      return h('div', {},
        table('Webhook endpoints', [
          { label: 'Address', cell: (w) => h('code', {}, w.url) },
          { label: 'Label', cell: (w) => w.label ?? '—' },
          { label: 'Events', cell: (w) => (w.events ?? []).join(', ') },
          { label: 'Secret', cell: (w) => h('code', {}, w.secret_hint ?? '—') },
          { label: 'Active', cell: (w) => (w.active ? 'yes' : 'paused') },
          { label: 'Actions', cell: row },
        ], answer.endpoints ?? [], { empty: 'No endpoints yet.' }),
        answer.signing ? h('p', { class: 'muted' }, `Each delivery is signed in ${answer.signing.header}: ${answer.signing.algorithm}, over ${answer.signing.signed_text}.`) : null,
        createForm(),
      );
    });
    await section(deliveries, 'Webhook deliveries', '/portal/webhooks/deliveries', (answer) =>
      table('Delivery log', [
        { label: 'Event', cell: (d) => d.event_type },
        { label: 'Status', cell: (d) => d.status },
        { label: 'Attempts', cell: (d) => number(d.attempts, 0), num: true },
        { label: 'Last answer', cell: (d) => (d.last_status_code ? String(d.last_status_code) : d.last_error ?? '—') },
        { label: 'Last attempt', cell: (d) => when(d.last_attempt_at) },
        { label: 'Next attempt', cell: (d) => when(d.next_attempt_at) },
        { label: 'Action', cell: (d) => (d.status === 'delivered' || d.status === 'failed' ? h('button', { type: 'button', class: 'secondary', 'aria-label': `Send the ${d.event_type} delivery again`, onclick: () => act('The delivery was not sent again', () => api('POST', `/portal/webhooks/deliveries/${encodeURIComponent(d.id)}/retry`)) }, 'Send again') : '') },
      ], answer.deliveries ?? [], { empty: 'Nothing delivered yet.' }),
    );
  }

  function createForm() {
    const url = h('input', { type: 'url', name: 'url', required: true, placeholder: 'https://example.org/hooks/evidence' });
    const label = h('input', { name: 'label' });
    const boxes = eventTypes.map((t) => h('label', { class: 'row' }, h('input', { type: 'checkbox', name: 'events', value: t }), t));
    return h('form', {
      class: 'stack',
      onsubmit: async (e) => {
        e.preventDefault();
        const events = boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => i.value);
        const answer = await act('The endpoint was not added', () => api('POST', '/portal/webhooks', { body: { url: url.value, label: label.value || undefined, events: events.length ? events : undefined } }));
        if (answer) showSecret('The new endpoint’s secret', answer);
      },
    }, h('h3', {}, 'Add an endpoint'), labelled('Address (https)', url), labelled('Label (optional)', label), boxes.length ? h('fieldset', {}, h('legend', {}, 'Events (none ticked: every event)'), boxes) : null, h('div', {}, h('button', { type: 'submit' }, 'Add the endpoint')));
  }

  clear(main, h('h1', {}, 'Webhooks'), h('p', { class: 'muted' }, 'Signed notifications sent to your platform when work completes, and their delivery log.'), status, created, h('h2', {}, 'Endpoints'), endpoints, h('h2', {}, 'Deliveries'), deliveries);
  await draw();
}
