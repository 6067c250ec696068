// The `concession` block (spec 2.8.7): Indonesian wood-fibre (pulpwood) concessions, view-only.
// Present only for a centroid inside Indonesia's extent; it can only move a positive finding to a
// withheld one (inside a licensed concession, or the layer unread on Indonesian ground).
import { area, booleanIntersects, feature, featureCollection, intersect, union } from '@turf/turf';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import type { Archive } from '../archive.ts';
import { GFW_DATA_API } from '../sources/products/gfw-data-api.ts';
import { type ConcessionFeature, WOOD_FIBRE_DATASET } from '../sources/products/wood-fibre-concessions/codes.ts';
import { inBox, type ContextPlot, type LonLatBox } from './plot.ts';
import { unlessAborted } from './rasters.ts';
import { round } from './wording.ts';

/**
 * Indonesia's extent (95°E–141°E, 11°S–6°N), its northern edge carried to 7.4°N so the box holds
 * all of Malaysia (Banggi, Sabah), as the spec has it: Malaysian plots carry the block.
 */
export const INDONESIA_EXTENT: LonLatBox = [94.9, -11.1, 141.1, 7.4];
/** Malaysia's extent: a centroid here with no country given is not taken for Indonesian ground. */
export const MALAYSIA_EXTENT: LonLatBox = [99.6, 0.8, 119.3, 7.4];

export const CONCESSION_CAUTION =
  'The concession layer is described by its publisher as incomplete: a plot outside every mapped concession may still lie in one that is not mapped. The layer is view-only: this block gives whether the plot intersects a concession, the share inside and the licence class, never the concession\'s name.';

export interface ConcessionProvenance {
  source: string;
  dataset: string;
  version: string | null;
  licence: string;
  citation: string;
}

export interface ConcessionBlock {
  checked: boolean;
  inside: boolean | null;
  share: number | null;
  licence_type: string | null;
  source: string;
  dataset: string;
  version: string | null;
  licence: string;
  citation: string;
  caution: string;
  note: string;
}

export type { ConcessionFeature };

export interface ConcessionFacts {
  inside_licensed_pulpwood_concession: boolean;
  concession_layer_unavailable: boolean;
}

export type ConcessionLayer =
  | { checked: true; features: ConcessionFeature[]; provenance: ConcessionProvenance }
  | { checked: false; why: string; provenance: ConcessionProvenance };

/** Whether the block is present at all: the centroid lies in Indonesia's extent. */
export function concessionApplies(centroid: readonly [number, number]): boolean {
  return inBox(INDONESIA_EXTENT, centroid);
}

/**
 * An unread layer withholds on Indonesian ground: the plot's country is ID, or no country was
 * given and the centroid is not also in Malaysia's extent.
 */
function unreadWithholds(plot: ContextPlot): boolean {
  const country = plot.country?.toUpperCase() ?? null;
  return country === 'ID' || (country === null && !inBox(MALAYSIA_EXTENT, plot.centroid));
}

export function readConcession(plot: ContextPlot, layer: ConcessionLayer, readOn: string): { concession: ConcessionBlock; facts: ConcessionFacts } {
  const frame = { ...layer.provenance, caution: CONCESSION_CAUTION };
  if (!layer.checked) {
    const withholds = unreadWithholds(plot);
    return {
      concession: {
        checked: false,
        inside: null,
        share: null,
        licence_type: null,
        ...frame,
        note: `The concession layer could not be read on ${readOn} (${layer.why}): whether the plot lies in a concession is not known, and it is not reported as outside. ${
          withholds ? 'On Indonesian ground a positive finding is withheld until the check is made.' : 'On this plot the finding stands; the layer was not read.'
        } Running the plot again settles the check.`,
      },
      facts: { inside_licensed_pulpwood_concession: false, concession_layer_unavailable: withholds },
    };
  }
  const plotFeature = feature(plot.footprint);
  const hits = layer.features.filter((f) => booleanIntersects(plotFeature, f.geometry));
  if (hits.length === 0) {
    return {
      concession: {
        checked: true,
        inside: false,
        share: 0,
        licence_type: null,
        ...frame,
        note: `As read on ${readOn}, the plot lies outside every mapped concession; this is the answer of the day of issue.`,
      },
      facts: { inside_licensed_pulpwood_concession: false, concession_layer_unavailable: false },
    };
  }
  // Any intersection counts as inside; the share is of the plot's area under the union of the concessions hit.
  const concessions: Feature<Polygon | MultiPolygon> | null =
    hits.length === 1 ? feature(hits[0].geometry) : union(featureCollection(hits.map((h) => feature(h.geometry))));
  const overlap = concessions === null ? null : intersect(featureCollection([plotFeature, concessions]));
  const share = overlap === null ? 0 : Math.min(1, area(overlap) / area(plotFeature));
  const classes = [...new Set(hits.map((h) => h.licenceType))].sort();
  return {
    concession: {
      checked: true,
      inside: true,
      share: round(share, 4),
      licence_type: classes.join('; '),
      ...frame,
      note: `As read on ${readOn}, the plot intersects a licensed pulpwood concession; this is the answer of the day of issue.`,
    },
    facts: { inside_licensed_pulpwood_concession: true, concession_layer_unavailable: false },
  };
}

// --- planning (main thread) and computing (worker) ----------------------------------------------

/** What the layer answered for the plot, and the day it answered; null where the block is absent. */
export type ConcessionPrepared = { layer: ConcessionLayer; readOn: string } | null;

const SOURCE = 'Global Forest Watch Data API';

/** Asks the layer for the concessions intersecting the plot; an unanswered layer is recorded, never taken for outside. */
export async function planConcession(plot: ContextPlot, archive: Archive, readOn: string, signal?: AbortSignal): Promise<ConcessionPrepared> {
  if (!concessionApplies(plot.centroid)) return null;
  try {
    const read = await archive.concessions.read(plot.footprint, signal);
    const p = read.provenance;
    return {
      readOn,
      layer: {
        checked: true,
        features: read.features,
        provenance: { source: SOURCE, dataset: p.dataset, version: read.version, licence: p.licence, citation: p.citation },
      },
    };
  } catch (err) {
    const why = unlessAborted(err, signal);
    return {
      readOn,
      layer: {
        checked: false,
        why,
        provenance: { source: SOURCE, dataset: WOOD_FIBRE_DATASET, version: null, licence: 'Varies by source', citation: `Global Forest Watch, ${WOOD_FIBRE_DATASET}, ${GFW_DATA_API}/dataset/${WOOD_FIBRE_DATASET}` },
      },
    };
  }
}

export function computeConcession(p: ConcessionPrepared, plot: ContextPlot): { concession: ConcessionBlock; facts: ConcessionFacts } | null {
  return p === null ? null : readConcession(plot, p.layer, p.readOn);
}
