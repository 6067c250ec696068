// The `risk` block (spec 2.8.2): Article 10 context that never changes a verdict. Three parts,
// always present: protected areas (OSM through Overpass), the country classification of the
// producer's country, and tree-cover loss since 2021 in a ring around the plot (Hansen GFC).
// A part that could not be measured says `available: false` and names its source; an absence is
// never served as a zero.
import type { ProtectedArea } from '../sources/products/protected-areas/codes.ts';
import type { CountryRiskBlock } from './country-classification.ts';
import type { PartlyRead } from './partly-read.ts';

export const RISK_NOTE = 'Context for the risk assessment of Article 10; it changes no verdict, reason, reasons or finding sentence.';
export const RISK_ARTICLE = 'Article 10 of Regulation (EU) 2023/1115 (risk assessment)';

// --- protected areas ------------------------------------------------------------------------------

/** Both searches run against one point: every area within this radius, and every area containing it. */
export const SEARCH_RADIUS_KM = 25.0;

export const EXCLUDED_SOURCES = [
  { source: 'World Database on Protected Areas (WDPA, Protected Planet)', why: 'its terms of use bar commercial use, so this service does not read it' },
  { source: 'World Database of Key Biodiversity Areas', why: 'its terms of use bar commercial use, so this service does not read it' },
] as const;

export interface ProtectedAreaProvenance {
  source: string;
  dataset: string;
  licence: string;
  attribution: string;
}

export interface ProtectedAreaEntry {
  name: string | null;
  designation: string;
  iucn_category: string | null;
  map_type: string;
  map_id: string;
}

export interface ProtectedAreaBlock {
  available: boolean;
  intersects: boolean | null;
  source: string;
  dataset: string;
  licence: string;
  attribution: string;
  snapshot: string | null;
  search_radius_km: number;
  areas: ProtectedAreaEntry[];
  distance_km: number | null;
  coverage_note: string;
  excluded_sources: Array<{ source: string; why: string }>;
  note?: string;
}

/** What the two searches answered; areas keep their outlines for the polygon test. */
export type ProtectedAreaAnswer =
  | { available: true; around: ProtectedArea[]; containing: ProtectedArea[]; snapshot: string | null }
  | { available: false; why: string };

// --- neighbourhood --------------------------------------------------------------------------------

export const RING_KM = 2.0;
export const SINCE_YEAR = 2021;
export const CANOPY_DENSITY_THRESHOLD_PCT = 30;
export interface NeighbourhoodProvenance {
  source: string;
  dataset: string;
  version: string;
  licence: string;
  citation: string;
}

export interface NeighbourhoodBlock {
  available: boolean;
  loss_ha: number | null;
  prevalence_pct: number | null;
  ring_km: number;
  ring_area_ha: number | null;
  since_year: number;
  canopy_density_threshold_pct: number;
  source: string;
  dataset: string;
  version: string;
  licence: string;
  citation: string;
  accuracy: string;
  /** Share of the ring's 30 m pixels read with data (land or water); null when nothing was read. */
  coverage: number | null;
  note?: string;
}

export const NEIGHBOURHOOD_ACCURACY =
  'Stand-replacement disturbance of any cause at 30 m (Hansen et al. 2013): plantation harvest and rotation count as loss, and loss where the canopy was under 30% in 2000 is not counted.';

/** Nothing measured: the source was not read, or read over too little of the ring (`coverage` then says how much). */
export function neighbourhoodNotRead(p: NeighbourhoodProvenance, why: string, coverage: number | null = null): NeighbourhoodBlock {
  return {
    available: false,
    loss_ha: null,
    prevalence_pct: null,
    ring_km: RING_KM,
    ring_area_ha: null,
    since_year: SINCE_YEAR,
    canopy_density_threshold_pct: CANOPY_DENSITY_THRESHOLD_PCT,
    ...p,
    accuracy: NEIGHBOURHOOD_ACCURACY,
    coverage,
    note: `Nothing was measured: ${p.source} could not be read (${why}).`,
  };
}

// --- the block and its plan ----------------------------------------------------------------------

export interface RiskBlock {
  note: string;
  article: string;
  protected_area: ProtectedAreaBlock;
  country: CountryRiskBlock;
  neighbourhood: NeighbourhoodBlock;
}

export const PROTECTED_AREA_SOURCE: ProtectedAreaProvenance = {
  source: 'OpenStreetMap, through the Overpass API',
  dataset: 'OSM features tagged boundary=protected_area, boundary=national_park or leisure=nature_reserve',
  licence: 'ODbL 1.0',
  attribution: '© OpenStreetMap contributors',
};

export interface RiskPrepared {
  /** The producer's country classification, looked up on the main thread. */
  country: CountryRiskBlock;
  protectedAreas: ProtectedAreaAnswer;
  neighbourhood: { provenance: NeighbourhoodProvenance } & (
    | { state: 'read'; treecover2000: string; lossyear: string; datamask: string; partlyRead?: PartlyRead }
    | { state: 'not_read'; why: string }
  );
}

