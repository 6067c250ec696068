import { api, session } from '../api.js';
import { allowance, clear, facts, h, number, words } from '../ui.js';

/** The chosen workspace: its plan, the seat, the evidence allowance and where its plots stand. */
export async function workspacePage(main) {
  const s = session();
  const ws = s.workspaces.find((w) => w.id === s.workspaceId);
  const summary = await api('GET', '/portal/plots/evidence/summary');
  const states = Object.entries(summary.states ?? {});
  clear(
    main,
    h('h1', {}, ws?.name ?? 'Workspace'),
    h(
      'div',
      { class: 'grid' },
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'ws-seat' },
        h('h2', { id: 'ws-seat' }, 'Your seat'),
        facts([
          ['Signed in as', s.user.email],
          ['Workspace id', h('code', {}, s.workspaceId)],
          ['Plan', words(summary.plan ?? ws?.plan)],
          ['Role', words(ws?.role)],
        ]),
      ),
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'ws-allowance' },
        h('h2', { id: 'ws-allowance' }, 'Evidence allowance'),
        facts([
          ['Used', number(summary.used, 0)],
          ['Cap', allowance(summary.cap)],
        ]),
        h('p', { class: 'muted' }, 'One plot read to the end uses one unit; a failed read uses none.'),
      ),
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'ws-plots' },
        h('h2', { id: 'ws-plots' }, 'Plots by evidence state'),
        facts(states.map(([k, v]) => [words(k), number(v, 0)])),
        h('p', {}, h('a', { href: '#/upload' }, 'Upload a book'), ' · ', h('a', { href: '#/register' }, 'Open the register')),
      ),
    ),
  );
}
