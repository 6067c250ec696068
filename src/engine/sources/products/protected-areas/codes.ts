// OSM protected areas through an Overpass API instance (data-products.md §11): every area within
// a radius of a point (with outlines), and the areas containing the point.
import type { Polygon } from 'geojson';

/** The public instance used by default; which instance to use is an operator's choice (unconfirmed). */
export const OVERPASS_INTERPRETER = 'https://overpass-api.de/api/interpreter';

export function aroundQuery(lon: number, lat: number, radiusM: number): string {
  const at = `around:${Math.round(radiusM)},${lat.toFixed(6)},${lon.toFixed(6)}`;
  return `[out:json][timeout:60];(nwr["boundary"="protected_area"](${at});nwr["leisure"="nature_reserve"](${at});nwr["boundary"="national_park"](${at}););out tags geom;`;
}

export function containingQuery(lon: number, lat: number): string {
  return `[out:json][timeout:60];is_in(${lat.toFixed(6)},${lon.toFixed(6)})->.a;(area.a["boundary"="protected_area"];area.a["leisure"="nature_reserve"];area.a["boundary"="national_park"];);out tags;`;
}

export interface OverpassElement {
  type: 'node' | 'way' | 'relation' | 'area';
  id: number;
  tags?: Record<string, string>;
  geometry?: Array<{ lat: number; lon: number } | null>;
  members?: Array<{ type: string; role: string; geometry?: Array<{ lat: number; lon: number } | null> }>;
}

export interface OverpassAnswer {
  osm3s?: { timestamp_osm_base?: string; copyright?: string };
  elements: OverpassElement[];
}

const IUCN_BY_CLASS: Record<string, string> = { '1a': 'Ia', '1b': 'Ib', '1': 'I', '2': 'II', '3': 'III', '4': 'IV', '5': 'V', '6': 'VI' };

export interface ProtectedArea {
  name: string | null;
  /** The feature's own wording: protection_title, else what its tags say it is. */
  designation: string;
  /** Only where the source carries one (iucn_level, or an IUCN protect_class 1a–6). */
  iucn_category: string | null;
  map_type: 'osm';
  /** `way/123`, `relation/456`: the OSM object, as its own id. */
  map_id: string;
  /** Outline from `out geom` (closed ways, and the outer members of relations). */
  polygons: Polygon[];
}

export function toProtectedArea(e: OverpassElement): ProtectedArea {
  const t = e.tags ?? {};
  const designation = t.protection_title ?? (t.boundary === 'national_park' ? 'National Park' : t.leisure === 'nature_reserve' ? 'Nature Reserve' : 'Protected area');
  const iucn = t.iucn_level ?? IUCN_BY_CLASS[t.protect_class ?? ''] ?? null;
  const rings: Array<Array<{ lat: number; lon: number } | null>> = [];
  if (e.geometry) rings.push(e.geometry);
  for (const m of e.members ?? []) if (m.type === 'way' && m.role !== 'inner' && m.geometry) rings.push(m.geometry);
  const polygons: Polygon[] = [];
  for (const r of rings) {
    const pts = r.filter((p): p is { lat: number; lon: number } => p !== null).map((p) => [p.lon, p.lat]);
    if (pts.length >= 4 && pts[0][0] === pts[pts.length - 1][0] && pts[0][1] === pts[pts.length - 1][1]) polygons.push({ type: 'Polygon', coordinates: [pts] });
  }
  const osmType = e.type === 'area' ? (e.id >= 3_600_000_000 ? 'relation' : 'way') : e.type;
  const osmId = e.type === 'area' ? e.id - (e.id >= 3_600_000_000 ? 3_600_000_000 : 2_400_000_000) : e.id;
  return { name: t.name ?? null, designation, iucn_category: iucn, map_type: 'osm', map_id: `${osmType}/${osmId}`, polygons };
}
