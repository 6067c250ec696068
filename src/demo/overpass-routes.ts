// The demo world's Overpass API, answering the two queries the
// service sends (protected areas `around:` a point with outlines, and `is_in` a point) from the
// demo world's protected areas.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { booleanPointInPolygon, pointToPolygonDistance } from '@turf/turf';
import { OVERPASS_DATA_PATH, type OverpassData } from './api-data.ts';
import type { ApiAnswer, ApiRequest, ApiRoute } from './api-exchange.ts';

const PATH = '/overpass-api.de/api/interpreter';

function send(status: number, body: unknown): ApiAnswer {
  return { status, headers: { 'content-type': status === 200 ? 'application/json' : 'text/plain' }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

async function queryText(req: ApiRequest): Promise<string | null> {
  if (req.method === 'GET') return req.url.searchParams.get('data');
  if (req.method !== 'POST') return null;
  const body = await req.body();
  // The interpreter takes a form field `data=` or the bare query.
  return body.startsWith('data=') ? new URLSearchParams(body).get('data') : body;
}

export function overpassRoutes(opts: { root: string }): ApiRoute {
  let data: Promise<OverpassData> | null = null;
  const load = () => (data ??= readFile(join(opts.root, OVERPASS_DATA_PATH), 'utf8').then((s) => JSON.parse(s) as OverpassData));
  return async (req) => {
    if (req.url.pathname !== PATH) return null;
    const q = await queryText(req);
    if (!q) return send(400, 'Error: no query (data=) given');
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
    } else return send(400, 'Error: the demo interpreter answers around: and is_in queries only');
    return send(200, {
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
