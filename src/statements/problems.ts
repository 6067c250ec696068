/**
 * What keeps a statement from being filed, in the information system's own terms: each problem
 * names the V3 field it concerns and, where the system's documents give one, the error code it
 * would answer (`eudr_code`). A problem is reported, never worked around by changing the batch.
 */
export interface Problem {
  /** The service's stable code for the problem. */
  code: ProblemCode;
  /** The information system's error code for the same refusal, where its documents name one. */
  eudr_code: string | null;
  /** The V3 element the problem concerns, as a path under SubmitDdsRequest. */
  field: string;
  message: string;
  /** The batch's plots the problem concerns. */
  plot_ids?: string[];
}

export const PROBLEM_CODES = [
  'missing',
  'activity_not_in_v3',
  'hs_heading_too_long',
  'internal_reference_too_long',
  'description_too_long',
  'net_mass_required',
  'supplementary_unit_required',
  'supplementary_unit_not_allowed',
  'supplementary_unit_type_required',
  'species_required',
  'producer_country_required',
  'plot_rejected',
  'plot_without_geometry',
  'polygon_with_hole',
  'point_area_out_of_range',
  'vertices_collapse',
  'producer_without_plots',
  'too_many_producers_per_commodity',
  'too_many_producers',
  'geolocation_too_large',
  'schema_invalid',
  'schema_unavailable',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export const problem = (code: ProblemCode, field: string, message: string, eudrCode: string | null = null, plotIds?: string[]): Problem => ({
  code,
  eudr_code: eudrCode,
  field,
  message,
  ...(plotIds !== undefined && { plot_ids: plotIds }),
});
