import { emptyFile, unsupportedFormat } from './errors.ts';

/** What an upload is read as: a zip holds a shapefile or is a KMZ, told by its entries (plot-file.ts). */
export type UploadKind = 'geojson' | 'csv' | 'kml' | 'zip';

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06];
const PDF = [0x25, 0x50, 0x44, 0x46];
const GZIP = [0x1f, 0x8b];
const OLE = [0xd0, 0xcf, 0x11, 0xe0]; // legacy .xls and .doc

/** First byte that is not whitespace or a UTF-8 byte order mark, or -1. */
function firstSignificant(bytes: Uint8Array): number {
  let i = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  const scan = Math.min(bytes.length, i + 4096);
  for (; i < scan; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return b;
  }
  return i < bytes.length ? bytes[i] : -1;
}

/**
 * The format of an upload, from its content first (zip magic, a JSON opening brace, an XML tag) and
 * its file name second; what is neither is read as CSV, whose parser then names what it misses.
 */
export function detectFormat(bytes: Uint8Array, filename = ''): UploadKind {
  if (bytes.length === 0) throw emptyFile();
  if (startsWith(bytes, ZIP) || startsWith(bytes, EMPTY_ZIP)) return 'zip';
  const first = firstSignificant(bytes);
  if (first === -1) throw emptyFile();
  if (first === 0x7b || first === 0x5b) return 'geojson';
  if (first === 0x3c) return 'kml';
  if (startsWith(bytes, PDF)) throw unsupportedFormat('The file is a PDF.');
  if (startsWith(bytes, GZIP)) throw unsupportedFormat('The file is gzip-compressed.');
  if (startsWith(bytes, OLE)) throw unsupportedFormat('The file is a legacy Office document; save the sheet as CSV.');
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  if (ext === 'zip' || ext === 'kmz') return 'zip';
  if (ext === 'geojson' || ext === 'json') return 'geojson';
  if (ext === 'kml') return 'kml';
  if (['shp', 'shx', 'dbf', 'prj', 'cpg'].includes(ext)) {
    throw unsupportedFormat(`A .${ext} file alone is part of a shapefile; upload its .shp, .shx, .dbf and .prj together in one .zip.`);
  }
  if (['gpkg', 'gml', 'gpx', 'xlsx', 'xls', 'ods', 'pdf'].includes(ext)) {
    throw unsupportedFormat(`.${ext} files are not read.`);
  }
  return 'csv';
}
