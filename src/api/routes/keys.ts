import Router from '@koa/router';
import type { Context } from 'koa';
import type { SeatRole } from '../../store/entities/index.ts';
import { listKeys, MAX_ACTIVE_KEYS, mintKey, revokeKey, type MintedKey } from '../../accounts/keys.ts';
import { authenticate, callerOf } from '../auth.ts';
import type { Services } from '../context.ts';
import { keyBody, readBody } from '../bodies.ts';
import { pathId } from '../parse.ts';

function shownOnce(k: MintedKey) {
  return {
    id: k.id,
    key: k.key,
    prefix: k.prefix,
    role: k.role,
    label: k.label,
    workspace_id: k.workspaceId,
    created_at: k.createdAt.toISOString(),
    note: 'This key is shown once. Store it now; the service keeps only its hash.',
  };
}

/** Keys are minted and revoked from a signed-in session (spec 4.7, 5.2); a key carries its seat's access. */
export function keyRoutes(services: Services) {
  const router = new Router();
  const session = authenticate(services, { sessionOnly: true });

  // A key carries its seat's access: studio minting gives the seat's own key, a workspace member's or
  // a reviewer's (the family gate refuses portal seats there); portal minting gives a portal key whatever the seat.
  const mint = (role: (seat: SeatRole) => SeatRole) => async (ctx: Context) => {
    const caller = callerOf(ctx);
    const label = readBody(ctx, keyBody).label ?? null;
    ctx.status = 201;
    ctx.body = shownOnce(await mintKey(services.store.em(), { workspaceId: caller.workspaceId, role: role(caller.role), createdBy: caller.userId, label }));
  };
  router.post('/api-keys', session, mint((seat) => seat));

  router.get('/portal/api-keys', session, async (ctx) => {
    const caller = callerOf(ctx);
    ctx.body = { keys: await listKeys(services.store.em(), caller.workspaceId), max_active: MAX_ACTIVE_KEYS };
  });

  router.post('/portal/api-keys', session, mint(() => 'portal'));

  router.delete('/portal/api-keys/:id', session, async (ctx) => {
    const caller = callerOf(ctx);
    ctx.body = await revokeKey(services.store.em(), services.keys, caller.workspaceId, pathId(ctx, 'API key'));
  });
  return router;
}
