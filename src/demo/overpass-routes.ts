// An Overpass-API-shaped endpoint for the local archive server, answering the two queries the
// service sends (protected areas `around:` a point with outlines, and `is_in` a point) from the
// demo world's protected areas.
import type http from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { booleanPointInPolygon, pointToPolygonDistance } from '@turf/turf';
import type { RouteHandler } from '../../test/support/archive-server.ts';
import { OVERPASS_DATA_PATH, type OverpassData } from './api-data.ts';

const PATH = '/overpass-api.de/api/interpreter';

function send(res: http.ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': status === 200 ? 'application/json' : 'text/plain' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
  return true;
}

async function queryText(req: http.IncomingMessage, url: URL): Promise<string | null> {
  if (req.method === 'GET') return url.searchParams.get('data');
  if (req.method !== 'POST') return null;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  // The interpreter takes a form field `data=` or the bare query.
  return body.startsWith('data=') ? new URLSearchParams(body).get('data') : body;
}

export function overpassRoutes(opts: { root: string }): RouteHandler {
  let data: Promise<OverpassData> | null = null;
  const load = () => (data ??= readFile(join(opts.root, OVERPASS_DATA_PATH), 'utf8').then((s) => JSON.parse(s) as OverpassData));
  return async (req, res, url) => {
    if (url.pathname !== PATH) return false;
    const q = await queryText(req, url);
    if (!q) return send(res, 400, 'Error: no query (data=) given');
    const d = await load();
    const polygon = (e: OverpassData['elements'][number]) => ({ type: 'Polygon' as const, coordinates: [e.geometry.map((g) => [g.lon, g.lat])] });
    const around = /around:(\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/.exec(q);
    const isIn = /is_in\((-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)\)/.exec(q);
    let elements: unknown[];
    if (around) {
      const [r, lat, lon] = [Number(around[1]), Number(around[2]), Number(around[3])];
      elements = d.elements.filter((e) => {
        const p = polygon(e);
        return booleanPointInPolygon([lon, lat], p) || pointToPolygonDistance([lon, lat], p, { units: 'meters' }) <= r;
      });
    } else if (isIn) {
      const [lat, lon] = [Number(isIn[1]), Number(isIn[2])];
      elements = d.elements
        .filter((e) => booleanPointInPolygon([lon, lat], polygon(e)))
        .map((e) => ({ type: 'area', id: 2_400_000_000 + e.id, tags: e.tags }));
    } else return send(res, 400, 'Error: the demo interpreter answers around: and is_in queries only');
    return send(res, 200, {
      version: 0.6,
      generator: 'Overpass API (demo, synthetic data)',
      osm3s: {
        timestamp_osm_base: d.timestamp_osm_base,
        copyright: 'The data included in this document is from www.openstreetmap.org. The data is made available under ODbL. (Synthetic demo copy.)',
      },
      synthetic: true,
      elements,
    });
  };
}
