// The base under the plots, with no outside service: Natural Earth's 1:50m land and country borders
// (public domain), from the world-atlas package's TopoJSON as the service serves it under /vendor/,
// and the capitals the CIA World Factbook gives (public domain, src/portal/places/capitals.json), drawn
// in panes below the service's own imagery tiles, which cover them from their first zoom in.
import * as L from '../vendor/leaflet/leaflet.js';
import { h } from './ui.js';

const TOPOLOGY = 'vendor/world-atlas/countries-50m.json';
const PLACES = 'assets/places/capitals.json';
const LAND = { stroke: true, color: '#7d8f9c', weight: 1, fillColor: '#f1eee6', fillOpacity: 1, interactive: false };
const BORDERS = { color: '#8a7f73', weight: 1, dashArray: '4 3', interactive: false };
/** Capitals are named from this zoom: further out, a continent's names would cover its borders. */
const PLACES_FROM_ZOOM = 4;

const fetched = new Map();
/** Each file fetched once a page load, whatever the number of maps; a failed fetch is tried again by the next map. */
function loadJson(path) {
  if (!fetched.has(path)) {
    const body = fetch(path)
      .then((res) => {
        if (!res.ok) throw new Error(`${path} answered ${res.status}`);
        return res.json();
      })
      .catch((err) => {
        fetched.delete(path);
        throw err;
      });
    fetched.set(path, body);
  }
  return fetched.get(path);
}

/** Each arc as [lat, lng] positions: the format stores an arc quantized, each point a step from the one before. */
function decodedArcs({ arcs, transform }) {
  const [kx, ky] = transform.scale;
  const [dx, dy] = transform.translate;
  return arcs.map((steps) => {
    let x = 0;
    let y = 0;
    return steps.map((step) => {
      x += step[0];
      y += step[1];
      return [y * ky + dy, x * kx + dx];
    });
  });
}

/**
 * Positions with each longitude moved by whole turns to within 180° of the one before: a ring across
 * the antimeridian (Fiji, Chukotka) then runs on past ±180° instead of back across the whole map.
 */
function unwrapped(positions) {
  let last = null;
  return positions.map(([lat, lng]) => {
    if (last !== null) lng += 360 * Math.round((last - lng) / 360);
    last = lng;
    return [lat, lng];
  });
}

/** A geometry's polygons as Leaflet takes them; a ring is its arcs joined end to end, ~i naming arc i run backwards. */
function latLngsOf(geometry, arcs) {
  const ring = (indexes) => unwrapped(indexes.flatMap((i, n) => {
    const arc = i < 0 ? [...arcs[~i]].reverse() : arcs[i];
    return n === 0 ? arc : arc.slice(1);
  }));
  const polygon = (rings) => rings.map(ring);
  return geometry.type === 'Polygon' ? [polygon(geometry.arcs)] : geometry.type === 'MultiPolygon' ? geometry.arcs.map(polygon) : [];
}

/** The arcs two countries share, as lines: the borders (the coast is the land's own outline). */
function borderLines(countries, arcs) {
  const uses = new Map();
  for (const g of countries.geometries) {
    for (const i of g.arcs.flat(g.type === 'Polygon' ? 1 : 2)) {
      const k = i < 0 ? ~i : i;
      uses.set(k, (uses.get(k) ?? 0) + 1);
    }
  }
  return [...uses].filter(([, n]) => n > 1).map(([k]) => unwrapped(arcs[k]));
}

/**
 * Each capital as a dot with its name beside it, in a pane above the land and below the tiles and the
 * plots; the name goes in as text, never as markup. The pane is hidden further out than PLACES_FROM_ZOOM.
 */
function drawPlaces(map, places) {
  const pane = map.createPane('places');
  pane.style.zIndex = 160;
  // Two hundred names read out on every visit would bury the map's own label; they are seen, not read.
  pane.setAttribute('aria-hidden', 'true');
  const shown = () => pane.classList.toggle('places-hidden', map.getZoom() < PLACES_FROM_ZOOM);
  map.on('zoomend', shown);
  shown();
  for (const p of places) {
    const icon = L.divIcon({ className: 'place', iconSize: [6, 6], iconAnchor: [3, 3], html: h('span', {}, p.name) });
    L.marker([p.lat, p.lon], { icon, pane: 'places', interactive: false, keyboard: false }).addTo(map);
  }
}

/** Draws the land, the borders and the capitals under `map`'s tiles; answers once drawn, or throws with why not. */
export async function drawBase(map) {
  const pane = map.createPane('basemap');
  pane.style.zIndex = 150;
  const renderer = L.canvas({ pane: 'basemap', padding: 0.2 });
  const t = await loadJson(TOPOLOGY);
  const arcs = decodedArcs(t);
  const drawn = { renderer, pane: 'basemap', smoothFactor: 1.5 };
  L.polygon(t.objects.land.geometries.flatMap((g) => latLngsOf(g, arcs)), { ...LAND, ...drawn }).addTo(map);
  L.polyline(borderLines(t.objects.countries, arcs), { ...BORDERS, ...drawn }).addTo(map);
  map.attributionControl.addAttribution('Base: Natural Earth (public domain)');
  drawPlaces(map, await loadJson(PLACES));
  map.attributionControl.addAttribution('Places: CIA World Factbook (public domain)');
}
