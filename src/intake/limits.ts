/** Limits of one import (spec section 8). */

/** 25 MB read as MiB: a file the EU information system's 25 MB geolocation cap admits is never refused here. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

export const MAX_PLOTS = 100_000;

/**
 * The longest ref taken, in characters: a ref is the key a re-upload matches on and is indexed as
 * such, and a plot's own reference is short; one over this is a plot rejected, not a register key.
 */
export const MAX_REF_CHARS = 200;

/**
 * The largest plot taken, in hectares, by default (MAX_PLOT_AREA_HA): a plot larger is a region, not a
 * plot, and every window of its read grows with it.
 */
export const MAX_PLOT_AREA_HA = 10_000;

/**
 * Bound on the expanded size of the shapefile parts inside a zip. Polygon coordinates compress
 * about 2-3 times, so a full 25 MB zip of real plots expands to well under this; a zip bomb does not.
 */
export const MAX_ZIP_EXPANDED_BYTES = 256 * 1024 * 1024;
