import Router from '@koa/router';
import type { Context } from 'koa';
import { invalid } from '../../errors.ts';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../store/entities/index.ts';
import { EVENT_TYPES } from '../../store/outbox.ts';
import { getDelivery, retryDelivery } from '../../webhooks/deliveries.ts';
import { RETENTION_MS } from '../../webhooks/dispatcher.ts';
import { createEndpoint, deleteEndpoint, endpointDeliveries, listEndpoints, MAX_ENDPOINTS, rotateSecret, updateEndpoint } from '../../webhooks/endpoints.ts';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../webhooks/retry-schedule.ts';
import { configuredSender, ATTEMPT_TIMEOUT_MS } from '../../webhooks/send.ts';
import { SIGNATURE_SCHEME, TIMESTAMP_TOLERANCE_S } from '../../webhooks/signature.ts';
import { sendTestEvent } from '../../webhooks/test-event.ts';
import { authenticate, callerOf } from '../auth.ts';
import { readBody, webhookBody, webhookChangeBody } from '../bodies.ts';
import type { Services } from '../context.ts';
import { isUuid, pathId } from '../parse.ts';
import { queryInteger, queryText } from '../query.ts';

export const DELIVERY_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** What the endpoint list tells a receiver's author: the event names, how to verify, when it is retried. */
const RULES = {
  event_types: EVENT_TYPES,
  signing: {
    header: 'X-Service-Signature',
    scheme: SIGNATURE_SCHEME,
    signed_text: 'the X-Service-Timestamp value, a full stop, then the raw body exactly as received',
    algorithm: 'HMAC-SHA256 under the endpoint secret, lower-case hex; accept when any v1 entry matches',
    timestamp_header: 'X-Service-Timestamp',
    tolerance_seconds: TIMESTAMP_TOLERANCE_S,
    standard_webhooks: 'webhook-id (the event id), webhook-timestamp and webhook-signature (v1, base64 HMAC-SHA256 of id.timestamp.body) as standardwebhooks.com defines them: its verifier libraries take the secret as shown',
  },
  delivery: {
    timeout_seconds: ATTEMPT_TIMEOUT_MS / 1000,
    retry_after_seconds: RETRY_DELAYS_MS.map((ms) => ms / 1000),
    max_attempts: MAX_ATTEMPTS,
    redirects_followed: false,
    retention_days: RETENTION_MS / (24 * 3600_000),
  },
};

function statusFilter(ctx: Context): DeliveryStatus | null {
  const text = queryText(ctx, 'status');
  if (text === null) return null;
  if (!(DELIVERY_STATUSES as readonly string[]).includes(text)) throw invalid('bad_status', `status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  return text as DeliveryStatus;
}

function endpointFilter(ctx: Context): string | null {
  const text = queryText(ctx, 'endpoint_id');
  if (text !== null && !isUuid(text)) throw invalid('bad_endpoint_id', 'endpoint_id must be the id of a webhook endpoint (a UUID)');
  return text?.toLowerCase() ?? null;
}

/** Webhook endpoints and their delivery log (spec 4.8), with a key or a session. */
export function webhookRoutes(services: Services) {
  const router = new Router();
  const auth = authenticate(services);
  const em = () => services.store.em();
  const sender = configuredSender(services.config);
  const workspaceOf = (ctx: Context) => callerOf(ctx).workspaceId;

  router.get('/portal/webhooks', auth, async (ctx) => {
    ctx.body = { endpoints: await listEndpoints(em(), workspaceOf(ctx)), max_endpoints: MAX_ENDPOINTS, ...RULES };
  });

  router.post('/portal/webhooks', auth, async (ctx) => {
    const body = readBody(ctx, webhookBody);
    ctx.status = 201;
    ctx.body = await createEndpoint(em(), sender.guard, workspaceOf(ctx), body);
  });

  router.get('/portal/webhooks/deliveries', auth, async (ctx) => {
    ctx.body = await endpointDeliveries(em(), workspaceOf(ctx), {
      endpointId: endpointFilter(ctx),
      status: statusFilter(ctx),
      limit: queryInteger(ctx, 'limit', DELIVERY_PAGE.defaultLimit, 1, DELIVERY_PAGE.maxLimit),
      cursor: queryText(ctx, 'cursor'),
    });
  });

  router.get('/portal/webhooks/deliveries/:id', auth, async (ctx) => {
    ctx.body = await getDelivery(em(), workspaceOf(ctx), pathId(ctx, 'webhook delivery'));
  });

  router.post('/portal/webhooks/deliveries/:id/retry', auth, async (ctx) => {
    ctx.status = 202;
    ctx.body = await retryDelivery(em(), workspaceOf(ctx), pathId(ctx, 'webhook delivery'), sender.clock());
  });

  router.patch('/portal/webhooks/:id', auth, async (ctx) => {
    const id = pathId(ctx, 'webhook endpoint');
    ctx.body = await updateEndpoint(em(), sender.guard, workspaceOf(ctx), id, readBody(ctx, webhookChangeBody));
  });

  router.delete('/portal/webhooks/:id', auth, async (ctx) => {
    ctx.body = await deleteEndpoint(em(), workspaceOf(ctx), pathId(ctx, 'webhook endpoint'));
  });

  router.post('/portal/webhooks/:id/rotate-secret', auth, async (ctx) => {
    ctx.body = await rotateSecret(em(), workspaceOf(ctx), pathId(ctx, 'webhook endpoint'));
  });

  router.post('/portal/webhooks/:id/test', auth, async (ctx) => {
    ctx.body = await sendTestEvent(em(), sender, workspaceOf(ctx), pathId(ctx, 'webhook endpoint'));
  });
  return router;
}
