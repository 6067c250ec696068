// Outbound HTTP for the archive layer: got for transport (keep-alive agents, timeouts,
// redirects), with our own retry loop so the bound, the jitter and what counts as
// retryable are decided in one place and every failure leaves as a SourceError.
import http from 'node:http';
import https from 'node:https';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import got, { type Request as GotRequest } from 'got';
import pkg from '../../../package.json' with { type: 'json' };
import { isTransient, SourceError } from './errors.ts';

export interface HttpClientOptions {
  /** Limit for connecting, for the first byte of an answer, and for a body that stalls (ms). */
  timeoutMs?: number;
  /** Attempts after the first one, for 5xx/429, timeouts, resets and cut bodies. */
  retries?: number;
  /** Full-jitter backoff: attempt n sleeps uniformly in [0, min(retryCapMs, retryBaseMs * 2^n)). */
  retryBaseMs?: number;
  retryCapMs?: number;
  userAgent?: string;
  /** Open sockets per host; keep-alive reuses them across range reads. */
  maxSockets?: number;
}

export type Headers = Record<string, string>;

export interface RequestOptions {
  headers?: Headers;
  signal?: AbortSignal;
  /** Largest body accepted; a larger one ends the request with `too_large`. */
  maxBytes?: number;
}

export interface GetOptions extends RequestOptions {
  /** Byte range, both ends inclusive, sent as `Range: bytes=start-end`. */
  range?: [number, number];
  /** Allocate the body on a SharedArrayBuffer so worker threads can read it without a copy. */
  shared?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Uint8Array;
  /** The address that answered, after redirects. */
  url: string;
}

export interface HttpClient {
  readonly userAgent: string;
  /** GET answering 2xx (200 and 206 alike; the caller judges a range answer). */
  get(url: string, opts?: GetOptions): Promise<HttpResponse>;
  getJson<T = unknown>(url: string, opts?: RequestOptions): Promise<T>;
  /** POST a JSON body; the body is sent again on 307/308 redirects. */
  postJson<T = unknown>(url: string, body: unknown, opts?: RequestOptions): Promise<T>;
  /** Streams a whole file to `path` (written beside it, then renamed), for hosts without Range. */
  download(url: string, path: string, opts?: Omit<RequestOptions, 'maxBytes'>): Promise<number>;
  close(): void;
}

const DEFAULTS = { timeoutMs: 30_000, retries: 3, retryBaseMs: 200, retryCapMs: 10_000, maxSockets: 16 };
const JSON_MAX_BYTES = 64 * 1024 * 1024;
const ERROR_SNIPPET_BYTES = 4096;

export const DEFAULT_USER_AGENT = `precutoff-evidence/${pkg.version}`;

function checkNonNegative(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`http client option "${name}" must be a non-negative number, got ${value}`);
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const o = { ...DEFAULTS, ...options };
  for (const name of ['timeoutMs', 'retries', 'retryBaseMs', 'retryCapMs', 'maxSockets'] as const) checkNonNegative(name, o[name]);
  if (!Number.isInteger(o.retries)) throw new TypeError(`http client option "retries" must be an integer, got ${o.retries}`);
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const agent = {
    http: new http.Agent({ keepAlive: true, maxSockets: o.maxSockets }),
    https: new https.Agent({ keepAlive: true, maxSockets: o.maxSockets }),
  };
  // `socket` is an idle limit, so a slow but moving body is never cut; a stalled one is.
  const timeout = { connect: o.timeoutMs, response: o.timeoutMs, socket: o.timeoutMs };
  // Full jitter: many clients retrying after one outage spread out instead of arriving together.
  const backoff = (attempt: number, signal: AbortSignal | undefined) => sleep(Math.random() * Math.min(o.retryCapMs, o.retryBaseMs * 2 ** attempt), signal);

  interface Exchange {
    method: 'GET' | 'POST';
    headers: Headers;
    body?: string;
    maxBytes: number;
    shared: boolean;
    decompress: boolean;
    signal?: AbortSignal;
  }

  function open(url: string, x: Exchange): GotRequest {
    return got.stream(url, {
      method: x.method,
      headers: { 'user-agent': userAgent, ...x.headers },
      body: x.body,
      agent,
      timeout,
      retry: { limit: 0 },
      throwHttpErrors: false,
      decompress: x.decompress,
      strictContentLength: true,
      followRedirect: true,
      methodRewriting: false,
      signal: x.signal,
    });
  }

  function exchange(url: string, x: Exchange): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const request = open(url, x);
      let settled = false;
      let status = 0;
      let headers: http.IncomingHttpHeaders = {};
      let finalUrl = url;
      let target: Uint8Array | null = null;
      const chunks: Buffer[] = [];
      let received = 0;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        request.destroy();
        reject(err);
      };
      const tooLarge = (size: number) =>
        fail(new SourceError('too_large', `${addressOf(url)} answered a body of ${size} bytes, more than the ${x.maxBytes} allowed`, { url, status }));
      let limit = x.maxBytes;
      request.on('response', (res: http.IncomingMessage & { url?: string }) => {
        status = res.statusCode ?? 0;
        headers = res.headers;
        finalUrl = res.url ?? url;
        // A refusal is read only far enough to quote it in the error.
        if (status >= 400) return void (limit = ERROR_SNIPPET_BYTES);
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > limit) return tooLarge(declared);
        const encoded = x.decompress && res.headers['content-encoding'] !== undefined && res.headers['content-encoding'] !== 'identity';
        // Known length and no decoding: write chunks straight into the final buffer.
        if (!encoded && Number.isFinite(declared)) target = allocate(declared, x.shared);
      });
      request.on('data', (chunk: Buffer) => {
        if (status >= 400) {
          if (received < limit) chunks.push(chunk.subarray(0, limit - received));
          received = Math.min(limit, received + chunk.length);
          return;
        }
        received += chunk.length;
        if (received > limit) return tooLarge(received);
        if (target === null) chunks.push(chunk);
        else if (received <= target.length) target.set(chunk, received - chunk.length);
      });
      request.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ status, headers, url: finalUrl, body: target ?? concat(chunks, received, x.shared) });
      });
      request.on('error', (err: Error & { code?: string }) => fail(translate(err, url, status !== 0, x.signal)));
    });
  }

  async function withRetries(url: string, x: Exchange): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await exchange(url, x);
        if (res.status >= 400) throw statusError(res, url);
        return res;
      } catch (err) {
        if (x.signal?.aborted) throw x.signal.reason;
        if (attempt >= o.retries || !isTransient(err)) throw err;
        await backoff(attempt, x.signal);
      }
    }
  }

  return {
    userAgent,
    get(url, opts = {}) {
      const headers: Headers = { ...opts.headers };
      if (opts.range) headers.range = `bytes=${opts.range[0]}-${opts.range[1]}`;
      // A range read must count stored bytes, so no content coding is negotiated for it.
      return withRetries(url, {
        method: 'GET',
        headers,
        maxBytes: opts.maxBytes ?? Number.POSITIVE_INFINITY,
        shared: opts.shared ?? false,
        decompress: opts.range === undefined,
        signal: opts.signal,
      });
    },
    async getJson<T>(url: string, opts: RequestOptions = {}) {
      const res = await withRetries(url, {
        method: 'GET',
        headers: { accept: 'application/json', ...opts.headers },
        maxBytes: opts.maxBytes ?? JSON_MAX_BYTES,
        shared: false,
        decompress: true,
        signal: opts.signal,
      });
      return jsonBody<T>(res, url);
    },
    async postJson<T>(url: string, body: unknown, opts: RequestOptions = {}) {
      const res = await withRetries(url, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', ...opts.headers },
        body: JSON.stringify(body),
        maxBytes: opts.maxBytes ?? JSON_MAX_BYTES,
        shared: false,
        decompress: true,
        signal: opts.signal,
      });
      return jsonBody<T>(res, url);
    },
    async download(url, path, opts = {}) {
      const partial = `${path}.partial-${process.pid}`;
      for (let attempt = 0; ; attempt++) {
        let status = 0;
        let refusal: SourceError | null = null;
        try {
          const request = open(url, { method: 'GET', headers: { ...opts.headers }, maxBytes: Infinity, shared: false, decompress: true, signal: opts.signal });
          let bytes = 0;
          request.on('response', (res: http.IncomingMessage) => {
            status = res.statusCode ?? 0;
            if (status < 400) return;
            refusal = statusError({ status, headers: res.headers, body: new Uint8Array(0), url }, url);
            request.destroy(refusal);
          });
          request.on('data', (chunk: Buffer) => (bytes += chunk.length));
          await pipeline(request, createWriteStream(partial));
          await rename(partial, path);
          return bytes;
        } catch (err) {
          await rm(partial, { force: true });
          if (opts.signal?.aborted) throw opts.signal.reason;
          const e = refusal ?? translate(err as Error & { code?: string }, url, status !== 0, opts.signal);
          if (attempt >= o.retries || !isTransient(e)) throw e;
          await backoff(attempt, opts.signal);
        }
      }
    },
    close() {
      agent.http.destroy();
      agent.https.destroy();
    },
  };
}

function allocate(size: number, shared: boolean): Uint8Array {
  return shared ? new Uint8Array(new SharedArrayBuffer(size)) : new Uint8Array(size);
}

function concat(chunks: Buffer[], size: number, shared: boolean): Uint8Array {
  const out = allocate(size, shared);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** An address as a message shows it: without its query, which may carry a token. */
function addressOf(url: string): string {
  return url.replace(/[?#].*$/, '');
}

/** The body of an answer read as JSON; anything else is `invalid_response`. */
export function jsonBody<T>(res: HttpResponse, url: string): T {
  try {
    return JSON.parse(Buffer.from(res.body.buffer, res.body.byteOffset, res.body.byteLength).toString('utf8')) as T;
  } catch (cause) {
    throw new SourceError('invalid_response', `${addressOf(url)} did not answer JSON`, { url, status: res.status, cause });
  }
}

/** A refusal (status 400 and above) as the error every client throws: `not_found` for 404, else `http_status`. */
export function statusError(res: HttpResponse, url: string): SourceError {
  const detail = Buffer.from(res.body.buffer, res.body.byteOffset, Math.min(res.body.byteLength, 200)).toString('utf8').trim();
  const message = `${addressOf(url)} answered ${res.status}${detail ? `: ${detail}` : ''}`;
  return new SourceError(res.status === 404 ? 'not_found' : 'http_status', message, { url, status: res.status });
}

function translate(err: Error & { code?: string }, url: string, answered: boolean, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  if (err instanceof SourceError) return err;
  if (err.code === 'ETIMEDOUT') return new SourceError('timeout', `${addressOf(url)} did not answer in time (${err.message})`, { url, cause: err });
  // Once an answer has begun, losing the rest of it is a cut body, never a shorter file.
  if (answered || err.code === 'ERR_HTTP_CONTENT_LENGTH_MISMATCH') {
    return new SourceError('truncated', `${addressOf(url)} cut its answer short (${err.message})`, { url, cause: err });
  }
  return new SourceError('network', `${addressOf(url)} could not be reached (${err.code ?? err.message})`, { url, cause: err });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
