import Router from '@koa/router';
import { SESSION_COOKIE, SESSION_DAYS, signIn, signOut } from '../../accounts/sessions.ts';
import type { Services } from '../context.ts';
import { invalid } from '../../errors.ts';
import { objectBody, requiredString } from '../parse.ts';

/** Browser sign-in: email and password give a session cookie; keys are then minted from the session. */
export function sessionRoutes(services: Services) {
  const router = new Router();
  router.post('/auth/sign-in', async (ctx) => {
    const body = objectBody(ctx);
    const email = requiredString(body, 'email', 'email_required');
    const password = requiredString(body, 'password', 'password_required');
    const result = await signIn(services.store.em(), email, password);
    ctx.cookies.set(SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: services.config.baseUrl.startsWith('https:'),
      maxAge: SESSION_DAYS * 86_400_000,
      path: '/',
    });
    ctx.body = { user: result.user, workspaces: result.workspaces, expires_at: result.expiresAt.toISOString() };
  });
  router.post('/auth/sign-out', async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (!token) throw invalid('not_signed_in', 'no session cookie on this request');
    await signOut(services.store.em(), token);
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
    ctx.status = 204;
  });
  return router;
}
