import { createHmac, randomBytes } from 'node:crypto';

/** The signature scheme of spec 6.3, labelled `v1`. */
export const SIGNATURE_SCHEME = 'v1';
/** How far from its clock a receiver accepts a timestamp (spec 8). */
export const TIMESTAMP_TOLERANCE_S = 300;

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
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
