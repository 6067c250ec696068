// Maps over the service's own imagery tiles (Leaflet), on a base of land and borders drawn from a file
// the service serves (basemap.js). A tile the service cannot give (no such route yet, no scene there)
// leaves the base showing, and the map says so in words once.
import * as L from '../vendor/leaflet/leaflet.js';
import { apiUrl } from './api.js';
import { drawBase } from './basemap.js';
import { h } from './ui.js';

/** The zooms the service draws each family at: imagery from 12, change layers from 10. */
const MIN_ZOOM = { imagery: 12, change: 10 };
const PLOT_STYLE = { color: '#e0a100', weight: 3, fill: false };
const REJECTED_STYLE = { color: '#a4161a', weight: 3, dashArray: '6 4', fillOpacity: 0.15 };

/**
 * A map in `container` (a region named by `label`), with a `status` element under it for what the
 * tiles could not show. Answers {map, showTiles(layer, query), addPlots(features)}.
 */
export function plotMap(container, label, status) {
  container.setAttribute('role', 'region');
  container.setAttribute('aria-label', label);
  // Zooms set on the map itself, or Leaflet would take the tile layers' shallowest zoom as the map's.
  const map = L.map(container, { attributionControl: true, zoomSnap: 0.5, minZoom: 1, maxZoom: 18 });
  map.attributionControl.setPrefix(false);
  drawBase(map)
    .then(() => container.setAttribute('data-base-drawn', 'true'))
    .catch((err) => status.append(h('p', { class: 'notice warn', role: 'status' }, `Base map: it could not be drawn (${err.message}); the plots are shown without it.`)));
  let tiles = null;
  let change = null;
  const warned = new Set();

  async function tileFailed(family, url) {
    if (warned.has(family)) return;
    warned.add(family);
    let why = 'the imagery tiles could not be loaded';
    try {
      const res = await fetch(url);
      const body = await res.json();
      why = res.status === 404 && /^no route /.test(body.error?.message ?? '') ? `this service does not serve ${family} tiles yet; the boundary is shown without them` : body.error?.message ?? why;
    } catch {
      /* the generic sentence stands */
    }
    status.append(h('p', { class: 'notice warn', role: 'status' }, `${family === 'imagery' ? 'Imagery' : 'Change layer'}: ${why}.`));
  }

  return {
    map,
    /** Shows a tile layer (`true_colour`, `ndvi`) of a scene or a season. */
    showTiles(layer, query) {
      if (tiles) tiles.remove();
      warned.delete('imagery');
      status.replaceChildren();
      const template = apiUrl(`/tiles/${layer}/{z}/{x}/{y}.png`, query);
      tiles = L.tileLayer(template, { maxZoom: 18, minZoom: MIN_ZOOM.imagery, attribution: 'Imagery: this service’s archive (synthetic in the demo)' });
      tiles.on('tileerror', (e) => tileFailed('imagery', e.tile.src));
      tiles.on('tileload', () => container.setAttribute('data-tiles-loaded', 'true'));
      tiles.addTo(map);
      tiles.bringToBack();
    },
    /** Lays a change layer (`tmf_loss`, `hansen_loss`, `alerts`) over the imagery, or takes it away with null. */
    showChange(layer) {
      if (change) change.remove();
      change = null;
      warned.delete('change');
      if (!layer) return;
      change = L.tileLayer(apiUrl(`/change/tiles/${layer}/{z}/{x}/{y}.png`), { maxZoom: 18, minZoom: MIN_ZOOM.change, opacity: 0.8 });
      change.on('tileerror', (e) => tileFailed('change', e.tile.src));
      change.addTo(map);
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
      // Leaflet reads a string tooltip as HTML, and a label is an uploaded ref: it goes in as an element holding text.
      layer.eachLayer((l) => l.feature?.properties?.label && l.bindTooltip(h('span', {}, l.feature.properties.label)));
      const bounds = layer.getBounds();
      if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
      else map.setView([0, 0], 2);
      return layer;
    },
  };
}
