// Maps over the service's own imagery tiles (Leaflet). A tile the service cannot give (no such route
// yet, no scene there) leaves the map blank, and the map says so in words once.
import * as L from '../vendor/leaflet/leaflet.js';
import { apiUrl } from './api.js';
import { h } from './ui.js';

const PLOT_STYLE = { color: '#e0a100', weight: 3, fill: false };
const REJECTED_STYLE = { color: '#a4161a', weight: 3, dashArray: '6 4', fillOpacity: 0.15 };

/**
 * A map in `container` (a region named by `label`), with a `status` element under it for what the
 * tiles could not show. Answers {map, showTiles(layer, query), addPlots(features)}.
 */
export function plotMap(container, label, status) {
  container.setAttribute('role', 'region');
  container.setAttribute('aria-label', label);
  const map = L.map(container, { attributionControl: true, zoomSnap: 0.5 });
  map.attributionControl.setPrefix(false);
  let tiles = null;
  let warned = false;

  async function tileFailed(url) {
    if (warned) return;
    warned = true;
    let why = 'the imagery tiles could not be loaded';
    try {
      const res = await fetch(url);
      const body = await res.json();
      why = res.status === 404 && /^no route /.test(body.error?.message ?? '') ? 'this service does not serve imagery tiles yet; the boundary is shown on a blank background' : body.error?.message ?? why;
    } catch {
      /* the generic sentence stands */
    }
    status.replaceChildren(h('p', { class: 'notice warn', role: 'status' }, `Imagery: ${why}.`));
  }

  return {
    map,
    /** Shows a tile layer (`true_colour`, `ndvi`) of a scene or a season. */
    showTiles(layer, query) {
      if (tiles) tiles.remove();
      warned = false;
      status.replaceChildren();
      const template = apiUrl(`/tiles/${layer}/{z}/{x}/{y}.png`, query);
      tiles = L.tileLayer(template, { maxZoom: 18, minZoom: 3, attribution: 'Imagery: this service’s archive (synthetic in the demo)' });
      tiles.on('tileerror', (e) => tileFailed(e.tile.src));
      tiles.on('tileload', () => container.setAttribute('data-tiles-loaded', 'true'));
      tiles.addTo(map);
      tiles.bringToBack();
    },
    /**
     * Draws plots (GeoJSON features, `properties.rejected` marks a refused one) and fits the view to
     * them. With `dots`, each plot also gets a dot at its centre, so plots far apart stay visible at a
     * world's scale.
     */
    addPlots(features, { dots = false } = {}) {
      const styleOf = (f) => (f.properties?.rejected ? REJECTED_STYLE : PLOT_STYLE);
      const dot = (f, at) => L.circleMarker(at, { ...styleOf(f), radius: 6, className: f.properties?.rejected ? 'plot-marker rejected' : 'plot-marker' });
      const layer = L.geoJSON({ type: 'FeatureCollection', features }, { style: styleOf, pointToLayer: dot }).addTo(map);
      const shapes = dots ? layer.getLayers().filter((l) => !(l instanceof L.CircleMarker)) : [];
      for (const l of shapes) {
        const centre = dot(l.feature, l.getBounds().getCenter());
        centre.feature = l.feature;
        centre.addTo(layer);
      }
      layer.eachLayer((l) => l.feature?.properties?.label && l.bindTooltip(l.feature.properties.label));
      const bounds = layer.getBounds();
      if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
      else map.setView([0, 0], 2);
      return layer;
    },
  };
}
