// A local archive server for tests and benchmarks: serves the files under `root` with Range,
// answers STAC /search over the static catalogue below any path, hosts extra handlers, and
// misbehaves on request: latency, limited bandwidth (per response or shared by all), error statuses, hung requests, cut bodies,
// Range ignored, a mirror down.
// Every request is logged, so a test can count what a client really asked for. The demo world's
// in-process API answers can be put behind it (`answering`, `serveDemoArchive`) to read them over HTTP.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { ApiRoute } from '../../src/demo/api-exchange.ts';
import { demoApiRoute } from '../../src/demo/api-transport.ts';
import { openStaticCatalogue, type StacItem, type StacQuery, type StaticCatalogue } from '../../src/engine/sources/stac.ts';

/** Which requests a fault hits: paths matching `match` (substring or RegExp), the first `count` of them. */
export interface FaultRule {
  match?: string | RegExp;
  count?: number;
}

export interface FaultPlan {
  /** Answer with `status` (default 500). */
  status?: FaultRule & { status?: number };
  /** Accept the request and never answer it. */
  hang?: FaultRule;
  /** Promise the whole body, send `keepBytes` of it (default half), then cut the connection. */
  truncate?: FaultRule & { keepBytes?: number };
  /** Answer a Range request with 200 and the whole file. */
  ignoreRange?: FaultRule;
  /** Path prefixes of mirrors that are down: everything under them answers 503. */
  down?: string[];
}

export interface RequestLog {
  method: string;
  path: string;
  range: string | null;
  /** 0 while unanswered (or never answered: a hang). */
  status: number;
  /** Body bytes written by the file and search answers (a route handler's are not counted). */
  bytes: number;
  fault: 'status' | 'hang' | 'truncate' | 'ignore_range' | 'down' | null;
}

export type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => boolean | Promise<boolean>;

export interface ArchiveServerOptions {
  root: string;
  /** Delay before every answer (ms). */
  latencyMs?: number;
  /** Body bandwidth per response. */
  bytesPerSecond?: number;
  /** Body bandwidth of the whole server, shared by every response at once (a link's capacity); off by default. */
  linkBytesPerSecond?: number;
  faults?: FaultPlan;
  routes?: RouteHandler[];
  /** /search page size and the method its `next` links use (default: the request's own). */
  stac?: { pageSize?: number; nextMethod?: 'GET' | 'POST' };
}

export interface ArchiveServer {
  url: string;
  setFaults(f: FaultPlan): void;
  requests(): RequestLog[];
  clearRequests(): void;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

export async function startArchiveServer(opts: ArchiveServerOptions): Promise<ArchiveServer> {
  const root = resolve(opts.root);
  const latencyMs = opts.latencyMs ?? 0;
  const pageSize = opts.stac?.pageSize ?? 10;
  const log: RequestLog[] = [];
  const catalogues = new Map<string, StaticCatalogue>();
  let faults: FaultPlan = {};
  let hits = new Map<FaultRule, number>();

  const setFaults = (f: FaultPlan) => {
    faults = f;
    hits = new Map();
  };
  setFaults(opts.faults ?? {});

  const applies = (rule: FaultRule | undefined, path: string): boolean => {
    if (rule === undefined) return false;
    const m = rule.match;
    if (m !== undefined && !(typeof m === 'string' ? path.includes(m) : m.test(path))) return false;
    const n = hits.get(rule) ?? 0;
    if (rule.count !== undefined && n >= rule.count) return false;
    hits.set(rule, n + 1);
    return true;
  };

  // The shared link is a timeline: each piece of any body books the next free slot on it, so the
  // bodies in flight together never pass the link's rate, however many there are.
  const link = opts.linkBytesPerSecond;
  let linkFreeAt = 0;
  const bookLink = (bytes: number): number => {
    if (link === undefined) return 0;
    const now = performance.now();
    linkFreeAt = Math.max(now, linkFreeAt) + (bytes / link) * 1000;
    return linkFreeAt - now;
  };

  // Writes a body at the configured bandwidths, stopping after `limit` bytes.
  async function writeBody(res: http.ServerResponse, entry: RequestLog, chunks: AsyncIterable<Buffer>, limit: number): Promise<void> {
    const rate = opts.bytesPerSecond;
    // Pieces of a twentieth of a second at the slower rate, so a cap is felt within a body.
    const slowest = Math.min(rate ?? Infinity, link ?? Infinity);
    const pieceBytes = Number.isFinite(slowest) ? Math.max(1, Math.floor(slowest / 20)) : Infinity;
    for await (const chunk of chunks) {
      let c = chunk.subarray(0, Math.max(0, limit - entry.bytes));
      while (c.length > 0) {
        if (res.destroyed) return;
        const piece = c.subarray(0, pieceBytes);
        const wait = Math.max(bookLink(piece.length), rate === undefined ? 0 : (piece.length / rate) * 1000);
        if (wait > 0) await delay(wait);
        entry.bytes += piece.length;
        if (!res.write(piece)) await drained(res);
        c = c.subarray(piece.length);
      }
      if (entry.bytes >= limit) return;
    }
  }

  async function serveFile(req: http.IncomingMessage, res: http.ServerResponse, entry: RequestLog, path: string): Promise<void> {
    const file = resolve(join(root, decodeURIComponent(path)));
    const info = file === root || file.startsWith(root + sep) ? await stat(file).catch(() => null) : null;
    if (info === null || !info.isFile()) return answer(res, entry, 404, { error: `no file at ${path}` });
    const size = info.size;
    let start = 0;
    let end = size - 1;
    let status = 200;
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range !== null && (range[1] !== '' || range[2] !== '')) {
      if (applies(faults.ignoreRange, path)) {
        entry.fault = 'ignore_range';
      } else {
        status = 206;
        if (range[1] === '') {
          start = Math.max(0, size - Number(range[2]));
        } else {
          start = Number(range[1]);
          if (range[2] !== '') end = Math.min(Number(range[2]), size - 1);
        }
        if (start >= size || start > end) {
          res.setHeader('content-range', `bytes */${size}`);
          return answer(res, entry, 416, { error: `range ${req.headers.range} is outside ${size} bytes` });
        }
        res.setHeader('content-range', `bytes ${start}-${end}/${size}`);
      }
    }
    const length = end - start + 1;
    res.statusCode = status;
    entry.status = status;
    res.setHeader('content-length', length);
    res.setHeader('content-type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
    if (entry.fault !== 'ignore_range') res.setHeader('accept-ranges', 'bytes');
    if (req.method === 'HEAD' || length === 0) return void res.end();
    const cut = applies(faults.truncate, path);
    const limit = cut ? Math.min(length - 1, faults.truncate?.keepBytes ?? Math.floor(length / 2)) : length;
    if (cut) entry.fault = 'truncate';
    await writeBody(res, entry, createReadStream(file, { start, end }), limit);
    // A cut body: what was written is flushed, the rest of the promised length never comes.
    if (cut) res.socket?.end();
    else res.end();
  }

  async function serveSearch(req: http.IncomingMessage, res: http.ServerResponse, entry: RequestLog, url: URL, prefix: string): Promise<void> {
    const dir = resolve(join(root, decodeURIComponent(prefix)));
    if (dir !== root && !dir.startsWith(root + sep)) return answer(res, entry, 404, { error: 'outside the archive' });
    let params: Record<string, unknown>;
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      try {
        params = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        return answer(res, entry, 400, { code: 'BadRequest', description: 'the body is not JSON' });
      }
    } else {
      try {
        params = fromQueryString(url.searchParams);
      } catch {
        return answer(res, entry, 400, { code: 'BadRequest', description: 'intersects or query is not JSON' });
      }
    }
    let catalogue = catalogues.get(dir);
    // Relative asset hrefs resolve to this server, so a client reads the assets from here too.
    if (catalogue === undefined) catalogues.set(dir, (catalogue = openStaticCatalogue(dir, { baseUrl: `${url.origin}${prefix}/` })));
    const token = Number(params.token ?? 0);
    const limit = Number(params.limit ?? pageSize);
    let found: StacItem[];
    try {
      found = await catalogue.matching(toQuery(params));
    } catch (err) {
      return answer(res, entry, 400, { code: 'BadRequest', description: (err as Error).message });
    }
    const features = found.slice(token, token + limit);
    const links: Record<string, unknown>[] = [];
    if (token + limit < found.length) {
      const method = opts.stac?.nextMethod ?? (req.method === 'POST' ? 'POST' : 'GET');
      const self = `${url.origin}${url.pathname}`;
      const nextParams = { ...params, token: String(token + limit) };
      links.push(
        method === 'POST'
          ? { rel: 'next', type: 'application/geo+json', method: 'POST', href: self, body: nextParams, merge: false }
          : { rel: 'next', type: 'application/geo+json', method: 'GET', href: `${self}?${toQueryString(nextParams)}` },
      );
    }
    return answer(res, entry, 200, { type: 'FeatureCollection', features, links, numberMatched: found.length, numberReturned: features.length });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, entry: RequestLog, url: URL): Promise<void> {
    const path = url.pathname;
    if (latencyMs > 0) await delay(latencyMs);

    if (faults.down?.some((p) => path.startsWith(p))) {
      entry.fault = 'down';
      return answer(res, entry, 503, { error: 'this mirror is down' });
    }
    if (applies(faults.status, path)) {
      entry.fault = 'status';
      return answer(res, entry, faults.status?.status ?? 500, { error: 'injected failure' });
    }
    if (applies(faults.hang, path)) {
      entry.fault = 'hang';
      return; // never answered; close() ends the connection
    }
    for (const route of opts.routes ?? []) if (await route(req, res, url)) return;
    const search = /^(.*)\/search$/.exec(path);
    if (search !== null && (req.method === 'POST' || req.method === 'GET')) return serveSearch(req, res, entry, url, search[1]);
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, entry, 405, { error: `${req.method} is not served here` });
    return serveFile(req, res, entry, path);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const entry: RequestLog = { method: req.method ?? 'GET', path: url.pathname, range: req.headers.range ?? null, status: 0, bytes: 0, fault: null };
    log.push(entry);
    res.on('finish', () => {
      if (entry.status === 0) entry.status = res.statusCode;
    });
    handle(req, res, entry, url).catch((err: unknown) => {
      if (!res.headersSent) answer(res, entry, 500, { error: String(err) });
      else res.destroy();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    setFaults,
    requests: () => log.map((e) => ({ ...e })),
    clearRequests: () => void log.splice(0),
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

/** An in-process answering function (the demo world's API-shaped sources) served over HTTP. */
export function answering(route: ApiRoute): RouteHandler {
  return async (req, res, url) => {
    let body: Promise<string> | null = null;
    const read = async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    };
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
    const answer = await route({ method: req.method ?? 'GET', url, headers, body: () => (body ??= read()) });
    if (answer === null) return false;
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return true;
  };
}

/** A demo world served over HTTP, with its API-shaped sources answering as in a demo deployment. */
export function serveDemoArchive(dir: string, opts: Omit<ArchiveServerOptions, 'root' | 'routes'> = {}): Promise<ArchiveServer> {
  return startArchiveServer({ ...opts, root: dir, routes: [answering(demoApiRoute(dir))] });
}

// Resolves when the response can take more, or has closed (a client gone mid-body).
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function answer(res: http.ServerResponse, entry: RequestLog, status: number, body: unknown): void {
  const text = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': text.length });
  res.end(text);
  entry.status = status;
  entry.bytes = text.length;
}

// STAC GET search parameters: lists comma-separated, objects as JSON.
function fromQueryString(sp: URLSearchParams): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  for (const [k, v] of sp) {
    if (k === 'collections') p[k] = v.split(',').filter(Boolean);
    else if (k === 'bbox') p[k] = v.split(',').map(Number);
    else if (k === 'intersects' || k === 'query') p[k] = JSON.parse(v);
    else p[k] = v;
  }
  return p;
}

function toQueryString(p: Record<string, unknown>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) {
    if (v === undefined) continue;
    if (Array.isArray(v) && (k === 'collections' || k === 'bbox')) sp.set(k, v.join(','));
    else if (typeof v === 'object') sp.set(k, JSON.stringify(v));
    else sp.set(k, String(v));
  }
  return sp.toString();
}

function toQuery(p: Record<string, unknown>): StacQuery {
  return {
    collections: (p.collections as string[] | undefined) ?? [],
    datetime: (p.datetime as string | undefined) ?? '../..',
    bbox: p.bbox as number[] | undefined,
    intersects: p.intersects as StacQuery['intersects'],
    query: p.query as StacQuery['query'],
  };
}
