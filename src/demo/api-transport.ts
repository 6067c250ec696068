// The demo world's API-shaped sources (GFW Data API, Overpass) answered in-process: an HttpClient
// whose requests go to the demo's answering functions instead of the network. Files cannot answer
// a query, and a server started only for this would be one more listener in every demo process;
// here a request costs a function call. Refusals and bad bodies leave as the network client's own
// errors, so the adapters cannot tell the two apart.
import { rename, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { SourceError } from '../engine/sources/errors.ts';
import { DEFAULT_USER_AGENT, type Headers, type HttpClient, type HttpResponse, jsonBody, type RequestOptions, statusError } from '../engine/sources/http-client.ts';
import type { ApiAnswer, ApiRoute } from './api-exchange.ts';
import { gfwDataApiRoutes } from './gfw-routes.ts';
import { overpassRoutes } from './overpass-routes.ts';

/** The demo world's GFW Data API answers this key only. */
export const DEMO_GFW_API_KEY = 'demo-key';

/** Redirects followed before giving up, as the network client's transport does. */
const MAX_REDIRECTS = 10;
// The answering functions read only path and query; this origin stands in for the real hosts.
const ORIGIN = 'http://demo.invalid';

/** The demo world's API-shaped sources under `dir` (its archive folder) as one answering function. */
export function demoApiRoute(dir: string): ApiRoute {
  const routes = [gfwDataApiRoutes({ root: dir, apiKeys: [DEMO_GFW_API_KEY] }), overpassRoutes({ root: dir })];
  return async (req) => {
    for (const route of routes) {
      const answer = await route(req);
      if (answer !== null) return answer;
    }
    return null;
  };
}

/** Where the API-shaped sources are asked (`root`, the archive folder's `file:` URL) and the client that answers there. */
export interface DemoApi {
  root: string;
  http: HttpClient;
}

function notServed(path: string): ApiAnswer {
  return { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: `nothing is served at ${path}` }) };
}

export function demoApi(dir: string): DemoApi {
  const root = pathToFileURL(dir).href;
  const route = demoApiRoute(dir);

  async function exchange(url: string, method: string, headers: Headers, body: string, opts: RequestOptions): Promise<HttpResponse> {
    if (!url.startsWith(`${root}/`)) throw new SourceError('network', `${url} is not under the demo archive ${root}`, { url });
    const lowered = Object.fromEntries(Object.entries({ 'user-agent': DEFAULT_USER_AGENT, ...headers }).map(([k, v]) => [k.toLowerCase(), v]));
    let at = new URL(url.slice(root.length), ORIGIN);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      opts.signal?.throwIfAborted();
      const sent = body;
      const answer = (await route({ method, url: at, headers: lowered, body: async () => sent })) ?? notServed(at.pathname);
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status < 400 && location !== undefined) {
        at = new URL(location, at);
        // 303 asks for a GET; 307 and 308 keep the method and the body.
        if (answer.status === 303) [method, body] = ['GET', ''];
        continue;
      }
      const bytes = new TextEncoder().encode(answer.body);
      const res: HttpResponse = { status: answer.status, headers: { ...answer.headers, 'content-length': String(bytes.length) }, body: bytes, url: `${root}${at.pathname}${at.search}` };
      if (res.status >= 400) throw statusError(res, url);
      if (bytes.length > (opts.maxBytes ?? Number.POSITIVE_INFINITY)) {
        throw new SourceError('too_large', `${url} answered a body of ${bytes.length} bytes, more than the ${opts.maxBytes} allowed`, { url, status: res.status });
      }
      return res;
    }
    throw new SourceError('invalid_response', `${url} redirected more than ${MAX_REDIRECTS} times`, { url });
  }

  return {
    root,
    http: {
      userAgent: DEFAULT_USER_AGENT,
      async get(url, opts = {}) {
        const res = await exchange(url, 'GET', opts.headers ?? {}, '', opts);
        if (!opts.shared) return res;
        const body = new Uint8Array(new SharedArrayBuffer(res.body.length));
        body.set(res.body);
        return { ...res, body };
      },
      async getJson<T>(url: string, opts: RequestOptions = {}) {
        return jsonBody<T>(await exchange(url, 'GET', { accept: 'application/json', ...opts.headers }, '', opts), url);
      },
      async postJson<T>(url: string, body: unknown, opts: RequestOptions = {}) {
        const headers = { accept: 'application/json', 'content-type': 'application/json', ...opts.headers };
        return jsonBody<T>(await exchange(url, 'POST', headers, JSON.stringify(body), opts), url);
      },
      async download(url, path, opts = {}) {
        const res = await exchange(url, 'GET', opts.headers ?? {}, '', opts);
        // Written beside, then renamed, as the network client does: a reader never sees half a file.
        const partial = `${path}.partial-${process.pid}`;
        await writeFile(partial, res.body);
        await rename(partial, path);
        return res.body.length;
      },
      close() {},
    },
  };
}
