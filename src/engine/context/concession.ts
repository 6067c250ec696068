// The `concession` block (spec 2.8.7): Indonesian wood-fibre (pulpwood) concessions, view-only.
// Present only for a centroid inside Indonesia's extent; it can only move a positive finding to a
// withheld one (inside a licensed concession, or the layer unread on Indonesian ground).
import type { ConcessionFeature } from '../sources/products/wood-fibre-concessions/codes.ts';
import { inBox, type LonLatBox } from './plot.ts';

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

/** What the layer answered for the plot, and the day it answered; null where the block is absent. */
export type ConcessionPrepared = { layer: ConcessionLayer; readOn: string } | null;

