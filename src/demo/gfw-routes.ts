// The demo world's GFW Data API, answering from its tables: the catalogue (`/dataset/{ds}`, its versions, `/fields`), `/latest` redirects, the old
// `/query` answering 308 to `/query/json`, and queries in the small SQL subset the service sends
// (SELECT fields FROM t WHERE field op literal [AND …]) intersected with the posted geometry.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { booleanIntersects, booleanPointInPolygon } from '@turf/turf';
import type { Geometry } from 'geojson';
import { GFW_TABLES_DIR, type GfwTable } from './api-data.ts';
import type { ApiAnswer, ApiRequest, ApiRoute } from './api-exchange.ts';

const PREFIX = '/data-api.globalforestwatch.org';

export interface GfwRoutesOptions {
  /** The archive root the demo world was generated into. */
  root: string;
  /** Keys accepted in `x-api-key`; any non-empty key when absent. */
  apiKeys?: string[];
}

function send(status: number, body: unknown, headers: Record<string, string> = {}): ApiAnswer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

function failed(status: number, message: string): ApiAnswer {
  return send(status, { status: 'failed', message });
}

// --- the SQL subset -------------------------------------------------------------------------------

type Literal = string | number;
interface Condition { field: string; op: '=' | '!=' | '<' | '<=' | '>' | '>=' | 'in'; value: Literal | Literal[] }
export interface ParsedSql { fields: string[] | '*'; conditions: Condition[] }

export class SqlError extends Error {}

const LITERAL = String.raw`'(?:[^']|'')*'|-?\d+(?:\.\d+)?`;

function literal(text: string): Literal {
  return text.startsWith("'") ? text.slice(1, -1).replaceAll("''", "'") : Number(text);
}

/** Parses `SELECT a, b FROM t [WHERE c op v [AND …]]`; anything else is refused as the real API would (422). */
export function parseSql(sql: string): ParsedSql {
  const m = /^\s*select\s+(.+?)\s+from\s+[a-z_][\w.]*\s*(?:where\s+(.+?))?\s*;?\s*$/is.exec(sql);
  if (!m) throw new SqlError(`cannot read the query: ${sql}`);
  const fields = m[1].trim() === '*' ? '*' : m[1].split(',').map((f) => f.trim());
  if (fields !== '*' && fields.some((f) => !/^[a-z_]\w*$/i.test(f))) throw new SqlError(`unsupported select list: ${m[1]}`);
  const conditions: Condition[] = [];
  for (const part of m[2] ? m[2].split(/\s+and\s+/i) : []) {
    const c = new RegExp(String.raw`^\s*([a-z_]\w*)\s*(=|!=|<>|<=|>=|<|>)\s*(${LITERAL})\s*$`, 'i').exec(part);
    const inList = new RegExp(String.raw`^\s*([a-z_]\w*)\s+in\s*\(\s*((?:${LITERAL})(?:\s*,\s*(?:${LITERAL}))*)\s*\)\s*$`, 'i').exec(part);
    if (c) conditions.push({ field: c[1], op: (c[2] === '<>' ? '!=' : c[2]) as Condition['op'], value: literal(c[3]) });
    else if (inList) conditions.push({ field: inList[1], op: 'in', value: [...inList[2].matchAll(new RegExp(LITERAL, 'g'))].map((x) => literal(x[0])) });
    else throw new SqlError(`unsupported condition: ${part}`);
  }
  return { fields, conditions };
}

function holds(row: Record<string, unknown>, c: Condition): boolean {
  const v = row[c.field] as Literal;
  if (c.op === 'in') return (c.value as Literal[]).includes(v);
  const w = c.value as Literal;
  switch (c.op) {
    case '=': return v === w;
    case '!=': return v !== w;
    case '<': return v < w;
    case '<=': return v <= w;
    case '>': return v > w;
    default: return v >= w;
  }
}

function rowInside(table: GfwTable, row: Record<string, unknown>, geometry: Geometry | null): boolean {
  if (geometry === null) return true;
  if (table.kind === 'raster') return booleanPointInPolygon([Number(row.longitude), Number(row.latitude)], geometry as never);
  return booleanIntersects(JSON.parse(String(row.gfw_geojson)), geometry as never);
}

// --- the routes -------------------------------------------------------------------------------

export function gfwDataApiRoutes(opts: GfwRoutesOptions): ApiRoute {
  const tables = new Map<string, Promise<GfwTable | null>>();
  const table = (dataset: string) => {
    if (!/^[a-z0-9_]+$/.test(dataset)) return Promise.resolve(null);
    let t = tables.get(dataset);
    if (t === undefined) {
      t = readFile(join(opts.root, GFW_TABLES_DIR, `${dataset}.json`), 'utf8').then((s) => JSON.parse(s) as GfwTable, () => null);
      tables.set(dataset, t);
    }
    return t;
  };
  const keyOk = (req: ApiRequest): 'missing' | 'refused' | 'ok' => {
    const key = req.headers['x-api-key'] ?? req.url.searchParams.get('x-api-key') ?? '';
    if (key === '') return 'missing';
    return opts.apiKeys === undefined || opts.apiKeys.includes(key) ? 'ok' : 'refused';
  };

  return async (req) => {
    const url = req.url;
    if (!url.pathname.startsWith(`${PREFIX}/dataset/`)) return null;
    const parts = url.pathname.slice(PREFIX.length + '/dataset/'.length).split('/').map(decodeURIComponent);
    const [dataset, version, ...rest] = parts;
    const t = await table(dataset);
    if (t === null) return failed(404, `Dataset ${dataset} does not exist`);
    const latest = t.versions[t.versions.length - 1];
    if (version === 'latest') {
      // Middleware of the real API: GET anywhere, POST only for query and download, else 400.
      const target = `${PREFIX}/dataset/${dataset}/${latest}${rest.length ? `/${rest.join('/')}` : ''}${url.search}`;
      if (req.method === 'GET' || (req.method === 'POST' && (rest[0] === 'query' || rest[0] === 'download'))) {
        return send(307, { status: 'success', message: `redirecting to ${latest}` }, { location: target });
      }
      return failed(400, 'latest is only resolved for GET, and for POST on query and download');
    }
    if (version === undefined) {
      if (req.method !== 'GET') return failed(405, 'method not allowed');
      return send(200, { data: { dataset, is_downloadable: t.kind === 'raster', metadata: { ...t.metadata, synthetic: true }, versions: t.versions }, status: 'success' });
    }
    if (!t.versions.includes(version)) return failed(404, `Version ${version} of ${dataset} does not exist`);
    if (rest.length === 0) return send(200, { data: { dataset, version, status: 'saved', is_latest: version === latest, synthetic: true }, status: 'success' });
    if (rest[0] === 'fields' && rest.length === 1) return send(200, { data: t.fields.map((f) => ({ ...f, is_feature_info: true, is_filter: true })), status: 'success' });
    if (rest[0] !== 'query') return failed(404, 'not found');
    if (rest.length === 1) {
      // The old path moved: 308 keeps the method and body.
      return send(308, { status: 'success', message: 'moved to query/json' }, { location: `${url.pathname}/json${url.search}` });
    }
    if (rest[1] !== 'json' || rest.length !== 2) return failed(404, 'not found');
    const key = keyOk(req);
    if (key === 'missing') return failed(401, 'an API key is required (x-api-key)');
    if (key === 'refused') return failed(403, 'API key is not valid');
    let sql: string;
    let geometry: Geometry | null = null;
    if (req.method === 'POST') {
      let body: { sql?: unknown; geometry?: unknown };
      try {
        body = JSON.parse(await req.body());
      } catch {
        return failed(422, 'the body is not JSON');
      }
      if (typeof body.sql !== 'string') return failed(422, 'sql is required');
      sql = body.sql;
      if (body.geometry !== undefined && body.geometry !== null) {
        const g = body.geometry as Geometry;
        if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') return failed(422, 'geometry must be a Polygon or MultiPolygon');
        geometry = g;
      }
    } else if (req.method === 'GET') {
      sql = url.searchParams.get('sql') ?? '';
      if (url.searchParams.has('geostore_id')) return failed(422, 'geostores are not held by the demo API; POST the geometry instead');
    } else return failed(405, 'method not allowed');
    if (t.kind === 'raster' && geometry === null) return failed(422, 'raster datasets require a geometry');
    let parsed: ParsedSql;
    try {
      parsed = parseSql(sql);
    } catch (err) {
      return failed(422, (err as Error).message);
    }
    const rows = version === latest ? t.rows : [];
    const data = rows
      .filter((r) => parsed.conditions.every((c) => holds(r, c)) && rowInside(t, r, geometry))
      .map((r) => (parsed.fields === '*' ? r : Object.fromEntries((parsed.fields as string[]).map((f) => [f, r[f] ?? null]))));
    return send(200, { data, status: 'success' });
  };
}
