import Router from '@koa/router';
import { SESSION_COOKIE, SESSION_DAYS, signIn, signOut } from '../../accounts/sessions.ts';
import type { Services } from '../context.ts';
import { invalid } from '../../errors.ts';
import { jsonBody, refuseCrossSiteSignIn } from '../middleware.ts';
import { readBody, signInBody } from '../bodies.ts';

/** Browser sign-in: email and password give a session cookie; keys are then minted from the session. */
export function sessionRoutes(services: Services) {
  const router = new Router();
  const publicHttps = services.config.baseUrl.startsWith('https:');
  router.post('/auth/sign-in', refuseCrossSiteSignIn(services.config.baseUrl), jsonBody, async (ctx) => {
    const { email, password } = readBody(ctx, signInBody);
    const result = await signIn(services.store.em(), email, password, ctx.ip);
    // Secure when browsers reach the service over https: its public address says so, or a trusted proxy
    // (TRUST_PROXY) forwarded an https request. The jar is told the channel is secure, since the last
    // hop may be plain HTTP and it would otherwise refuse to write the cookie.
    const secure = publicHttps || ctx.secure;
    ctx.cookies.secure = secure;
    ctx.cookies.set(SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
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
