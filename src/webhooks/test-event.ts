import type { Em } from '../store/orm.ts';
import { claimTestDelivery, getDelivery, recordAttempts } from './deliveries.ts';
import { endpointTarget } from './endpoints.ts';
import { attemptDelivery, LEASE_MS, type Sender } from './send.ts';

/**
 * The test route (spec 4.8): a `webhook.test` event sent to one endpoint now, from the calling
 * process, whatever the endpoint's events; the answer says what the receiver answered. The
 * delivery is logged like any other, and retried on the schedule if it failed.
 */
export async function sendTestEvent(em: Em, sender: Sender, workspaceId: string, endpointId: string) {
  const endpoint = await endpointTarget(em, workspaceId, endpointId);
  const claimed = await claimTestDelivery(em, workspaceId, endpoint, sender.clock(), LEASE_MS);
  const result = await attemptDelivery(sender, claimed);
  await recordAttempts(em, [{ claimed, result, at: sender.clock() }]);
  const { event: _event, ...delivery } = await getDelivery(em, workspaceId, claimed.deliveryId);
  return {
    delivered: result.delivered,
    status_code: result.statusCode,
    error: result.error,
    answer: result.answer,
    duration_ms: result.durationMs,
    delivery,
  };
}
