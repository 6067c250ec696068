/**
 * One attempt at one delivery (spec 6.1, 6.4): the address guard resolves the host once, the POST
 * connects to that address (the host name still goes in Host and in TLS SNI), the body is signed at
 * the moment of sending with the endpoint's secret as it is now, and the attempt ends at the first
 * 2xx, other answer, error or 10 s, whichever comes first. Redirects are answers, never followed.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import got from 'got';
import { DomainError } from '../errors.ts';
import type { OutboxEventRow } from '../store/outbox.ts';
import { addressGuard, type AddressGuard, type Pinned } from './address-guard.ts';
import { signatureHeader, standardWebhookHeaders } from './signature.ts';

/** Spec 8: the receiver has 10 seconds, connection and whole answer together. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const USER_AGENT = 'Service-Webhooks/1';
/**
 * How long a claim holds a delivery; past it the attempt is presumed dead (its process stopped) and
 * the delivery is claimed again. Well over the attempt's own time-out, so a live attempt is never doubled.
 */
export const LEASE_MS = 6 * ATTEMPT_TIMEOUT_MS;
/** How much of a receiver's answer is kept for the log and the test route. */
const ANSWER_BYTES = 1024;

export interface Sender {
  guard: AddressGuard;
  /** The clock that stamps the signature; tests move it. */
  clock: () => Date;
  timeoutMs: number;
}

export interface AttemptTarget {
  deliveryId: string;
  url: string;
  secret: string;
  event: OutboxEventRow;
}

export interface AttemptResult {
  delivered: boolean;
  /** The receiver's status, null when none came (refused address, connection error, timeout). */
  statusCode: number | null;
  /** Why it did not deliver, in words; null on a delivery. */
  error: string | null;
  /** The start of the receiver's answer body. */
  answer: string | null;
  durationMs: number;
}

/** The body of spec 6.1, byte for byte what is signed and sent. */
export function eventBody(event: OutboxEventRow): Buffer {
  return Buffer.from(
    JSON.stringify({ id: event.id, type: event.type, created: new Date(event.created_at).toISOString(), workspace_id: event.workspace_id, data: event.data }),
  );
}

// Connections are kept between attempts; each was opened to an address the guard passed.
const agent = { http: new http.Agent({ keepAlive: true, maxSockets: 8 }), https: new https.Agent({ keepAlive: true, maxSockets: 8 }) };

/**
 * A lookup that answers only the checked address: the connection cannot go anywhere else. It answers
 * on a later turn, as a real lookup does: answered at once, a connect the kernel refuses at once
 * (ENETUNREACH, EPERM) destroyed the socket inside tls.connect, before any listener was attached,
 * and its 'error' ended the process.
 */
function pinnedLookup(pinned: Pinned): LookupFunction {
  return (_hostname, options, callback) => {
    setImmediate(() => {
      if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: pinned.address, family: pinned.family }]);
      else callback(null, pinned.address, pinned.family);
    });
  };
}

function failure(error: string, started: number, statusCode: number | null = null, answer: string | null = null): AttemptResult {
  return { delivered: false, statusCode, error, answer, durationMs: Date.now() - started };
}

export async function attemptDelivery(sender: Sender, target: AttemptTarget): Promise<AttemptResult> {
  const started = Date.now();
  let pinned: Pinned;
  try {
    pinned = await sender.guard.check(target.url);
  } catch (err) {
    if (err instanceof DomainError) return failure(`not sent: ${err.message}`, started);
    throw err;
  }
  const body = eventBody(target.event);
  const timestamp = Math.floor(sender.clock().getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event': target.event.type,
    'x-service-event-id': target.event.id,
    'x-service-delivery': target.deliveryId,
    'x-service-timestamp': String(timestamp),
    'x-service-signature': signatureHeader(target.secret, timestamp, body),
    // The same attempt signed as Standard Webhooks has it, keyed on the event id: its verifiers deduplicate on webhook-id.
    ...standardWebhookHeaders(target.secret, target.event.id, timestamp, body),
  };
  return new Promise<AttemptResult>((resolve) => {
    const request = got.stream.post(pinned.url, {
      body,
      headers,
      agent,
      dnsLookup: pinnedLookup(pinned) as never,
      timeout: { request: sender.timeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      decompress: false,
    });
    let statusCode: number | null = null;
    let location: string | undefined;
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      request.destroy();
      resolve(result);
    };
    const finish = () => {
      const answer = kept > 0 ? Buffer.concat(chunks).toString('utf8') : null;
      const code = statusCode ?? 0;
      if (code >= 200 && code < 300) return settle({ delivered: true, statusCode, error: null, answer, durationMs: Date.now() - started });
      const why = code >= 300 && code < 400 ? `answered ${code}, a redirect${location ? ` to ${location}` : ''}, which is not followed` : `answered ${code}`;
      settle(failure(why, started, statusCode, answer));
    };
    request.on('response', (res: http.IncomingMessage) => {
      statusCode = res.statusCode ?? 0;
      location = res.headers.location;
    });
    request.on('data', (chunk: Buffer) => {
      if (kept < ANSWER_BYTES) {
        chunks.push(chunk.subarray(0, ANSWER_BYTES - kept));
        kept = Math.min(ANSWER_BYTES, kept + chunk.length);
      }
      // The answer decides nothing beyond its status; what is kept is enough to quote it.
      if (kept >= ANSWER_BYTES) finish();
    });
    request.on('end', finish);
    request.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ETIMEDOUT') return settle(failure(`no complete answer within ${sender.timeoutMs / 1000} s`, started, statusCode));
      settle(failure(`${err.code ?? 'error'}: ${err.message}`, started, statusCode));
    });
  });
}

/** The sender a process uses: the guard as configured (the loopback switch), the system clock and spec 8's time-out. */
export function configuredSender(config: { webhookAllowLoopback: boolean }): Sender {
  return { guard: addressGuard({ allowLoopback: config.webhookAllowLoopback }), clock: () => new Date(), timeoutMs: ATTEMPT_TIMEOUT_MS };
}
