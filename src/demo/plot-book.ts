// The demo plot book: one plot on every demo site (and a declared point on one), with the
// properties an uploaded book carries (spec 2.2). It is the file a new user imports first.
import { area as turfArea } from '@turf/turf';
import type { SiteModel } from './site-model.ts';
import type { DemoSiteSpec } from './sites.ts';

export interface PlotBookFeature {
  type: 'Feature';
  properties: { ref: string; commodity: string; country: string; area_ha: number; planted_year?: number; producer?: string; demo_site: string };
  geometry: { type: 'Polygon'; coordinates: number[][][] } | { type: 'Point'; coordinates: number[] };
}

/** Plot references: `DEMO-<country>-<site number>`; a declared point adds `-P`. */
export function plotRef(m: SiteModel<DemoSiteSpec>, index: number): string {
  return `DEMO-${m.spec.country}-${String(index + 1).padStart(2, '0')}`;
}

/** The site whose plot book also holds a declared point, read as a circle of its declared area. */
export const POINT_PLOT_SITE = 'ga-lope-evergreen-forest';
const POINT_AREA_HA = 6;

export function plotBook(models: Array<SiteModel<DemoSiteSpec>>) {
  const features: PlotBookFeature[] = [];
  models.forEach((m, i) => {
    const polygon = { type: 'Polygon' as const, coordinates: [m.lonLatRing] };
    const area = Math.round(turfArea(polygon) / 100) / 100;
    const common = {
      commodity: m.spec.commodity,
      country: m.spec.country,
      ...(m.spec.plantedYear !== null ? { planted_year: m.spec.plantedYear } : {}),
      ...(m.spec.producer !== null ? { producer: m.spec.producer } : {}),
      demo_site: m.spec.name,
    };
    features.push({ type: 'Feature', properties: { ref: plotRef(m, i), ...common, area_ha: area }, geometry: polygon });
    if (m.spec.name === POINT_PLOT_SITE) {
      features.push({ type: 'Feature', properties: { ref: `${plotRef(m, i)}-P`, ...common, area_ha: POINT_AREA_HA }, geometry: { type: 'Point', coordinates: [...m.spec.centre] } });
    }
  });
  return {
    type: 'FeatureCollection' as const,
    name: 'demo-plot-book',
    synthetic: true,
    note: 'Demo plot book over the synthetic demo world of this service. The plots are placed at real-world locations; every figure read for them comes from generated, not observed, data.',
    features,
  };
}
