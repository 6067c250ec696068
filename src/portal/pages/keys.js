import { api } from '../api.js';
import { announce, clear, errorNotice, h, labelled, notice, table, when } from '../ui.js';

/** Settings, API access (spec 4.7, 5.2): mint a portal key, shown once; list keys by their hints; revoke. */
export async function keysPage(main) {
  const shown = h('div');
  const status = h('div');
  const list = h('div');
  const label = h('input', { name: 'label', maxlength: 100, placeholder: 'e.g. nightly sync' });

  async function refresh() {
    const { keys, max_active: max } = await api('GET', '/portal/api-keys');
    const active = keys.filter((k) => !k.revoked_at).length;
    clear(
      list,
      h('p', {}, `${active} of ${max} active keys.`),
      table('API keys of this workspace', [
        { label: 'Key', cell: (k) => h('code', {}, `${k.prefix}…`) },
        { label: 'Label', cell: (k) => k.label ?? '—' },
        { label: 'Role', cell: (k) => k.role },
        { label: 'Created', cell: (k) => when(k.created_at) },
        { label: 'Last used', cell: (k) => when(k.last_used_at) },
        { label: 'State', cell: (k) => (k.revoked_at ? `Revoked ${when(k.revoked_at)}` : 'Active') },
        {
          label: 'Action',
          cell: (k) =>
            k.revoked_at
              ? ''
              : h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke key ${k.prefix}${k.label ? ` (${k.label})` : ''}`, onclick: () => revoke(k) }, 'Revoke'),
        },
      ], keys, { empty: 'No keys yet.' }),
    );
  }

  async function revoke(k) {
    if (!confirm(`Revoke the key ${k.prefix}…? Calls made with it are refused from now on.`)) return;
    try {
      await api('DELETE', `/portal/api-keys/${encodeURIComponent(k.id)}`);
      clear(status, notice(`Key ${k.prefix}… revoked.`));
      announce('Key revoked');
      await refresh();
    } catch (err) {
      clear(status, errorNotice(err, 'The key was not revoked'));
    }
  }

  const form = h(
    'form',
    {
      class: 'row',
      onsubmit: async (e) => {
        e.preventDefault();
        clear(status);
        try {
          const minted = await api('POST', '/portal/api-keys', { body: label.value.trim() ? { label: label.value.trim() } : {} });
          const secret = h('p', { class: 'secret', id: 'new-key' }, minted.key);
          const copy = h('button', {
            type: 'button',
            class: 'secondary',
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(minted.key);
                copy.textContent = 'Copied';
                announce('Key copied to the clipboard');
              } catch {
                announce('Copying was refused by the browser; select the key and copy it by hand');
              }
            },
          }, 'Copy the key');
          clear(shown, h('section', { class: 'panel', 'aria-labelledby': 'new-key-title' }, h('h2', { id: 'new-key-title' }, 'Your new key'), notice(minted.note, 'warn'), secret, copy));
          label.value = '';
          await refresh();
          copy.focus();
        } catch (err) {
          clear(status, errorNotice(err, 'No key was minted'));
        }
      },
    },
    labelled('Label (optional)', label),
    h('button', { type: 'submit', id: 'mint-key' }, 'Mint a key'),
  );

  clear(
    main,
    h('h1', {}, 'API keys'),
    h('p', { class: 'muted' }, 'A key lets your platform call the portal routes (/portal, /eudr/alerts, /tiles) for this workspace. Send it as Authorization: Bearer <key>.'),
    form,
    status,
    shown,
    h('h2', {}, 'Keys'),
    list,
  );
  await refresh();
}
