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

/**
 * Bound on the entries of a zip, checked from its central directory before any is read: a shapefile
 * is five parts, a KMZ a document and its images; a zip of a million empty entries is not a plot file.
 */
export const MAX_ZIP_ENTRIES = 1_000;

/**
 * Bound on the KML document inside a KMZ, as declared and as inflated: no larger than a KML uploaded
 * by itself may be. The document is parsed whole into a tree many times its size (250 MB of KML took
 * 5.5 GB), so the upload cap, not the zip's, is what bounds the parse.
 */
export const MAX_KML_BYTES = MAX_FILE_BYTES;

/**
 * How deep a GeoJSON or KML document may nest, refused before it is parsed: a FeatureCollection's
 * coordinates lie 8 levels down and KML's Folders rarely nest past ten, while the walks over a
 * document (and JSON's own) use the stack as deep as it nests.
 */
export const MAX_NESTING_DEPTH = 100;

/**
 * The most columns of a CSV or fields of a shapefile's .dbf: dBASE IV's own bound, and far past a
 * plot's attributes. Each is a property of every plot, so a file's cost grows with it times its rows.
 */
export const MAX_FIELDS = 255;

/**
 * The most property values (columns times rows, fields times records) one file may hold: each costs
 * a few microseconds to read and some tens of bytes as a plot's property, whatever its width.
 * 100,000 plots of 20 properties fit.
 */
export const MAX_FIELD_VALUES = 2_000_000;

/** The longest .dbf record taken: 64 text fields as wide as GDAL writes them (254 characters). */
export const MAX_DBF_RECORD_BYTES = 16 * 1024;

/**
 * Rows a CSV parser cannot read (bad quoting) cost it about 0.1 ms each to report; past this many the
 * file is refused rather than read on for minutes.
 */
export const MAX_UNREADABLE_ROWS = 10_000;

/** How many notes a report lists; beyond them it gives only their number. */
export const MAX_NOTES = 100;

/**
 * Bounds on the geometry of one upload, configurable (src/config.ts) and carried to the intake
 * thread with each file. They are checked from counts before any geometry is built, so the repair
 * (JSTS noding, whose cost grows with vertices times crossings) rarely meets an input it cannot finish
 * in a few seconds; the time budget per plot stops the ones they miss.
 */
export interface IntakeCaps {
  /** MAX_VERTICES_PER_PLOT: a 1 ha plot traced every 10 cm has 4,000; a real boundary rarely tens of thousands. */
  verticesPerPlot: number;
  /** MAX_VERTICES_PER_FILE: a full 25 MB GeoJSON holds about a million. */
  verticesPerFile: number;
  /** MAX_PARTS_PER_PLOT: polygons of one MultiPolygon. */
  partsPerPlot: number;
  /** MAX_RING_CROSSINGS: points where a plot's rings cross or touch one another or themselves. */
  crossingsPerPlot: number;
  /**
   * PLOT_TIME_BUDGET_MS: judging one plot is stopped once it has taken this long (the repair reads the
   * clock in its loops, src/intake/plot-deadline.ts), and the plot rejected as geometry_too_complex.
   * The worst plot measured under the default caps (100,000 vertices crossing themselves about 960
   * times) took 1.4 to 6.4 s on a loaded two-core machine, the repair's noding dominating.
   */
  plotBudgetMs: number;
  /** MAX_PLOT_AREA_HA: the largest plot taken, in hectares, a point's declared area included. */
  plotAreaHa: number;
}

export const DEFAULT_CAPS: IntakeCaps = {
  verticesPerPlot: 100_000,
  verticesPerFile: 5_000_000,
  partsPerPlot: 1_000,
  crossingsPerPlot: 1_000,
  plotBudgetMs: 10_000,
  plotAreaHa: MAX_PLOT_AREA_HA,
};

/** The environment variable setting each cap, as refusals and findings name it. */
export const CAP_VARIABLES: Record<keyof IntakeCaps, string> = {
  verticesPerPlot: 'MAX_VERTICES_PER_PLOT',
  verticesPerFile: 'MAX_VERTICES_PER_FILE',
  partsPerPlot: 'MAX_PARTS_PER_PLOT',
  crossingsPerPlot: 'MAX_RING_CROSSINGS',
  plotBudgetMs: 'PLOT_TIME_BUDGET_MS',
  plotAreaHa: 'MAX_PLOT_AREA_HA',
};

/** A cap as refusals and findings state it: its value and the variable that sets it. */
export const capText = (caps: IntakeCaps, cap: keyof IntakeCaps) => `${caps[cap].toLocaleString('en')} (${CAP_VARIABLES[cap]})`;

/**
 * The longest one upload is judged on an intake thread, by default (FILE_TIME_BUDGET_MS): past it the
 * thread is terminated and the upload refused. The largest files measured (25 MB: 20,000 polygons,
 * 100,000 points, a 17 MB KML) take 1 to 6 s on a shared two-core machine, so a minute leaves them
 * room under load while bounding how long one upload keeps others from a thread.
 */
export const DEFAULT_FILE_BUDGET_MS = 60_000;

/** How many row errors a report lists; beyond them it gives only their number. */
export const MAX_ROW_ERRORS = 100;

/** The most characters of the file an error message quotes. */
export const MAX_QUOTED_CHARS = 200;
