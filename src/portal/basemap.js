// The base under the plots, with no outside service: Natural Earth's 1:50m land and country borders
// (public domain), from the world-atlas package's TopoJSON as the service serves it under /vendor/,
// drawn in a pane below the service's own imagery tiles, which cover it from their first zoom in.
import * as L from '../vendor/leaflet/leaflet.js';

const SOURCE = 'vendor/world-atlas/countries-50m.json';
const LAND = { stroke: true, color: '#7d8f9c', weight: 1, fillColor: '#f1eee6', fillOpacity: 1, interactive: false };
const BORDERS = { color: '#8a7f73', weight: 1, dashArray: '4 3', interactive: false };

let topology = null;
/** Fetched once a page load, whatever the number of maps; a failed fetch is tried again by the next map. */
function loadTopology() {
  topology ??= fetch(SOURCE)
    .then((res) => {
      if (!res.ok) throw new Error(`${SOURCE} answered ${res.status}`);
      return res.json();
    })
    .catch((err) => {
      topology = null;
      throw err;
    });
  return topology;
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

/** Draws the land and the borders under `map`'s tiles; answers once drawn, or throws with why not. */
export async function drawBase(map) {
  const pane = map.createPane('basemap');
  pane.style.zIndex = 150;
  const renderer = L.canvas({ pane: 'basemap', padding: 0.2 });
  const t = await loadTopology();
  const arcs = decodedArcs(t);
  const drawn = { renderer, pane: 'basemap', smoothFactor: 1.5 };
  L.polygon(t.objects.land.geometries.flatMap((g) => latLngsOf(g, arcs)), { ...LAND, ...drawn }).addTo(map);
  L.polyline(borderLines(t.objects.countries, arcs), { ...BORDERS, ...drawn }).addTo(map);
  map.attributionControl.addAttribution('Base: Natural Earth (public domain)');
}
