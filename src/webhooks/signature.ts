import { createHmac, randomBytes } from 'node:crypto';

/** The signature scheme of spec 6.3, labelled `v1`. */
export const SIGNATURE_SCHEME = 'v1';
/** How far from its clock a receiver accepts a timestamp (spec 8). */
export const TIMESTAMP_TOLERANCE_S = 300;

const SECRET_PREFIX = 'whsec_';

/**
 * A new signing secret: 32 random bytes in standard base64, so the Standard Webhooks libraries read
 * the secret as shown (they decode the text after `whsec_` as base64 and refuse `-` and `_`).
 */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** What lists show instead of the secret: enough to tell two apart. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}

/** `X-Service-Signature`: `v1=` and the lower-case hex HMAC-SHA256 of `timestamp.body` under the secret. */
export function signatureHeader(secret: string, timestamp: number, body: Buffer): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(body);
  return `${SIGNATURE_SCHEME}=${hmac.digest('hex')}`;
}

/**
 * The Standard Webhooks headers (standardwebhooks.com): `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256 of `id.timestamp.body`, keyed, as the standard defines it, with the bytes the secret's
 * base64 after `whsec_` encodes. Secrets issued in the URL-safe alphabet decode to the same bytes here.
 */
export function standardWebhookHeaders(secret: string, id: string, timestamp: number, body: Buffer): Record<string, string> {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const hmac = createHmac('sha256', key);
  hmac.update(`${id}.${timestamp}.`);
  hmac.update(body);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `${SIGNATURE_SCHEME},${hmac.digest('base64')}` };
}
