import { api, isMissingRoute } from '../api.js';
import { meanings } from '../meanings.js';
import { selection as selected } from '../selection.js';
import { allowanceUse, announce, clear, coded, errorNotice, h, labelled, notice, number, percent, scrollable, toneBadge, when, words } from '../ui.js';

const EVIDENCE_STATES = ['none', 'queued', 'running', 'done', 'failed'];
const TONES = { finding: 'Finding', record: 'Record only', forest_mapped: 'Forest mapped' };
const POLL_MS = 1500;

/** The sortable columns: the value each sorts by. */
const SORTS = {
  ref: (r) => (r.external_ref ?? '').toLowerCase(),
  area: (r) => r.area_ha ?? -1,
  state: (r) => r.state?.label ?? '',
  verdict: (r) => r.verdict ?? '',
  evidence_at: (r) => r.evidence_at ?? '',
  loss: (r) => r.post_cutoff_loss_share ?? -1,
};

/** Moist forest lost after the cutoff on the plot, and the open alert cases beside it: what the verdict column does not say. */
function lossCell(r) {
  const cases = r.open_alert_cases > 0 ? h('span', { class: 'muted' }, ` · ${r.open_alert_cases} open alert case${r.open_alert_cases === 1 ? '' : 's'}`) : null;
  if (r.post_cutoff_loss_share === null) return cases ? h('span', {}, '—', cases) : '—';
  return h('span', {}, h('strong', { class: 'loss' }, `${percent(r.post_cutoff_loss_share)} lost`), cases);
}

/** Filters, sort and page survive a visit to a plot page and back. */
const view = { state: '', q: '', shipment: '', loss: '', verdict: '', limit: 50, offset: 0, sort: null, descending: false };

/** The register (spec 4.1, 4.2): filter, sort, page, select plots and run evidence, watch the job. */
export async function registerPage(main, { params, signal }) {
  const texts = await meanings();
  if (params.shipment) Object.assign(view, { shipment: params.shipment, offset: 0 });
  const status = h('div');
  const progress = h('section', { 'aria-labelledby': 'job-title', hidden: true, class: 'panel' });
  const rowsBox = h('div');
  let page = { plots: [], total: 0 };

  const stateSelect = h(
    'select',
    { name: 'state' },
    h('option', { value: '' }, 'Any'),
    h('optgroup', { label: 'Evidence state' }, EVIDENCE_STATES.map((s) => h('option', { value: s }, words(s)))),
    h('optgroup', { label: 'State tone' }, Object.entries(TONES).map(([k, v]) => h('option', { value: k }, v))),
  );
  stateSelect.value = view.state;
  const q = h('input', { name: 'q', type: 'search', value: view.q });
  const verdict = h('select', { name: 'verdict' }, h('option', { value: '' }, 'Any'), Object.entries(texts.verdicts).map(([v, t]) => h('option', { value: v }, t.title)));
  verdict.value = view.verdict;
  const shipment = h('select', { name: 'shipment_id' }, h('option', { value: '' }, 'Any'));
  const shipmentNote = h('span', { class: 'muted' });
  const loss = h('select', { name: 'post_cutoff_loss' }, h('option', { value: '' }, 'Any'), h('option', { value: 'true' }, 'Forest lost after the cutoff'), h('option', { value: 'false' }, 'No loss dated after the cutoff'));
  loss.value = view.loss;
  const limit = h('select', { name: 'limit' }, [25, 50, 100, 250].map((n) => h('option', { value: n }, String(n))));
  limit.value = String(view.limit);

  api('GET', '/portal/statements/shipments')
    .then((answer) => {
      for (const s of answer.shipments ?? []) shipment.append(h('option', { value: s.id }, s.reference));
      shipment.value = view.shipment;
    })
    .catch((err) => {
      shipment.disabled = true;
      shipmentNote.textContent = isMissingRoute(err) ? 'Shipments are not served by this service yet.' : `Shipments could not be listed: ${err.message}`;
    });

  const filters = h(
    'form',
    {
      class: 'row',
      'aria-label': 'Filter the register',
      onsubmit: (e) => {
        e.preventDefault();
        Object.assign(view, { state: stateSelect.value, q: q.value.trim(), shipment: shipment.value, loss: loss.value, verdict: verdict.value, limit: Number(limit.value), offset: 0 });
        load();
      },
    },
    labelled('State', stateSelect),
    labelled('Reference contains', q),
    labelled('Shipment', shipment),
    labelled('Loss after the cutoff', loss),
    labelled('Verdict (this page)', verdict),
    labelled('Rows a page', limit),
    h('button', { type: 'submit' }, 'Apply'),
    shipmentNote,
  );

  const rerun = h('input', { type: 'checkbox', name: 'rerun' });
  const runSelected = h('button', { type: 'button', id: 'run-selected', disabled: true, onclick: () => run({ plot_ids: [...selected.keys()], rerun: rerun.checked }) }, 'Run evidence on the selected plots');
  const runAll = h('button', { type: 'button', class: 'secondary', id: 'run-all', onclick: () => run({ all: true }) }, 'Run evidence on every plot not yet read');
  const makeShipment = h('button', { type: 'button', class: 'secondary', id: 'ship-selected', onclick: () => (location.hash = '#/shipments/new') }, 'Make a shipment of the selected plots');
  const producerChoice = h('select', { name: 'producer', id: 'attach-producer' }, h('option', { value: '' }, 'Choose a producer'));
  const attach = h('button', { type: 'button', class: 'secondary', id: 'attach-selected', onclick: () => attachProducer() }, 'Attach to the selected plots');
  const actions = h(
    'div',
    { class: 'stack-rows' },
    h('div', { class: 'row' }, runSelected, h('label', { class: 'row' }, rerun, 'Read again plots that already have evidence'), runAll),
    h('div', { class: 'row' }, makeShipment, labelled('Producer', producerChoice), attach, h('a', { href: '#/producers' }, 'Manage producers')),
  );

  api('GET', '/portal/plots/producers')
    .then((answer) => producerChoice.append(...answer.producers.map((p) => h('option', { value: p.id }, p.reference ? `${p.name} (${p.reference})` : p.name))))
    .catch((err) => clear(status, errorNotice(err, 'Producers could not be listed')));

  /** Attaches the chosen producer to each selected plot, one call a plot; stops at the first refusal and says how far it got. */
  async function attachProducer() {
    if (!producerChoice.value) return clear(status, notice('Choose a producer to attach first.', 'warn'));
    const ids = [...selected.keys()];
    let done = 0;
    try {
      for (const id of ids) {
        await api('POST', `/portal/plots/${encodeURIComponent(id)}/producer`, { body: { producer_id: producerChoice.value } });
        done++;
      }
      clear(status, notice(`${producerChoice.selectedOptions[0].textContent} attached to ${done} plot${done === 1 ? '' : 's'}.`));
    } catch (err) {
      clear(status, errorNotice(err, `Attached to ${done} of ${ids.length} plots, then refused`));
    }
    await load(false);
  }

  function selectionChanged() {
    for (const b of [makeShipment, attach]) b.disabled = selected.size === 0;
    runSelected.disabled = selected.size === 0;
    runSelected.textContent = selected.size === 0 ? 'Run evidence on the selected plots' : `Run evidence on ${selected.size} selected plot${selected.size === 1 ? '' : 's'}`;
  }

  async function run(body) {
    clear(status);
    try {
      const answer = await api('POST', '/portal/plots/evidence', { body });
      if (answer.job_id === null) {
        clear(status, notice(answer.note ?? 'Nothing needed evidence.'));
        return;
      }
      clear(status, notice(`Job ${answer.job_id} queued ${answer.queued} plot${answer.queued === 1 ? '' : 's'}; once they are read the allowance stands at ${allowanceUse(answer.used_after, answer.cap)}.`));
      selected.clear();
      selectionChanged();
      watch(answer.queued);
    } catch (err) {
      clear(status, errorNotice(err, 'Evidence was not queued'));
    }
  }

  let watching = false;
  /** Polls the evidence summary while plots are queued or being read, and refreshes the rows with it. */
  async function watch(queuedNow = null) {
    if (watching) return;
    watching = true;
    let baseline = null;
    progress.hidden = false;
    try {
      while (!signal.aborted) {
        const summary = await api('GET', '/portal/plots/evidence/summary');
        const s = summary.states;
        const finished = s.done + s.failed;
        baseline ??= finished;
        const inFlight = s.queued + s.running;
        const total = queuedNow ?? finished - baseline + inFlight;
        const readNow = Math.min(total, finished - baseline);
        const bar = h('progress', { max: Math.max(total, 1), value: inFlight === 0 ? Math.max(total, 1) : readNow, 'aria-labelledby': 'job-title' });
        // The rows first: "finished" is shown only over rows that say so.
        await load(false);
        clear(
          progress,
          h('h2', { id: 'job-title' }, inFlight === 0 ? 'Evidence job finished' : 'Evidence job running'),
          bar,
          h('p', { id: 'job-counts' }, `${inFlight === 0 ? total : readNow} of ${total} plots read in this job · ${s.queued} queued · ${s.running} reading · ${s.done} done · ${s.failed} failed in the workspace`),
        );
        if (inFlight === 0) {
          announce('The evidence job has finished');
          break;
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } catch (err) {
      clear(progress, errorNotice(err, 'The job’s progress could not be read'));
    } finally {
      watching = false;
    }
  }

  function sortHeader(label, key) {
    const active = view.sort === key;
    return h(
      'th',
      { scope: 'col', 'aria-sort': active ? (view.descending ? 'descending' : 'ascending') : null },
      h('button', {
        type: 'button',
        class: 'sort',
        onclick: () => {
          view.descending = active ? !view.descending : false;
          view.sort = key;
          draw();
        },
      }, label, active ? (view.descending ? ' ▼' : ' ▲') : ''),
    );
  }

  function draw() {
    let rows = page.plots.filter((r) => !view.verdict || r.verdict === view.verdict);
    if (view.sort) {
      const by = SORTS[view.sort];
      rows = [...rows].sort((a, b) => (by(a) < by(b) ? -1 : by(a) > by(b) ? 1 : 0) * (view.descending ? -1 : 1));
    }
    const all = h('input', {
      type: 'checkbox',
      'aria-label': 'Select every plot on this page',
      checked: rows.length > 0 && rows.every((r) => selected.has(r.id)),
      onchange: (e) => {
        for (const r of rows) e.target.checked ? selected.set(r.id, r.external_ref ?? r.id) : selected.delete(r.id);
        selectionChanged();
        draw();
      },
    });
    const last = Math.min(view.offset + view.limit, page.total);
    clear(
      rowsBox,
      h(
        'div',
        { class: 'pager' },
        h('button', { type: 'button', class: 'secondary', disabled: view.offset === 0, onclick: () => ((view.offset = Math.max(0, view.offset - view.limit)), load()) }, 'Previous page'),
        h('span', { id: 'register-count' }, countText()),
        h('button', { type: 'button', class: 'secondary', disabled: last >= page.total, onclick: () => ((view.offset += view.limit), load()) }, 'Next page'),
      ),
      rows.length === 0
        ? h('p', { class: 'muted' }, page.total === 0 ? 'No plots match. Upload a book to fill the register.' : 'No plot on this page has that verdict.')
        : h(
            'div',
            scrollable('Plots of the register'),
            h(
              'table',
              { id: 'register', class: 'cards' },
              h('caption', { class: 'visually-hidden' }, 'Plots of the register'),
              h(
                'thead',
                {},
                h('tr', {}, h('th', { scope: 'col' }, all), sortHeader('Reference', 'ref'), h('th', { scope: 'col' }, 'Commodity'), h('th', { scope: 'col' }, 'Country'), sortHeader('Area (ha)', 'area'), h('th', { scope: 'col' }, 'Evidence'), sortHeader('State', 'state'), sortHeader('Verdict', 'verdict'), sortHeader('Loss after the cutoff', 'loss'), sortHeader('Read', 'evidence_at')),
              ),
              h(
                'tbody',
                {},
                rows.map((r) =>
                  h(
                    'tr',
                    { 'data-plot-id': r.id },
                    h('td', { 'data-label': 'Select' }, h('input', {
                      type: 'checkbox',
                      'aria-label': `Select ${r.external_ref ?? r.id}`,
                      checked: selected.has(r.id),
                      onchange: (e) => {
                        e.target.checked ? selected.set(r.id, r.external_ref ?? r.id) : selected.delete(r.id);
                        selectionChanged();
                      },
                    })),
                    h('td', { 'data-label': 'Reference' }, h('a', { href: `#/plots/${encodeURIComponent(r.id)}` }, r.external_ref ?? r.id)),
                    h('td', { 'data-label': 'Commodity' }, r.commodity ?? '—'),
                    h('td', { 'data-label': 'Country' }, r.country ?? '—'),
                    h('td', { 'data-label': 'Area (ha)', class: 'num' }, number(r.area_ha, 2)),
                    h('td', { 'data-label': 'Evidence', class: 'evidence-state' }, r.validation_state === 'rejected' ? h('span', { class: 'rejected' }, 'rejected at upload') : words(r.evidence_state)),
                    h('td', { 'data-label': 'State' }, toneBadge(r.state)),
                    h('td', { 'data-label': 'Verdict', class: 'verdict' }, r.verdict ? coded(texts.verdicts[r.verdict]?.title, r.verdict) : '—'),
                    h('td', { 'data-label': 'Loss after the cutoff', class: 'post-cutoff-loss' }, lossCell(r)),
                    h('td', { 'data-label': 'Read' }, when(r.evidence_at)),
                  ),
                ),
              ),
            ),
          ),
    );
  }

  // A filtered list stops counting past a window: its total is then "more than" (total_exact false).
  function countText() {
    const first = page.total === 0 ? 0 : view.offset + 1;
    return `Plots ${first} to ${Math.min(view.offset + view.limit, page.total)} of ${page.total_exact === false ? 'more than ' : ''}${page.total}`;
  }

  async function load(focusCount = true) {
    try {
      page = await api('GET', '/portal/plots', { query: { state: view.state, q: view.q, shipment_id: view.shipment, post_cutoff_loss: view.loss, limit: view.limit, offset: view.offset } });
      draw();
      if (focusCount) announce(countText());
    } catch (err) {
      clear(rowsBox, errorNotice(err, 'The register could not be read'));
    }
  }

  clear(main, h('h1', {}, 'Register'), filters, actions, status, progress, rowsBox);
  selectionChanged();
  await load(false);
  const summary = await api('GET', '/portal/plots/evidence/summary');
  if (summary.states.queued + summary.states.running > 0) watch();
}
