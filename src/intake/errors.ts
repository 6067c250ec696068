import { MAX_FILE_BYTES, MAX_PLOTS, MAX_ZIP_EXPANDED_BYTES } from './limits.ts';

/**
 * A refusal of a whole uploaded file. `status` and `code` are stable, so an HTTP layer can answer
 * `{error:{code,message}}` with them unchanged; per-plot problems are findings, never these.
 */
export class IntakeError extends Error {
  readonly status: number;
  readonly code: IntakeErrorCode;
  constructor(status: number, code: IntakeErrorCode, message: string) {
    super(message);
    this.name = 'IntakeError';
    this.status = status;
    this.code = code;
  }
}

export type IntakeErrorCode =
  | 'file_too_large'
  | 'empty_file'
  | 'unsupported_format'
  | 'bad_encoding'
  | 'bad_json'
  | 'bad_geojson'
  | 'bad_zip'
  | 'zip_too_large'
  | 'bad_shapefile'
  | 'unsupported_crs'
  | 'bad_csv'
  | 'too_many_plots'
  | 'unknown_country'
  | 'name_required'
  | 'duplicate_ref'
  | 'not_found';

const mb = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

export const fileTooLarge = () =>
  new IntakeError(413, 'file_too_large', `The file is larger than ${mb(MAX_FILE_BYTES)}, the most one import takes.`);

export const emptyFile = () => new IntakeError(422, 'empty_file', 'The uploaded file has no content.');

export const unsupportedFormat = (what: string) =>
  new IntakeError(
    422,
    'unsupported_format',
    `${what} Accepted are GeoJSON (.geojson, .json), a zipped shapefile (.zip holding .shp, .shx, .dbf and .prj) and CSV of points with lon and lat columns.`,
  );

export const badEncoding = (what: string) =>
  new IntakeError(422, 'bad_encoding', `${what} Save the file as UTF-8 (with or without a byte order mark) and upload it again.`);

export const badJson = (detail: string) => new IntakeError(422, 'bad_json', `The file is not valid JSON: ${detail}`);

export const badGeoJson = (detail: string) => new IntakeError(422, 'bad_geojson', `The file is JSON but not GeoJSON: ${detail}`);

export const badZip = (detail: string) => new IntakeError(422, 'bad_zip', `The zip archive cannot be read: ${detail}`);

export const zipTooLarge = (declaredBytes: number) =>
  new IntakeError(
    422,
    'zip_too_large',
    `The zip archive expands to ${declaredBytes} bytes of shapefile parts, more than the ${mb(MAX_ZIP_EXPANDED_BYTES)} allowed.`,
  );

export const badShapefile = (detail: string) => new IntakeError(422, 'bad_shapefile', `The shapefile cannot be read: ${detail}`);

export const unsupportedCrs = (detail: string) =>
  new IntakeError(422, 'unsupported_crs', `${detail} Convert the file to WGS84 longitude and latitude (EPSG:4326) and upload it again.`);

export const badCsv = (detail: string) => new IntakeError(422, 'bad_csv', `The CSV cannot be read: ${detail}`);

export const tooManyPlots = () =>
  new IntakeError(422, 'too_many_plots', `The file holds more than ${MAX_PLOTS.toLocaleString('en')} plots, the most one import takes; split it.`);

export const unknownCountry = (value: string, acceptedForms: string) =>
  new IntakeError(422, 'unknown_country', `"${value}" is not a recognised country. ${acceptedForms}`);

export const nameRequired = () => new IntakeError(422, 'name_required', 'A producer needs a name.');

export const duplicateProducerRef = (reference: string) =>
  new IntakeError(409, 'duplicate_ref', `The reference "${reference}" is already held by a producer of this workspace.`);

export const notFound = (what: string, id: string) => new IntakeError(404, 'not_found', `No ${what} ${id} in this workspace.`);
