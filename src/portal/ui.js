// Small helpers for building the pages: elements, tables, notices and number formats.

/** An element with attributes, properties (on*) and children; strings become text, never HTML. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Says something to screen readers without moving focus. */
export function announce(text) {
  const live = document.getElementById('announce');
  live.textContent = '';
  setTimeout(() => (live.textContent = text), 30);
}

export function notice(text, kind = 'info') {
  return h('div', { class: `notice ${kind === 'info' ? '' : kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** A refusal in words: the service's message says what to fix. */
export function errorNotice(err, what) {
  return notice(`${what}: ${err.message}${err.code ? ` (${err.code})` : ''}`, 'error');
}

/**
 * A form whose submit runs `act` (the page's default submit held back, `status` cleared first); a
 * refusal is said in `status` as "<refused>: message (code)".
 */
export function actionForm(attrs, status, refused, act, ...children) {
  const onsubmit = async (e) => {
    e.preventDefault();
    clear(status);
    try {
      await act();
    } catch (err) {
      clear(status, errorNotice(err, refused));
    }
  };
  return h('form', { ...attrs, onsubmit }, ...children);
}

/**
 * A table with a caption and column headers; `columns` are {label, cell(row) → node|string, num?}.
 */
export function table(caption, columns, rows, { empty = 'Nothing to show.' } = {}) {
  if (rows.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'div',
    scrollable(caption),
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.header ?? c.label)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, columns.map((c) => h('td', { class: c.num ? 'num' : null }, c.cell(r)))))),
    ),
  );
}

/**
 * The box around a wide table: it scrolls sideways, so it takes the keyboard's focus to be scrolled
 * with the arrow keys, and is a region named by the table's caption.
 */
export function scrollable(caption) {
  return { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': caption };
}

export function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.filter(([, v]) => v !== undefined).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v === null ? '—' : v)]));
}

export function toneBadge(state) {
  if (!state) return '—';
  return h('span', { class: `tone tone-${state.tone}`, title: state.summary }, state.label);
}

export const number = (v, digits = 1) => (v === null || v === undefined ? '—' : Number(v).toLocaleString('en', { maximumFractionDigits: digits }));
export const percent = (share) => (share === null || share === undefined ? '—' : `${Math.round(share * 100)}%`);
export const when = (iso) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—');
/** A code such as `prior_management_weak` in words, where no sentence for it is known. */
export const words = (code) => (code ? code.replaceAll('_', ' ') : '—');

/** A code said in words (the service's sentence for it where known), with the code itself beside, for a pipeline that routes on it. */
export function coded(text, code) {
  if (!code) return '—';
  return h('span', { class: 'coded' }, text ?? words(code), ' ', h('code', {}, code));
}

/** A plan's evidence allowance: the cap, or "Unlimited" for a plan without one (cap null). */
export const allowance = (cap) => (cap === null || cap === undefined ? 'Unlimited' : number(cap, 0));

/** What a run leaves of the allowance: "12 of 100 units used", or "12 units used (Unlimited)". */
export const allowanceUse = (used, cap) => (cap === null || cap === undefined ? `${number(used, 0)} units used (Unlimited)` : `${number(used, 0)} of ${number(cap, 0)} units used`);

export function labelled(text, control) {
  return h('label', {}, text, control);
}
