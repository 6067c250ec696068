import { api, keepSession } from '../api.js';
import { announce, clear, errorNotice, h, labelled } from '../ui.js';

export async function signInPage(main) {
  const status = h('div');
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const form = h(
    'form',
    {
      class: 'stack',
      onsubmit: async (e) => {
        e.preventDefault();
        clear(status);
        try {
          const answer = await api('POST', '/auth/sign-in', { body: { email: email.value, password: password.value } });
          if (answer.workspaces.length === 0) {
            clear(status, errorNotice({ message: 'this account has no seat in any workspace; ask an administrator for one' }, 'Signed in'));
            return;
          }
          keepSession({ user: answer.user, workspaces: answer.workspaces, workspaceId: answer.workspaces[0].id, expiresAt: answer.expires_at });
          announce('Signed in');
          location.hash = '#/workspace';
        } catch (err) {
          clear(status, errorNotice(err, 'Sign-in refused'));
        }
      },
    },
    labelled('Email', email),
    labelled('Password', password),
    h('div', {}, h('button', { type: 'submit' }, 'Sign in')),
  );
  clear(main, h('h1', {}, 'Sign in'), h('p', { class: 'muted' }, 'Sign in with the email and password of your seat. API keys for your platform are minted here once you are in.'), form, status);
  email.focus();
}
