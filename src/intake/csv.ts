import { Buffer } from 'node:buffer';
import { parse } from 'csv-parse/sync';
import type { CsvError, Info } from 'csv-parse/sync';
import { writtenDecimals } from './decimals.ts';
import { DomainError } from '../errors.ts';
import { badCsv, emptyFile, tooManyPlots, tooManyRowErrors } from './errors.ts';
import { MAX_FIELDS, MAX_PLOTS, MAX_QUOTED_CHARS, MAX_UNREADABLE_ROWS } from './limits.ts';
import { numberFrom } from './properties.ts';
import { utf8Text } from './text.ts';
import { rowErrorLog } from './row-errors.ts';
import { checkTableSize } from './table-size.ts';
import type { ParsedFile, RawPlot } from './types.ts';

/** The delimiters a spreadsheet writes: comma, semicolon (where the comma is the decimal mark), tab, pipe. */
const DELIMITERS = [',', ';', '\t', '|'];
const LON = ['lon', 'lng', 'long', 'longitude'];
const LAT = ['lat', 'latitude'];

/**
 * The parser's message repeats the whole field: an error quotes no more than MAX_QUOTED_CHARS of it,
 * copied out (a slice of a string can keep the whole string alive).
 */
const quoted = (message: string) =>
  message.length > MAX_QUOTED_CHARS ? `${Buffer.from(message.slice(0, MAX_QUOTED_CHARS), 'utf16le').toString('utf16le')}…` : message;

/**
 * The parser reports every bad quote of a row, each message repeating the field so far: a row of
 * thousands would cost time and memory growing with their square, so a row past this many refuses the file.
 */
const MAX_ERRORS_PER_ROW = 10;

const columnIndex = (header: string[], names: string[]) => header.findIndex((h) => names.includes(h.trim().toLowerCase()));

/**
 * The delimiter is the one whose split of the header line yields both a lon and a lat column;
 * a header that no delimiter splits that way is refused, naming what was found. The parser costs
 * about a microsecond a character, so a delimiter is tried only where the line holds it once at
 * least and no more often than a header may have columns; the header is refused as too wide when
 * only such a delimiter could read it.
 */
function sniffHeader(text: string): { delimiter: string; header: string[] } {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  let widest = 0;
  for (const delimiter of DELIMITERS) {
    const columns = firstLine.split(delimiter).length;
    if (columns < 2) continue;
    if (columns > MAX_FIELDS) {
      widest = Math.max(widest, columns);
      continue;
    }
    let header: string[];
    try {
      header = (parse(firstLine, { delimiter, relax_quotes: true }) as string[][])[0] ?? [];
    } catch {
      continue;
    }
    if (columnIndex(header, LON) >= 0 && columnIndex(header, LAT) >= 0) return { delimiter, header };
  }
  if (widest > 0) checkTableSize(widest, 0, 'csv', 'the header line');
  throw badCsv(`the first line must name a lon and a lat column (it reads: ${JSON.stringify(firstLine.slice(0, 200))}).`);
}

/** CSV of points, one plot per data row; other columns are the plot's properties (spec 2.2). */
export function parseCsv(bytes: Uint8Array): ParsedFile {
  const text = utf8Text(bytes).replace(/^\uFEFF/, '');
  if (text.trim() === '') throw emptyFile();
  const { delimiter, header } = sniffHeader(text);
  const lonAt = columnIndex(header, LON);
  const latAt = columnIndex(header, LAT);

  const rowErrors = rowErrorLog();
  const plots: RawPlot[] = [];
  let index = 0;
  // A latitude column holding values beyond ±90 beside a longitude column that never leaves ±90: the columns are exchanged.
  let latBeyond: number | null = null;
  let lonBeyond = false;
  // Rows are handled as the parser meets them (on_record, on_skip), so plots and row errors keep the
  // file's order and no array of all records is held beside the plots.
  const take = (record: string[], line: number) => {
    if (record.length !== header.length) {
      rowErrors.add({ index: index++, line, code: 'ragged_row', message: `Line ${line} has ${record.length} fields; the header has ${header.length}.` });
      return;
    }
    if (plots.length >= MAX_PLOTS) throw tooManyPlots();
    checkTableSize(header.length, plots.length + 1, 'csv', `line ${line}`);
    const properties: Record<string, unknown> = {};
    header.forEach((name, i) => {
      if (i !== lonAt && i !== latAt && name.trim() !== '') properties[name.trim()] = record[i];
    });
    const lonText = record[lonAt].trim();
    const latText = record[latAt].trim();
    const lon = numberFrom(lonText) ?? Number.NaN;
    const lat = numberFrom(latText) ?? Number.NaN;
    if (Math.abs(lat) > 90 && latBeyond === null) latBeyond = lat;
    if (Math.abs(lon) > 90) lonBeyond = true;
    const geometry = lonText === '' && latText === '' ? null : { type: 'Point', coordinates: [lon, lat] };
    plots.push({ index: index++, geometry, properties, writtenDecimals: Math.min(writtenDecimals(lonText), writtenDecimals(latText)) });
  };
  let erringLine: number | undefined;
  let firstErringLine: number | undefined;
  let errorsOnRow = 0;
  let unreadable = 0;
  try {
    parse(text, {
      delimiter,
      from_line: 2,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_record: (record: string[], context: Info) => {
        take(record, context.lines);
        return null;
      },
      on_skip: (error: CsvError | undefined) => {
        const line = typeof error?.lines === 'number' ? error.lines : undefined;
        errorsOnRow = line === erringLine ? errorsOnRow + 1 : 1;
        erringLine = line;
        firstErringLine ??= line;
        if (++unreadable > MAX_UNREADABLE_ROWS) throw tooManyRowErrors(firstErringLine);
        if (errorsOnRow > MAX_ERRORS_PER_ROW) throw badCsv(`line ${line} has more than ${MAX_ERRORS_PER_ROW} quoting errors.`);
        rowErrors.add({ index: index++, line, code: 'ragged_row', message: `The row cannot be read: ${quoted(error?.message ?? 'malformed quoting')}.` });
      },
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw badCsv(error instanceof Error ? error.message : String(error));
  }
  const notes: string[] = [];
  if (latBeyond !== null && !lonBeyond) {
    const [lonName, latName] = [header[lonAt].trim(), header[latAt].trim()];
    const why = `The "${latName}" column holds values beyond ±90 (${latBeyond}, for one) and the "${lonName}" column none: the two columns are exchanged.`;
    notes.push(`${why} Every row was read with them swapped back.`);
    for (const plot of plots) {
      const point = plot.geometry as { coordinates: number[] } | null;
      if (point) point.coordinates.reverse();
      plot.axesSwapped = why;
    }
  }
  return { format: 'csv', plots, notes, ...rowErrors.fields() };
}
