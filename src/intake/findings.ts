/**
 * Every finding a plot can carry, what it does to the plot, and its plain message.
 *
 * The effect follows what the EU information system (TRACES) does with a filing's geolocation
 * (EUDR GeoJSON File Description v1.3, Validation rules v1.3, RFC 7946):
 *  - reject: the system refuses the geolocation and no standard repair keeps the caller's meaning
 *    (a LineString, coordinates off the Earth, a ring of two vertices, a point declared over 4 ha);
 *  - repair: the system refuses it (open rings, crossing lines, vertices that collapse at its
 *    6-decimal cut, holes) or RFC 7946 asks otherwise (ring orientation), and a standard repair exists;
 *    the repaired boundary is what is stored and filed;
 *  - inform: the system accepts it, but the caller should know (low precision, a declared area far
 *    from the measured one, a centroid outside the stated country, a producer not matched).
 *
 * Decisions taken where the sources leave room:
 *  - Holes: the File Description (v1.3) says holes are ignored and (error 15) that the system keeps
 *    only the outer boundary. We keep the outer boundary, as the system would, and say how to exclude
 *    the hole instead (polygons without holes). A hole as large as its outer ring or larger is refused:
 *    the outer ring alone would be a plot the file does not draw.
 *  - 6 decimals: the system rounds to 6 decimals and refuses vertices that then coincide. Stored
 *    coordinates keep their full precision (a 6-decimal cut moves a vertex up to 5 cm, which would
 *    defeat the 1 cm re-upload rule); only the vertices that would collapse are merged.
 *  - Fewer than 6 decimals only informs: Article 2(28) of Regulation (EU) 2023/1115 asks for six
 *    decimal digits, but the system does not refuse fewer.
 *  - Centroid outside the stated country only informs: the system does not test geometry against
 *    the producer country, and registry boundaries are generalised near borders and coasts.
 *  - Declared area: the system reads `Area` for points only, so a mismatch on a polygon informs.
 *  - Crossing boundaries are split at the crossings by the even-odd rule (the linework repair of
 *    GEOS/PostGIS ST_MakeValid) rather than buffered by zero, which would drop a figure eight's lobe.
 *  - A plot in the sea only informs (`not_on_land`): land is Natural Earth's 1:50m coastline, drawn to
 *    about a kilometre, and the system does not test it; swapped coordinates that fall on land are
 *    repaired, as with a country.
 *  - A plot without a reference only informs (`no_reference`): the system needs none, but a re-upload
 *    cannot match the plot, so it would be registered again.
 *  - A ref repeated in one file rejects the later plots: the ref is the key a re-upload matches on,
 *    so it cannot name two plots.
 *  - Text that cannot be stored (a NUL, a lone surrogate) rejects the plot and is left out, as is a
 *    ref over 200 characters: the rejected plot is stored without it, so one bad plot never fails the
 *    file's other plots.
 */

import { MAX_REF_CHARS } from './limits.ts';
import { shownText } from './text.ts';

export type FindingEffect = 'reject' | 'repair' | 'inform';

interface FindingRule {
  effect: FindingEffect;
  message: string;
}

/** How far a declared area may lie from the measured one before a finding says so. */
export const AREA_TOLERANCE = {
  /**
   * 10%: areas from cadastres, surveys or equal-area GIS agree with the ellipsoidal area to a few per
   * cent once rounding of the declared figure is allowed for; a Web Mercator area (too large by
   * 1/cos^2(latitude): 3% at 10 degrees, 13% at 20) or a unit slip (acres, square metres) does not.
   */
  relative: 0.1,
  /** 0.01 ha (100 m2) so that a small plot's area rounded to two decimals is not flagged. */
  absoluteHa: 0.01,
} as const;

/**
 * The EU system's point rule: a point stands for at most 4 ha (cattle excepted), and at least 0.1 ha;
 * a point without a declared area is taken as 4 ha.
 */
export const POINT_AREA = { maxHa: 4, minHa: 0.1, assumedHa: 4, exemptCommodity: 'cattle' } as const;

export const REQUIRED_DECIMALS = 6;

/** Under a square metre a polygon is a line or a point drawn as one, not a plot. */
export const MIN_POLYGON_M2 = 1;

export const FINDING_RULES = {
  unsupported_geometry_type: {
    effect: 'reject',
    message: 'The geometry is not a Polygon, MultiPolygon or Point; a plot is one of those (a LineString, for one, is refused in a filing).',
  },
  empty_geometry: { effect: 'reject', message: 'The plot has no geometry or no coordinates.' },
  unreadable_geometry: { effect: 'reject', message: 'The coordinates cannot be read as longitude and latitude numbers.' },
  wrong_nesting: {
    effect: 'repair',
    message: 'The coordinates are nested one level deeper or shallower than the geometry type says; they were read at the depth they have.',
  },
  coordinates_not_on_earth: {
    effect: 'reject',
    message: 'Coordinates fall outside longitude -180..180 or latitude -90..90.',
  },
  axis_order_swapped: {
    effect: 'repair',
    message: 'Latitude and longitude were given in the wrong order, so they were swapped (GeoJSON is longitude first).',
  },
  unclosed_ring: { effect: 'repair', message: 'A ring did not end on its first vertex; it was closed.' },
  duplicate_vertices: { effect: 'repair', message: 'A ring repeated a vertex in a row; the repeats were removed.' },
  vertices_collapse_at_6_decimals: {
    effect: 'repair',
    message: 'Neighbouring vertices coincide once coordinates are cut to 6 decimals, as the EU information system cuts them and then refuses; they were merged.',
  },
  too_few_vertices: { effect: 'reject', message: 'A ring has fewer than three distinct vertices, so it encloses no area.' },
  ring_orientation: {
    effect: 'repair',
    message: 'A ring ran the wrong way for RFC 7946 (outer rings counterclockwise); it was reversed.',
  },
  self_intersection: {
    effect: 'repair',
    message: 'The boundary crosses itself; it was split at the crossings into polygons that do not cross (even-odd rule, as PostGIS ST_MakeValid does).',
  },
  invalid_rings: {
    effect: 'repair',
    message: 'The rings of a polygon do not nest properly (a hole outside its outer ring, or rings that touch along a line); they were rebuilt into valid polygons (even-odd rule).',
  },
  crosses_antimeridian: {
    effect: 'repair',
    message: 'The polygon crosses the antimeridian (180 degrees of longitude) as one ring; it was cut there into a part on either side, as RFC 7946 asks. An evidence read does not cross the antimeridian: to have the plot read, register each side as its own plot.',
  },
  overlapping_parts: { effect: 'repair', message: 'Parts of the MultiPolygon overlap or share edges; they were merged.' },
  polygon_with_holes: {
    effect: 'repair',
    message: 'The polygon has holes: the EU information system ignores holes (GeoJSON File Description v1.3) and files only the outer ring, and so does this register, so the holes were filled. To leave a hole out of the plot, upload the plot as polygons without holes around it.',
  },
  hole_covers_outer_ring: {
    effect: 'reject',
    message: 'A hole (an interior ring) is the polygon\'s outer ring again or larger than it and around it, so as drawn the polygon encloses nothing; the EU information system ignores holes (GeoJSON File Description v1.3) and would file the outer ring alone, which is not what the file draws. Put the plot\'s boundary first and only holes inside it after.',
  },
  degenerate_polygon: { effect: 'reject', message: 'The polygon encloses no area (under a square metre): its vertices lie on a line.' },
  unrepairable_geometry: { effect: 'reject', message: 'The boundary is invalid and could not be repaired.' },
  geometry_too_complex: {
    effect: 'reject',
    message: 'The boundary is too complex to check and repair (too many vertices, parts or crossings, or too long to judge); simplify it or split the plot.',
  },
  point_over_4ha: {
    effect: 'reject',
    message: 'A point stands for a plot declared over 4 ha; a filing needs the plot\'s polygon there (only cattle may be declared as a larger point).',
  },
  plot_too_large: {
    effect: 'reject',
    message: 'The plot covers more than the largest area a plot may have here; split it into several plots of at most that area (a declared point area counts, cattle included).',
  },
  point_area_too_small: { effect: 'reject', message: 'A point\'s declared area is under 0.1 ha, which the EU information system refuses.' },
  point_area_assumed: {
    effect: 'inform',
    message: 'The point has no declared area; the EU information system assumes 4 ha for it.',
  },
  area_mismatch: {
    effect: 'inform',
    message: 'The declared area_ha differs from the area measured on the boundary by more than 10% (and more than 0.01 ha).',
  },
  bad_area: { effect: 'inform', message: 'The declared area_ha is not a number; it was left out.' },
  low_precision: {
    effect: 'inform',
    message: 'Coordinates carry fewer than six decimals, the precision the Regulation asks for (about 10 cm).',
  },
  not_on_land: {
    effect: 'inform',
    message: 'The plot lies in the sea, with its coordinates as written and with latitude and longitude swapped: check them.',
  },
  outside_country: { effect: 'inform', message: 'The plot\'s centroid lies outside the stated country.' },
  unknown_country: {
    effect: 'reject',
    message: 'The country is not a recognised ISO 3166-1 alpha-2 or alpha-3 code or English or French name.',
  },
  bad_planted_year: { effect: 'inform', message: 'planted_year is not a year from 1900 to the present; it was left out.' },
  producer_not_found: { effect: 'inform', message: 'No producer of this workspace has this name; the plot is taken without a producer.' },
  producer_ambiguous: {
    effect: 'inform',
    message: 'Several producers of this workspace have this name; the plot is taken without a producer.',
  },
  invalid_text: {
    effect: 'reject',
    message: 'A property holds a NUL character or a lone UTF-16 surrogate, which is not text that can be stored or filed; the property was not read. Remove the character and upload the plot again.',
  },
  ref_too_long: {
    effect: 'reject',
    message: `The ref is longer than ${MAX_REF_CHARS} characters, the longest a ref may be; it was not kept. Give the plot a shorter ref.`,
  },
  no_reference: {
    effect: 'inform',
    message: 'The plot has no reference (a "ref", the feature\'s "id", or a "plot_id", "plot_ref" or "id" property or column): a re-upload of the file cannot match it to this plot, and registers it again as a new one. Give each plot a reference.',
  },
  duplicate_ref: {
    effect: 'reject',
    message: 'An earlier plot of this file has the same ref; a ref names one plot, so only the first carries it and this one is stored rejected without it.',
  },
} as const satisfies Record<string, FindingRule>;

export type FindingCode = keyof typeof FINDING_RULES;

export interface Finding {
  code: FindingCode;
  message: string;
}

/**
 * A finding with its plain message, and the particulars of this plot after it where they help; text
 * from the file quoted there is shown storable (a geometry type holding a NUL cannot fail the import).
 */
export function finding(code: FindingCode, detail?: string): Finding {
  const message = FINDING_RULES[code].message;
  return { code, message: detail ? `${message} ${shownText(detail)}` : message };
}

export const effectOf = (code: FindingCode): FindingEffect => FINDING_RULES[code].effect;
