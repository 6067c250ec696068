// Webhook endpoints and their delivery log (spec 4.8).
import { api } from '../api.js';
import { showServed } from '../served.js';
import { clear, errorNotice, h, labelled, notice, number, table, when } from '../ui.js';

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
    await showServed(endpoints, 'Webhooks', '/portal/webhooks', (answer) => {
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
    await showServed(deliveries, 'Webhook deliveries', '/portal/webhooks/deliveries', (answer) =>
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
