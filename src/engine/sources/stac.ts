// Scene search. Over http(s) it is a STAC API client (POST /search, following `next` links
// the way STAC API Item Search pages them); over a directory it is a static catalogue of item
// JSON files filtered here by the same rules the local archive server answers /search with.
import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bboxPolygon, booleanIntersects } from '@turf/turf';
import type { Geometry } from 'geojson';
import { z } from 'zod';
import { fileName } from './byte-source.ts';
import { SourceError } from './errors.ts';
import type { Headers, HttpClient } from './http-client.ts';

export interface StacQuery {
  collections: string[];
  bbox?: number[];
  intersects?: Geometry;
  /** RFC 3339 instant or interval, open ends as `..` (e.g. `2018-01-01T00:00:00Z/2020-12-31T23:59:59Z`). */
  datetime: string;
  /** Query extension, e.g. `{'eo:cloud_cover': {lt: 80}}`. */
  query?: Record<string, Record<string, unknown>>;
  /** Page size asked of an API. */
  limit?: number;
}

const linkSchema = z.looseObject({
  rel: z.string(),
  href: z.string(),
  method: z.string().optional(),
  body: z.record(z.string(), z.unknown()).optional(),
  merge: z.boolean().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const itemSchema = z.looseObject({
  type: z.literal('Feature'),
  id: z.string().min(1),
  collection: z.string().optional(),
  geometry: z.looseObject({ type: z.string() }).nullable(),
  bbox: z.array(z.number()).optional(),
  properties: z.looseObject({
    datetime: z.string().nullable(),
    start_datetime: z.string().optional(),
    end_datetime: z.string().optional(),
  }),
  assets: z.record(z.string(), z.looseObject({ href: z.string() })),
  links: z.array(linkSchema).optional(),
});

const pageSchema = z.looseObject({
  features: z.array(z.unknown()),
  links: z.array(linkSchema).optional(),
});

export type StacItem = z.infer<typeof itemSchema>;
export type StacLink = z.infer<typeof linkSchema>;

export interface SceneCatalogue {
  readonly url: string;
  search(q: StacQuery, signal?: AbortSignal): AsyncIterable<StacItem>;
}

export interface StaticCatalogue extends SceneCatalogue {
  /** Every matching item, newest first, as one array (the local server pages it). */
  matching(q: StacQuery, signal?: AbortSignal): Promise<StacItem[]>;
}

export interface CatalogueDeps {
  http?: HttpClient;
  headers?: Headers;
  /** Page bound of an API search, against a server whose `next` never ends. */
  maxPages?: number;
}

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 1000;

export function openCatalogue(url: string, deps: CatalogueDeps = {}): SceneCatalogue {
  if (/^https?:\/\//i.test(url)) {
    if (deps.http === undefined) throw new TypeError(`searching ${url} needs an HTTP client (deps.http)`);
    return apiCatalogue(url.replace(/\/+$/, ''), deps.http, deps.headers ?? {}, deps.maxPages ?? DEFAULT_MAX_PAGES);
  }
  const dir = url.startsWith('file:') ? fileURLToPath(url) : isAbsolute(url) ? url : resolve(url);
  return openStaticCatalogue(dir);
}

/** `url` is where the item was read; `shown` names that place in the message. */
function parseItem(raw: unknown, url: string, shown: string): StacItem {
  const parsed = itemSchema.safeParse(raw);
  if (!parsed.success) {
    const id = (raw as { id?: unknown } | null)?.id;
    throw new SourceError('invalid_catalogue', `${shown}: item ${typeof id === 'string' ? id : '(no id)'} is not a STAC item (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`, {
      url,
    });
  }
  return parsed.data;
}

// ---- the STAC API client ----

interface PageRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: Record<string, unknown>;
  headers: Headers;
}

function searchBody(q: StacQuery): Record<string, unknown> {
  const body: Record<string, unknown> = { collections: q.collections, datetime: q.datetime, limit: q.limit ?? DEFAULT_PAGE_SIZE };
  if (q.bbox !== undefined) body.bbox = q.bbox;
  if (q.intersects !== undefined) body.intersects = q.intersects;
  if (q.query !== undefined) body.query = q.query;
  return body;
}

function apiCatalogue(root: string, http: HttpClient, headers: Headers, maxPages: number): SceneCatalogue {
  return {
    url: root,
    async *search(q, signal) {
      let request: PageRequest | null = { method: 'POST', url: `${root}/search`, body: searchBody(q), headers };
      const asked = new Set<string>();
      for (let page = 0; request !== null; page++) {
        const key = `${request.method} ${request.url} ${JSON.stringify(request.body ?? null)}`;
        if (asked.has(key)) throw new SourceError('invalid_catalogue', `${request.url}: the next link repeats a page already read`, { url: request.url });
        if (page >= maxPages) throw new SourceError('invalid_catalogue', `${root}: more than ${maxPages} pages of results`, { url: root });
        asked.add(key);
        const raw: unknown =
          request.method === 'POST'
            ? await http.postJson(request.url, request.body, { headers: request.headers, signal })
            : await http.getJson(request.url, { headers: request.headers, signal });
        const parsed = pageSchema.safeParse(raw);
        if (!parsed.success) throw new SourceError('invalid_catalogue', `${request.url} did not answer an item collection`, { url: request.url });
        for (const f of parsed.data.features) yield withAbsoluteHrefs(parseItem(f, request.url, request.url.replace(/[?#].*$/, '')), request.url);
        const next = parsed.data.links?.find((l) => l.rel === 'next');
        request = next === undefined || parsed.data.features.length === 0 ? null : nextRequest(next, request);
      }
    },
  };
}

// STAC API Item Search paging: a `next` link may say POST with a body to send (merged into the
// previous body when `merge` is true) and headers to add; without a method it is a GET.
function nextRequest(link: StacLink, previous: PageRequest): PageRequest {
  const url = new URL(link.href, previous.url).href;
  const headers = { ...previous.headers, ...link.headers };
  if ((link.method ?? 'GET').toUpperCase() !== 'POST') return { method: 'GET', url, headers };
  const body = link.merge ? { ...previous.body, ...link.body } : (link.body ?? previous.body);
  return { method: 'POST', url, body, headers };
}

// ---- the static catalogue ----

/**
 * `baseUrl` is where `dir` is published: relative asset hrefs of its items resolve against it
 * (default: the directory's file: URL), so one archive reads alike from disk and over HTTP.
 */
export function openStaticCatalogue(dir: string, options: { baseUrl?: string } = {}): StaticCatalogue {
  const baseUrl = options.baseUrl ?? pathToFileURL(`${dir}/`).href;
  let items: Promise<StacItem[]> | null = null;
  const load = () => {
    items ??= loadItems(dir, baseUrl);
    // A failed load is not remembered: the next search reads the directory again.
    items.catch(() => (items = null));
    return items;
  };
  const matching = async (q: StacQuery, signal?: AbortSignal) => {
    const test = itemFilter(q);
    const all = await load();
    signal?.throwIfAborted();
    return all.filter(test);
  };
  return {
    url: dir,
    matching,
    async *search(q, signal) {
      yield* await matching(q, signal);
    },
  };
}

async function loadItems(dir: string, baseUrl: string): Promise<StacItem[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { recursive: true })).filter((n) => n.endsWith('.json')).sort();
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    throw new SourceError(code === 'ENOENT' ? 'not_found' : 'invalid_catalogue', `the scene catalogue cannot be read (${code})`, { url: dir, cause });
  }
  const items: StacItem[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let doc: { type?: unknown; features?: unknown };
    try {
      doc = JSON.parse(await readFile(path, 'utf8'));
    } catch (cause) {
      throw new SourceError('invalid_catalogue', `the catalogue's ${fileName(name)} is not JSON`, { url: path, cause });
    }
    const fileUrl = new URL(name.split(sep).map(encodeURIComponent).join('/'), baseUrl).href;
    // Collections, catalogues and other JSON beside the items are not scenes.
    const found = doc?.type === 'Feature' ? [doc] : doc?.type === 'FeatureCollection' && Array.isArray(doc.features) ? doc.features : [];
    for (const f of found) items.push(withAbsoluteHrefs(parseItem(f, path, `the catalogue's ${fileName(name)}`), fileUrl));
  }
  // Newest first, as Earth Search and the Planetary Computer answer.
  const time = (i: StacItem) => Date.parse(i.properties.datetime ?? i.properties.start_datetime ?? '') || 0;
  return items.sort((a, b) => time(b) - time(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// STAC resolves a relative href against the item's own `self` link, else where the item was read.
function withAbsoluteHrefs(item: StacItem, readFrom: string): StacItem {
  const self = item.links?.find((l) => l.rel === 'self')?.href;
  const base = self !== undefined && /^[a-z][a-z0-9+.-]*:/i.test(self) ? self : readFrom;
  for (const asset of Object.values(item.assets)) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(asset.href)) asset.href = new URL(asset.href, base).href;
  }
  return item;
}

/** `parse` applied once an item: a catalogue on disk yields the same item objects to every search, and every plot of a place searches them. */
export function parsedOnce<I extends object, T>(parse: (item: I) => T): (item: I) => T {
  const parsed = new WeakMap<I, T>();
  return (item) => {
    let out = parsed.get(item);
    if (out === undefined) {
      out = parse(item);
      parsed.set(item, out);
    }
    return out;
  };
}

// ---- the filter rules, shared by the static catalogue and the local server ----

export function parseInterval(datetime: string): [number, number] {
  const parts = datetime.split('/');
  if (parts.length > 2) throw new TypeError(`datetime "${datetime}" is neither an instant nor an interval`);
  const bound = (s: string, open: number) => {
    if (s === '' || s === '..') return open;
    const t = Date.parse(s);
    if (Number.isNaN(t)) throw new TypeError(`datetime "${datetime}" holds "${s}", which is not an RFC 3339 date-time`);
    return t;
  };
  if (parts.length === 1) {
    const t = bound(parts[0], Number.NaN);
    return [t, t];
  }
  return [bound(parts[0], -Infinity), bound(parts[1], Infinity)];
}

function itemInterval(item: StacItem): [number, number] | null {
  const { datetime, start_datetime: start, end_datetime: end } = item.properties;
  if (start !== undefined && end !== undefined) return [Date.parse(start), Date.parse(end)];
  if (datetime === null) return null;
  const t = Date.parse(datetime);
  return [t, t];
}

// A bbox whose minX exceeds its maxX crosses the antimeridian: it is tested as its two halves.
function bboxHalves(bb: number[]): Array<[number, number, number, number]> {
  const [x0, y0, x1, y1] = bb.length === 6 ? [bb[0], bb[1], bb[3], bb[4]] : bb;
  return x0 <= x1 ? [[x0, y0, x1, y1]] : [[x0, y0, 180, y1], [-180, y0, x1, y1]];
}

function bboxIntersects(a: number[], b: number[]): boolean {
  for (const p of bboxHalves(a)) for (const q of bboxHalves(b)) if (p[0] <= q[2] && q[0] <= p[2] && p[1] <= q[3] && q[1] <= p[3]) return true;
  return false;
}

function geometryBbox(g: StacItem['geometry']): number[] | null {
  if (g === null) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      minX = Math.min(minX, c[0]);
      maxX = Math.max(maxX, c[0]);
      minY = Math.min(minY, c[1] as number);
      maxY = Math.max(maxY, c[1] as number);
    } else if (Array.isArray(c)) {
      for (const x of c) walk(x);
    }
  };
  walk((g as { coordinates?: unknown }).coordinates);
  return minX <= maxX ? [minX, minY, maxX, maxY] : null;
}

type Comparison = (value: unknown, operand: unknown) => boolean;

const ordered = (cmp: (a: number | string, b: number | string) => boolean): Comparison => (v, o) =>
  (typeof v === 'number' && typeof o === 'number') || (typeof v === 'string' && typeof o === 'string') ? cmp(v, o) : false;

// The query extension's operators.
const OPERATORS: Record<string, Comparison> = {
  eq: (v, o) => v === o,
  neq: (v, o) => v !== o,
  lt: ordered((a, b) => a < b),
  lte: ordered((a, b) => a <= b),
  gt: ordered((a, b) => a > b),
  gte: ordered((a, b) => a >= b),
  startsWith: (v, o) => typeof v === 'string' && typeof o === 'string' && v.startsWith(o),
  endsWith: (v, o) => typeof v === 'string' && typeof o === 'string' && v.endsWith(o),
  contains: (v, o) => typeof v === 'string' && typeof o === 'string' && v.includes(o),
  in: (v, o) => Array.isArray(o) && o.includes(v),
};

/** The predicate an item must pass for `q`; the query is checked once, here. */
export function itemFilter(q: StacQuery): (item: StacItem) => boolean {
  const [from, to] = parseInterval(q.datetime);
  const collections = new Set(q.collections);
  const area = q.bbox === undefined ? null : bboxHalves(q.bbox).map((half) => bboxPolygon(half).geometry);
  const conditions = Object.entries(q.query ?? {}).flatMap(([property, ops]) =>
    Object.entries(ops).map(([op, operand]) => {
      const compare = OPERATORS[op];
      if (compare === undefined) throw new TypeError(`query operator "${op}" on ${property} is not one of ${Object.keys(OPERATORS).join(', ')}`);
      return (item: StacItem) => compare(item.properties[property], operand);
    }),
  );
  return (item) => {
    if (collections.size > 0 && (item.collection === undefined || !collections.has(item.collection))) return false;
    const span = itemInterval(item);
    if (span === null || span[1] < from || span[0] > to) return false;
    if (q.bbox !== undefined) {
      const box = item.bbox ?? geometryBbox(item.geometry);
      if (box === null || !bboxIntersects(box, q.bbox)) return false;
      // STAC API Item Search selects by the item's geometry; its bbox only rules out the far ones cheaply.
      if (area !== null && item.geometry !== null && !area.some((half) => booleanIntersects(item.geometry as unknown as Geometry, half))) return false;
    }
    if (q.intersects !== undefined && (item.geometry === null || !booleanIntersects(item.geometry as unknown as Geometry, q.intersects))) return false;
    return conditions.every((c) => c(item));
  };
}
