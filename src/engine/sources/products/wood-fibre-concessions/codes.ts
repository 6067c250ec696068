// Indonesian wood-fibre (pulpwood, HTI) concessions from the GFW Data API vector dataset
// `gfw_wood_fiber` (data-products.md §13). View-only: the adapter keeps each concession's
// outline and class, never its name.
import type { Polygon, MultiPolygon } from 'geojson';

export const WOOD_FIBRE_DATASET = 'gfw_wood_fiber';

/**
 * The layer's attribute names are unconfirmed. A licence class is read from the first of these
 * fields the catalogue lists; without one, every feature of this dataset is by definition a
 * wood-fibre (pulpwood) concession and is classed so.
 */
export const LICENCE_FIELD_CANDIDATES = ['licence_type', 'license_type', 'permit_type', 'type'] as const;
export const DEFAULT_LICENCE_TYPE = 'wood fibre (pulpwood) concession';

export interface ConcessionFeature {
  geometry: Polygon | MultiPolygon;
  licenceType: string;
}
