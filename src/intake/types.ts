/** Shapes shared by the parsers, the validation and their callers. */

/** WGS84 longitude, latitude in decimal degrees. */
export type Position = [number, number];

export type PlotGeometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };

export type SourceFormat = 'geojson' | 'shapefile' | 'csv' | 'kml' | 'kmz';

/** One record of the file as read, before any judgement. */
export interface RawPlot {
  /** 0-based position among the file's records (features, shapefile records, CSV data rows). */
  index: number;
  /** The geometry as found: a GeoJSON-like object, possibly malformed, or null. */
  geometry: unknown;
  properties: Record<string, unknown>;
  /** The record's own id (a GeoJSON Feature's `id` member, a KML Placemark's `id` attribute), a reference where the properties hold no `ref`. */
  featureId?: unknown;
  /** Decimals written in the source text where the format keeps them (GeoJSON, CSV, KML); otherwise read from the numbers. */
  writtenDecimals?: number;
  /** Why the parser swapped the plot's coordinates back (a CSV's lat and lon columns exchanged), for its finding. */
  axesSwapped?: string;
  /** True where the format fixes ring orientation itself (shapefile), so orientation is no finding. */
  orientationByFormat?: boolean;
}

/** A record that could not become a plot at all (a ragged CSV row, a feature that is not an object). */
export interface RowError {
  index: number;
  /** 1-based line of the file, for line-based formats. */
  line?: number;
  code: 'ragged_row' | 'not_a_feature';
  message: string;
}

export interface ParsedFile {
  format: SourceFormat;
  plots: RawPlot[];
  notes: string[];
  /** The first MAX_ROW_ERRORS row errors. */
  row_errors: RowError[];
  /** Row errors beyond those listed. */
  row_errors_omitted: number;
}
