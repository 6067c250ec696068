/** Refusals of a whole uploaded file (codes in src/errors.ts's IntakeCode); per-plot problems are findings, never these. */
import { DomainError } from '../errors.ts';
import { MAX_FILE_BYTES, MAX_NESTING_DEPTH, MAX_PLOTS, MAX_UNREADABLE_ROWS, MAX_ZIP_ENTRIES } from './limits.ts';

const mb = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

export const fileTooLarge = () =>
  new DomainError('file_too_large', `The file is larger than ${mb(MAX_FILE_BYTES)}, the most one import takes.`);

export const emptyFile = () => new DomainError('empty_file', 'The uploaded file has no content.');

export const unsupportedFormat = (what: string) =>
  new DomainError(
    'unsupported_format',
    `${what} Accepted are GeoJSON (.geojson, .json), a zipped shapefile (.zip holding .shp, .shx, .dbf and .prj), KML (.kml) or KMZ (.kmz) and CSV of points with lon and lat columns.`,
  );

export const badEncoding = (what: string) =>
  new DomainError('bad_encoding', `${what} Save the file as UTF-8 (with or without a byte order mark) and upload it again.`);

export const badJson = (detail: string) => new DomainError('bad_json', `The file is not valid JSON: ${detail}`);

export const badGeoJson = (detail: string) => new DomainError('bad_geojson', `The file is JSON but not GeoJSON: ${detail}`);

export const badZip = (detail: string) => new DomainError('bad_zip', `The zip archive cannot be read: ${detail}`);

/** `what` the archive holds or expands to, over `cap` bytes. */
export const zipTooLarge = (what: string, cap: number) => new DomainError('zip_too_large', `The zip archive ${what}, more than the ${mb(cap)} allowed.`);

export const zipTooManyEntries = (entries: number) =>
  new DomainError('zip_too_large', `The zip archive holds ${entries.toLocaleString('en')} entries, more than the ${MAX_ZIP_ENTRIES.toLocaleString('en')} a plot file may have.`);

/** `where` says where the document passes the bound. */
export const nestingTooDeep = (where: string) =>
  new DomainError('nesting_too_deep', `The file nests more than ${MAX_NESTING_DEPTH} levels deep (${where}); a plot file needs a handful.`);

/** A CSV's or .dbf's table over a bound: `found` what it has, `cap` the most taken. */
export const tableTooLarge = (found: string, cap: string) =>
  new DomainError('table_too_large', `The file's table has ${found}; the most taken is ${cap}. Leave out the columns the plots do not need, or split the file.`);

export const tooManyRowErrors = (firstLine: number | undefined) =>
  new DomainError(
    'too_many_row_errors',
    `More than ${MAX_UNREADABLE_ROWS.toLocaleString('en')} rows cannot be read (the first at line ${firstLine ?? '?'}), so the file was not read on: check its quoting and delimiter.`,
  );

export const badShapefile = (detail: string) => new DomainError('bad_shapefile', `The shapefile cannot be read: ${detail}`);

export const unsupportedCrs = (detail: string) =>
  new DomainError('unsupported_crs', `${detail} Convert the file to WGS84 longitude and latitude (EPSG:4326) and upload it again.`);

export const badKml = (detail: string) => new DomainError('bad_kml', `The KML cannot be read: ${detail}`);

export const badCsv = (detail: string) => new DomainError('bad_csv', `The CSV cannot be read: ${detail}`);

export const tooManyPlots = () =>
  new DomainError('too_many_plots', `The file holds more than ${MAX_PLOTS.toLocaleString('en')} plots, the most one import takes; split it.`);

/** `cap` as capText() states it. */
export const tooManyVertices = (cap: string) =>
  new DomainError('too_many_vertices', `The file holds more vertices than one import takes, ${cap}; split it or simplify the boundaries.`);

/** A shapefile record over a per-plot cap (`cap` as capText() states it), refused from its header before its points are read. */
export const shapefileRecordTooComplex = (where: string, found: string, cap: string) =>
  new DomainError('geometry_too_complex', `${where} has ${found}; the most one plot may have is ${cap}. Simplify it or split the plot.`);

export const intakeBusy = (retryAfterSeconds: number) =>
  new DomainError('intake_busy', 'The service is judging as many uploads as it takes at once; send the file again shortly.', retryAfterSeconds);

export const judgingOverBudget = (budgetMs: number) =>
  new DomainError(
    'judging_over_budget',
    `Judging the upload took longer than ${budgetMs / 1000} s (FILE_TIME_BUDGET_MS), the most one upload may take; it was stopped and nothing was stored. Send it in smaller files (or batches), or simplify the boundaries it holds.`,
  );

export const tooManyUploads = (limit: number) =>
  new DomainError('too_many_uploads', `This workspace already has ${limit} upload(s) being judged, the most it may have at once; send the next when one has answered.`);

export const uploadTimeout = (seconds: number) =>
  new DomainError('upload_timeout', `The upload did not arrive within ${seconds} seconds; send it again over a faster connection.`);

export const unknownCountry = (value: string, acceptedForms: string) =>
  new DomainError('unknown_country', `"${value}" is not a recognised country. ${acceptedForms}`);

export const nameRequired = () => new DomainError('name_required', 'A producer needs a name.');

export const duplicateProducerRef = (reference: string) =>
  new DomainError('duplicate_ref', `The reference "${reference}" is already held by a producer of this workspace.`);

export const notFound = (what: string, id: string) => new DomainError('not_found', `No ${what} ${id} in this workspace.`);
