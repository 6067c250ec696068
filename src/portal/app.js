// The portal's shell: the hash route names the page; each page module renders into <main>.
import { api, keepSession, onSignedOut, session } from './api.js';
import { announce, clear, errorNotice, h } from './ui.js';
import { signInPage } from './pages/sign-in.js';
import { workspacePage } from './pages/workspace.js';
import { keysPage } from './pages/keys.js';
import { uploadPage } from './pages/upload.js';
import { registerPage } from './pages/register.js';
import { plotPage } from './pages/plot.js';
import { summaryPage } from './pages/summary.js';
import { alertsPage } from './pages/alerts.js';
import { shipmentsPage } from './pages/shipments.js';
import { producersPage } from './pages/producers.js';
import { webhooksPage } from './pages/webhooks.js';

/** The pages in the navigation, in order; `#/plots/<id>` is reached from the register. */
const PAGES = [
  { path: 'workspace', title: 'Workspace', render: workspacePage },
  { path: 'upload', title: 'Upload', render: uploadPage },
  { path: 'register', title: 'Register', render: registerPage },
  { path: 'summary', title: 'Summary', render: summaryPage },
  { path: 'producers', title: 'Producers', render: producersPage },
  { path: 'shipments', title: 'Shipments', render: shipmentsPage },
  { path: 'alerts', title: 'Alerts', render: alertsPage },
  { path: 'webhooks', title: 'Webhooks', render: webhooksPage },
  { path: 'keys', title: 'API keys', render: keysPage },
];

const main = document.getElementById('main');
/** Each render gets a signal that is aborted when the person leaves the page, so its timers stop. */
let leaving = new AbortController();

export function go(path) {
  location.hash = `#/${path}`;
}

function routeOf(hash) {
  const [first, ...rest] = hash.replace(/^#\/?/, '').split('/');
  if (first === 'plots' && rest[0]) return { page: { path: 'register', title: 'Plot', render: plotPage }, params: { id: decodeURIComponent(rest[0]) } };
  // The register narrowed to one shipment's plots, from the shipments page.
  if (first === 'register' && rest[0] === 'shipment' && rest[1]) return { page: PAGES.find((p) => p.path === 'register'), params: { shipment: decodeURIComponent(rest[1]) } };
  // A new shipment of the register's selection.
  if (first === 'shipments' && rest[0] === 'new') return { page: PAGES.find((p) => p.path === 'shipments'), params: { new: true } };
  if (first === 'sign-in') return { page: { path: 'sign-in', title: 'Sign in', render: signInPage }, params: {} };
  return { page: PAGES.find((p) => p.path === first) ?? PAGES[0], params: {} };
}

function renderNav(current) {
  const signedIn = session() !== null;
  clear(
    document.getElementById('nav'),
    signedIn ? h('ul', {}, PAGES.map((p) => h('li', {}, h('a', { href: `#/${p.path}`, 'aria-current': p.path === current ? 'page' : null }, p.title)))) : null,
  );
  const s = session();
  const account = document.getElementById('account');
  if (!s) return clear(account);
  const choose = h(
    'select',
    {
      id: 'workspace-choice',
      onchange: (e) => {
        keepSession({ ...session(), workspaceId: e.target.value });
        render();
      },
    },
    s.workspaces.map((w) => h('option', { value: w.id, selected: w.id === s.workspaceId }, w.name ?? w.id)),
  );
  clear(
    account,
    h('span', { class: 'muted' }, s.user.email),
    s.workspaces.length > 1 ? h('label', { class: 'row' }, 'Workspace', choose) : null,
    h('button', { type: 'button', class: 'secondary', id: 'sign-out', onclick: signOut }, 'Sign out'),
  );
}

async function signOut() {
  try {
    await api('POST', '/auth/sign-out');
  } catch (err) {
    // A session that had already ended is signed out all the same.
    if (err.status !== 401 && err.code !== 'not_signed_in') {
      clear(main, errorNotice(err, 'Signing out failed'));
      return;
    }
  }
  keepSession(null);
  go('sign-in');
  announce('Signed out');
}

export async function render() {
  leaving.abort();
  leaving = new AbortController();
  let { page, params } = routeOf(location.hash);
  if (!session() && page.path !== 'sign-in') {
    page = routeOf('#/sign-in').page;
  }
  document.title = `${page.title} · Pre-cutoff evidence portal`;
  renderNav(page.path);
  clear(main, h('p', {}, 'Loading…'));
  try {
    await page.render(main, { params, signal: leaving.signal, rerender: render });
  } catch (err) {
    clear(main, h('h1', {}, page.title), errorNotice(err, 'This page could not be shown'));
  }
  main.focus();
}

onSignedOut(() => {
  keepSession(null);
  go('sign-in');
});
window.addEventListener('hashchange', render);
render();
